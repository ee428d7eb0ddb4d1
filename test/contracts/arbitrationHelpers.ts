/**
 * Shared helpers for the arbitration suites (arbitration, jobs, escrow invariants): the dev chain's
 * arbitration deployment, extraData in docket's layout, a test arbitrable, and ERC-8183 job steps.
 */
import { type Address, encodeAbiParameters, getAddress, type Hex, parseAbi, parseEventLogs, sha256, toHex } from "viem";
import {
  agenticCommerceAbi,
  courtEvaluatorAbi,
  docketArbitratorAbi,
  testUSDAbi,
  validationRegistryAbi,
} from "../../src/chain/abi/generated.js";
import type { ArbitrationDeployment } from "../../src/chain/deployments.js";
import type { Actor } from "../../src/devnet/actor.js";
import { actor, type CourtDeployment, readView } from "./helpers.js";
import { compileFixture } from "./refuser.js";

export { agenticCommerceAbi, courtEvaluatorAbi, docketArbitratorAbi, validationRegistryAbi };

/** AgenticCommerce.JobStatus, in enum order. */
export const JobStatus = { Open: 0, Funded: 1, Submitted: 2, Completed: 3, Rejected: 4, Expired: 5 } as const;
/** CourtEvaluator.Phase, in enum order. */
export const Phase = {
  Waiting: 0,
  InWindow: 1,
  Finalizable: 2,
  Disputed: 3,
  Ruled: 4,
  Finalized: 5,
  Closed: 6,
} as const;
/** DocketArbitrator.RulingStatus, in enum order. */
export const RulingStatus = { Pending: 0, Delivered: 1, Failed: 2 } as const;

export function arbitrationOf(c: CourtDeployment): ArbitrationDeployment {
  const a = c.devnet.deployment.arbitration;
  if (!a) throw new Error("the dev chain deployed no arbitration");
  return a;
}

/** The evaluator of court `courtId` on the dev chain. */
export function evaluatorOf(c: CourtDeployment, courtId: number): Address {
  const e = arbitrationOf(c).evaluators.find((x) => x.courtId === courtId);
  if (!e) throw new Error(`no evaluator for court ${courtId}`);
  return e.address;
}

/** docket's full extraData: Kleros' (court, minJurors, disputeKit = 1) and the parties, claim and evidence. */
export function extraData(o: {
  court?: bigint;
  jurors?: bigint;
  kit?: bigint;
  plaintiff: Address;
  defendant: Address;
  claim?: string;
  evidence?: string;
}): Hex {
  return encodeAbiParameters(
    [
      { type: "uint256" },
      { type: "uint256" },
      { type: "uint256" },
      { type: "address" },
      { type: "address" },
      { type: "string" },
      { type: "string" },
    ],
    [
      o.court ?? 0n,
      o.jurors ?? 0n,
      o.kit ?? 1n,
      o.plaintiff,
      o.defendant,
      o.claim ?? "The escrowed work was not delivered as agreed.",
      o.evidence ?? "bafkreiarbitrated",
    ],
  );
}

/** Kleros' short extraData: court and panel size. */
export function shortExtraData(court: bigint, jurors: bigint): Hex {
  return encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [court, jurors]);
}

export function arbitrationCost(c: CourtDeployment, data: Hex = "0x"): Promise<bigint> {
  return readView(c, arbitrationOf(c).arbitrator, docketArbitratorAbi, "arbitrationCost", [data]);
}

export function readDispute(c: CourtDeployment, id: bigint) {
  return readView(c, arbitrationOf(c).arbitrator, docketArbitratorAbi, "getDispute", [id]);
}

// ------------------------------------------------------------------ the test arbitrable

export const testArbitrableAbi = parseAbi([
  "function open(uint256 choices, bytes extraData) payable returns (uint256)",
  "function setFailing(bool failing)",
  "function rule(uint256 disputeID, uint256 ruling)",
  "function calls() view returns (uint256)",
  "function lastDispute() view returns (uint256)",
  "function lastRuling() view returns (uint256)",
]);

/** Deploys fixtures/TestArbitrable.sol against the dev chain's arbitrator. */
export async function deployTestArbitrable(c: CourtDeployment, by: Actor): Promise<Address> {
  const { bytecode } = compileFixture("TestArbitrable");
  const hash = await by.wallet.deployContract({
    abi: parseAbi(["constructor(address arbitrator)"]),
    bytecode,
    args: [arbitrationOf(c).arbitrator],
    account: by.account,
    chain: by.chain,
  });
  const r = await by.mined(hash);
  return getAddress(r.contractAddress as Address);
}

/** The test arbitrable opens a dispute (paying the cost); returns its id and case. */
export async function openDispute(
  c: CourtDeployment,
  arbitrable: Address,
  by: Actor,
  data: Hex,
): Promise<{ disputeId: bigint; caseAddr: Address }> {
  const cost = await arbitrationCost(c, data);
  const r = await by.write({
    address: arbitrable,
    abi: testArbitrableAbi,
    functionName: "open",
    args: [2n, data],
    value: cost,
  });
  const [filed] = parseEventLogs({ abi: docketArbitratorAbi, eventName: "DisputeFiled", logs: r.logs });
  if (!filed) throw new Error("no DisputeFiled");
  return { disputeId: filed.args.disputeID, caseAddr: filed.args.caseAddr };
}

// ------------------------------------------------------------------ ERC-8183 jobs

/** The deployer (the token's minter) gives `to` `amount` of the job token. */
export async function mintJobToken(c: CourtDeployment, to: Address, amount: bigint): Promise<void> {
  await c.owner.write({ address: arbitrationOf(c).token, abi: testUSDAbi, functionName: "mint", args: [to, amount] });
}

export function tokenOf(c: CourtDeployment, who: Address): Promise<bigint> {
  return readView(c, arbitrationOf(c).token, testUSDAbi, "balanceOf", [who]);
}

/** The sha2-256 digest a provider submits for a deliverable (its raw CID's digest). */
export function deliverableDigest(text: string): Hex {
  return sha256(toHex(text));
}

export interface JobOpts {
  budget?: bigint;
  /** Seconds from now until the job expires (default: two hours, room for a whole dispute). */
  expiresIn?: bigint;
  description?: string;
}

/** The client creates a job with `evaluator`, the budget is set, and the client funds it. */
export async function fundedJob(
  c: CourtDeployment,
  client: Actor,
  provider: Address,
  evaluator: Address,
  opts: JobOpts = {},
): Promise<bigint> {
  const commerce = arbitrationOf(c).commerce;
  const budget = opts.budget ?? 50_000_000n;
  const now = (await c.reader.getBlock()).timestamp;
  const r = await client.write({
    address: commerce,
    abi: agenticCommerceAbi,
    functionName: "createJob",
    args: [
      provider,
      evaluator,
      now + (opts.expiresIn ?? 7200n),
      opts.description ?? "Summarise the attached filings in 500 words.",
      "0x0000000000000000000000000000000000000000",
    ],
  });
  const [created] = parseEventLogs({ abi: agenticCommerceAbi, eventName: "JobCreated", logs: r.logs });
  if (!created) throw new Error("no JobCreated");
  const jobId = created.args.jobId;
  await client.write({
    address: commerce,
    abi: agenticCommerceAbi,
    functionName: "setBudget",
    args: [jobId, budget, "0x"],
  });
  await client.write({
    address: arbitrationOf(c).token,
    abi: testUSDAbi,
    functionName: "approve",
    args: [commerce, budget],
  });
  await client.write({ address: commerce, abi: agenticCommerceAbi, functionName: "fund", args: [jobId, budget, "0x"] });
  return jobId;
}

export function submitJob(
  c: CourtDeployment,
  provider: Actor,
  jobId: bigint,
  deliverable = deliverableDigest("the summary"),
) {
  return provider.write({
    address: arbitrationOf(c).commerce,
    abi: agenticCommerceAbi,
    functionName: "submit",
    args: [jobId, deliverable, "0x"],
  });
}

export function readJob(c: CourtDeployment, jobId: bigint) {
  return readView(c, arbitrationOf(c).commerce, agenticCommerceAbi, "getJob", [jobId]);
}

export function readEvaluation(c: CourtDeployment, evaluator: Address, jobId: bigint) {
  return readView(c, evaluator, courtEvaluatorAbi, "getEvaluation", [jobId]);
}

/** The client disputes the job through `evaluator`, paying its cost; returns the dispute and its case. */
export async function disputeJob(
  c: CourtDeployment,
  evaluator: Address,
  client: Actor,
  jobId: bigint,
  evidence = "bafkreiclientcomplaint",
): Promise<{ disputeId: bigint; caseAddr: Address }> {
  const cost = await readView(c, evaluator, courtEvaluatorAbi, "arbitrationCost", []);
  const r = await client.write({
    address: evaluator,
    abi: courtEvaluatorAbi,
    functionName: "disputeJob",
    args: [jobId, evidence],
    value: cost,
  });
  const [ev] = parseEventLogs({ abi: courtEvaluatorAbi, eventName: "JobDisputed", logs: r.logs });
  if (!ev) throw new Error("no JobDisputed");
  return { disputeId: ev.args.disputeId, caseAddr: ev.args.caseAddr };
}

/** The eight judges the arbitration and escrow suites stake: dev accounts 7 to 14. */
export function eightJudges(c: CourtDeployment): Actor[] {
  return [7, 8, 9, 10, 11, 12, 13, 14].map((i) => actor(c, i));
}
