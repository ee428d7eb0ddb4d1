import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Address, getAddress } from "viem";

/** What a deployment put on a chain (src/deploy/), as `npm run deploy` records it in deployments/<chainId>.json. */
export interface Deployment {
  chainId: number;
  registry: Address;
  factory: Address;
  /** The draw entropy source the factory was deployed with. */
  entropy: Address;
  /** The libraries every case runs (contracts/case/CaseVoting.sol, CasePayouts.sol), linked into the factory. */
  libraries: CaseLibraries;
  deployer: Address;
  deployedAtBlock: string;
  /** ERC-8004 registries and the court's reporter to them, when deployed (src/deploy/erc8004.ts). */
  erc8004?: Erc8004Deployment;
  /** The token the filing fee may also be paid in (x402 "exact", EIP-3009), if the factory takes one. */
  feeToken?: Address;
  /** The courts created at deployment, in id order (the General court is id 1). */
  courts: DeployedCourt[];
  /** The arbitrator, ERC-8183 job escrow, court-backed evaluators and Validation Registry, when deployed (src/deploy/arbitration.ts). */
  arbitration?: ArbitrationDeployment;
}

/** The linked libraries DisputeCase runs by DELEGATECALL, by library name (a type, not an interface: it is a `Record` of them). */
export type CaseLibraries = {
  CasePayouts: Address;
  CaseVoting: Address;
};

/** A court-backed ERC-8183 evaluator as deployed: its address, its court and its challenge window. */
export interface DeployedEvaluator {
  address: Address;
  /** The court its disputes are filed in (1 the General court). */
  courtId: number;
  /** Seconds after a submission during which the client may dispute. */
  challengeWindow: number;
}

/** docket as an arbitrator for agent commerce (src/devnet/arbitration.ts): what the gateway reads. */
export interface ArbitrationDeployment {
  /** DocketArbitrator: Kleros' IArbitratorV2, files each dispute as a case through the factory. */
  arbitrator: Address;
  /** AgenticCommerce: the reference ERC-8183 job escrow. */
  commerce: Address;
  /** The ERC-20 its budgets are paid in. */
  token: Address;
  /** CourtEvaluators (ERC-8183 evaluators backed by the court), one per court, in court order. */
  evaluators: DeployedEvaluator[];
  /** The ERC-8004 Validation Registry the evaluators answer (beside the identity and reputation registries). */
  validation: Address;
}

/** A court as deployed: its id, name and the CID of its policy document. */
export interface DeployedCourt {
  id: number;
  name: string;
  policy: string;
}

/** The ERC-8004 registries a court reports to, and its reporter (the feedback's clientAddress). */
export interface Erc8004Deployment {
  identity: Address;
  reputation: Address;
  /** CourtReputation: the court registry's outcome hook, giving each case's parties their feedback. */
  reporter: Address;
}

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

export function readDeployment(
  chainId: number,
  dir?: string,
): { factory: Address; registry: Address; arbitration?: ArbitrationDeployment } | undefined {
  const file = deploymentsPath(chainId, dir);
  if (!existsSync(file)) return undefined;
  const d = JSON.parse(readFileSync(file, "utf8")) as Partial<Deployment>;
  if (!d.factory || !d.registry) return undefined;
  return { factory: getAddress(d.factory), registry: getAddress(d.registry), arbitration: d.arbitration };
}

/** The KEY=value lines that point a docket at these arbitration contracts (the settings `arbitrationFromConfig` reads). */
export function arbitrationEnvLines(a: ArbitrationDeployment): string[] {
  return [
    `ARBITRATOR_ADDRESS=${a.arbitrator}`,
    `JOBS_ADDRESS=${a.commerce}`,
    `JOBS_TOKEN_ADDRESS=${a.token}`,
    `EVALUATORS=${a.evaluators.map((e) => `${e.courtId}:${e.address}`).join(",")}`,
  ];
}
