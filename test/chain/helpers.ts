import { type Address, getAddress } from "viem";
import { caseFactoryAbi, disputeCaseAbi } from "../../src/chain/abi/generated.js";
import { loadConfig } from "../../src/config.js";
import { Actor } from "../../src/devnet/actor.js";
import { devAccounts } from "../../src/devnet/devAccounts.js";
import type { Devnet } from "../../src/devnet/devnet.js";
import { operations } from "../../src/operations/registry.js";
import { type Docket, startServer } from "../../src/server.js";

export interface Api {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are checked field by field
  body: any;
}

/**
 * docket against `rpcUrl` (a proxy in front of `devnet`), its follower polled by the test only:
 * the interval is an hour, so "one poll" is exactly one call of `follower.poll()`.
 */
export async function startBehind(rpcUrl: string, devnet: Devnet, env: Record<string, string> = {}): Promise<Docket> {
  return startServer(
    loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      RATE_LIMIT_PER_MINUTE: "0",
      RPC_URL: rpcUrl,
      CHAIN_ID: "31337",
      FACTORY_ADDRESS: devnet.deployment.factory,
      REGISTRY_ADDRESS: devnet.deployment.registry,
      EVENT_POLL_MS: "3600000",
      ...env,
    }),
  );
}

export async function call(d: Docket, path: string, post?: unknown): Promise<Api> {
  const res = await fetch(`${d.url}${path}`, {
    method: post === undefined ? "GET" : "POST",
    headers: post === undefined ? {} : { "content-type": "application/json" },
    body: post === undefined ? undefined : JSON.stringify(post),
  });
  // GET /evidence/:cid answers the content itself, in its own media type.
  const json = res.headers.get("content-type")?.includes("json") ?? false;
  return { status: res.status, headers: res.headers, body: json ? await res.json() : await res.text() };
}

/** One raw JSON-RPC request (anvil's own methods included). */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export async function mine(url: string, blocks: number): Promise<void> {
  for (let i = 0; i < blocks; i++) await rpc(url, "evm_mine");
}

/** Casts a vote for the plaintiff straight on chain (never through docket) as the first judge who may. */
export async function voteOnChain(devnet: Devnet, caseAddr: Address): Promise<void> {
  const [, view] = await devnet.reader.readContract({
    address: devnet.deployment.factory,
    abi: caseFactoryAbi,
    functionName: "getCase",
    args: [caseAddr],
  });
  for (const judge of view.judges) {
    const dev = devAccounts().find((a) => a.address === getAddress(judge));
    if (!dev) continue;
    const ok = await devnet.reader
      .simulateContract({ address: caseAddr, abi: disputeCaseAbi, functionName: "vote", args: [true], account: judge })
      .then(
        () => true,
        () => false,
      );
    if (!ok) continue;
    await new Actor(dev.account, devnet.chain, devnet.reader).write({
      address: caseAddr,
      abi: disputeCaseAbi,
      functionName: "vote",
      args: [true],
    });
    return;
  }
  throw new Error(`no judge of ${caseAddr} may vote`);
}

export function seeded(devnet: Devnet, label: string): Address {
  const c = devnet.seed?.cases.find((x) => x.label.startsWith(label));
  if (!c) throw new Error(`no seeded case ${label}`);
  return c.address;
}

/**
 * A path for every GET read route of the registry, its `:address` filled with something the seeded
 * dev chain knows: a deliberating case, its first judge (judge and validator routes) or its plaintiff;
 * its `:cid` with evidence published to `d` (POST /evidence), which `GET /evidence/:cid` serves; its
 * `:id` the General court.
 */
export async function everyReadPath(d: Docket, devnet: Devnet): Promise<string[]> {
  const kase = seeded(devnet, "deliberating");
  const view = (await call(d, `/cases/${kase}`)).body.case as { plaintiff: string; judges: string[] };
  const published = await call(d, "/evidence", { content: "every read route", mediaType: "text/plain" });
  if (published.status !== 200) throw new Error(`POST /evidence: ${JSON.stringify(published.body)}`);
  const cid = published.body.cid as string;
  return operations
    .filter((op) => op.kind === "read" && op.http.method === "GET")
    .map((op) =>
      op.http.path
        .replace(":cid", cid)
        .replace(":id", "1")
        .replace(":address", () => {
          if (op.http.path.startsWith("/cases/")) return kase;
          if (op.http.path.startsWith("/judges/") || op.http.path.startsWith("/validate/"))
            return view.judges[0] as string;
          return view.plaintiff;
        }),
    );
}
