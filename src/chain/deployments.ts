import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Address, getAddress } from "viem";
import type { Deployment } from "../devnet/deploy.js";

/** Where `npm run deploy` records a chain's addresses, and where docket looks for them. */
export function deploymentsPath(chainId: number, dir = "deployments"): string {
  return join(dir, `${chainId}.json`);
}

export function writeDeployment(d: Deployment, dir?: string): string {
  const file = deploymentsPath(d.chainId, dir);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(d, null, 2)}\n`);
  return file;
}

export function readDeployment(chainId: number, dir?: string): { factory: Address; registry: Address } | undefined {
  const file = deploymentsPath(chainId, dir);
  if (!existsSync(file)) return undefined;
  const d = JSON.parse(readFileSync(file, "utf8")) as Partial<Deployment>;
  if (!d.factory || !d.registry) return undefined;
  return { factory: getAddress(d.factory), registry: getAddress(d.registry) };
}
