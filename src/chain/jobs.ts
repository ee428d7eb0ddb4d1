import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeAbiParameters,
  erc20Abi,
  isAddressEqual,
  zeroAddress,
} from "viem";
import { agenticCommerceAbi, caseFactoryAbi, courtEvaluatorAbi, docketArbitratorAbi } from "./abi/generated.js";
import type { Arbitration, ChainAccess } from "./access.js";
import { readAll, readChainTime, readFound, readPage } from "./reads/core.js";

/**
 * The least time a job judged by docket's court must give its provider to do the work and submit,
 * beyond the challenge window and the court's worst case (create_job refuses less).
 */
export const MIN_JOB_WORK_TIME = 3600n;
/** The working time create_job adds to the window and the worst case when no expiry is given. */
export const DEFAULT_JOB_WORK_TIME = 7n * 86_400n;

/* Every read here is one JSON-RPC request (one multicall), the second only where it says so. */

/** ERC-8183 job statuses, in the contract's enum order. */
export const JOB_STATES = ["Open", "Funded", "Submitted", "Completed", "Rejected", "Expired"] as const;
export type JobState = (typeof JOB_STATES)[number];
/** CourtEvaluator.Phase, in enum order. */
export const JOB_PHASES = ["waiting", "in_window", "finalizable", "disputed", "ruled", "finalized", "closed"] as const;
export type JobPhase = (typeof JOB_PHASES)[number];
/** DocketArbitrator.RulingStatus, in enum order. */
export const RULING_STATUSES = ["pending", "delivered", "failed"] as const;

/** The docket evaluator at `addr`, if it is one. */
export function evaluatorOf(a: Arbitration, addr: Address) {
  return a.evaluators.find((e) => isAddressEqual(e.address, addr));
}

/** What `arbitrationCost` is asked with: the first two words of the dispute's extraData (court, panel). */
export function costExtraData(court: number, judges: number) {
  return encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [BigInt(court), BigInt(judges)]);
}

/** The cost and worst-case duration of a dispute in `court` with a panel of at least `judges`: one multicall. */
export async function readArbitrationCost(chain: ChainAccess, a: Arbitration, courtId: number, judges: number) {
  const extraData = costExtraData(courtId, judges);
  const [cost, maxDuration] = await readAll(chain, [
    { address: a.arbitrator, abi: docketArbitratorAbi, functionName: "arbitrationCost", args: [extraData] },
    { address: a.arbitrator, abi: docketArbitratorAbi, functionName: "maxDuration", args: [extraData] },
  ]);
  return { extraData, cost, maxDuration };
}

/**
 * One job, how each docket evaluator sees it (its evaluation, the dispute's cost now, the latest a
 * dispute filed now would be ruled) and the chain time: one multicall. Undefined for no such job.
 */
export async function readJob(chain: ChainAccess, a: Arbitration, id: bigint) {
  // Same tick: the client batches these reads into one Multicall3 eth_call; each fails on its own.
  const r = chain.reader;
  const [job, clock, ...rest] = await Promise.allSettled([
    r.readContract({ address: a.commerce, abi: agenticCommerceAbi, functionName: "getJob", args: [id] }),
    readChainTime(chain),
    ...a.evaluators.flatMap((e) => [
      r.readContract({ address: e.address, abi: courtEvaluatorAbi, functionName: "getEvaluation", args: [id] }),
      r.readContract({ address: e.address, abi: courtEvaluatorAbi, functionName: "arbitrationCost" }),
      r.readContract({ address: e.address, abi: courtEvaluatorAbi, functionName: "rulingDeadline" }),
    ]),
  ]);
  // The clock cannot fail but with the node: then nothing read says "no such job".
  if (clock.status !== "fulfilled") throw clock.reason;
  if (job.status !== "fulfilled") {
    if (isContractRevert(job.reason)) return undefined;
    throw job.reason;
  }
  const j = job.value as JobView;
  const e = evaluatorOf(a, j.evaluator);
  let evaluation: EvaluationRead | undefined;
  if (e) {
    const i = a.evaluators.indexOf(e) * 3;
    const [ev, cost, deadline] = [rest[i], rest[i + 1], rest[i + 2]];
    if (ev?.status !== "fulfilled") throw ev?.reason;
    if (cost?.status !== "fulfilled") throw cost?.reason;
    if (deadline?.status !== "fulfilled") throw deadline?.reason;
    evaluation = {
      evaluator: e.address,
      court: e.courtId,
      view: ev.value as EvaluationView,
      cost: cost.value as bigint,
      rulingDeadline: deadline.value as bigint,
    };
  }
  return { job: j, chainTime: clock.value as bigint, evaluation };
}

/** Whether a read failed because the contract reverted (an unknown job), not because the node did. */
function isContractRevert(err: unknown): boolean {
  return err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError) !== null;
}
export type JobView = {
  id: bigint;
  client: Address;
  provider: Address;
  evaluator: Address;
  hook: Address;
  description: string;
  budget: bigint;
  expiredAt: bigint;
  status: number;
  deliverable: `0x${string}`;
  submittedAt: bigint;
  reason: `0x${string}`;
};
export type EvaluationView = {
  jobId: bigint;
  phase: number;
  windowEndsAt: bigint;
  disputed: boolean;
  disputeId: bigint;
  caseAddr: Address;
  ruling: number;
};
export interface EvaluationRead {
  evaluator: Address;
  court: number;
  view: EvaluationView;
  cost: bigint;
  rulingDeadline: bigint;
}

/** A dispute, its case and the case's arbitration record: one multicall. */
export async function readDispute(chain: ChainAccess, a: Arbitration, disputeId: bigint, caseAddr: Address) {
  const [dispute, caseRead] = await readAll(chain, [
    { address: a.arbitrator, abi: docketArbitratorAbi, functionName: "getDispute", args: [disputeId] },
    { address: chain.factory, abi: caseFactoryAbi, functionName: "getCase", args: [caseAddr] },
  ]);
  return { dispute, caseView: caseRead[0] ? caseRead[1] : undefined };
}
export type DisputeView = Awaited<ReturnType<typeof readDispute>>["dispute"];

/** These jobs as the chain has them now (a page the index found): one multicall. */
export async function readJobs(chain: ChainAccess, a: Arbitration, ids: readonly bigint[]): Promise<JobView[]> {
  if (ids.length === 0) return [];
  const jobs = await readAll(
    chain,
    ids.map((id) => ({ address: a.commerce, abi: agenticCommerceAbi, functionName: "getJob", args: [id] }) as const),
    { batchSize: 0 },
  );
  return jobs as JobView[];
}

/** A page of jobs, newest first, with the total: one eth_call. */
export async function readJobPage(chain: ChainAccess, a: Arbitration, offset: number, limit: number) {
  return readPage(chain, { address: a.commerce, abi: agenticCommerceAbi }, "getJobs", offset, limit);
}

/** The disputes whose ruling failed to deliver (the first 100: they are few): one eth_call. */
export async function readDueRulings(chain: ChainAccess, a: Arbitration) {
  const [, due] = await chain.reader.readContract({
    address: a.arbitrator,
    abi: docketArbitratorAbi,
    functionName: "getDueRulings",
    args: [0n, 100n],
  });
  return due;
}

/** The client's token balance and allowance to the job contract: one multicall. */
export async function readFunding(chain: ChainAccess, a: Arbitration, who: Address) {
  const [balance, allowance] = await readAll(chain, [
    { address: a.token, abi: erc20Abi, functionName: "balanceOf", args: [who] },
    { address: a.token, abi: erc20Abi, functionName: "allowance", args: [who, a.commerce] },
  ]);
  return { balance, allowance };
}

/** Whether a case was filed through an arbitrator, and for which arbitrable and dispute. */
export async function readCaseArbitration(chain: ChainAccess, caseAddr: Address) {
  return readFound(chain, {
    address: chain.factory,
    abi: caseFactoryAbi,
    functionName: "getCaseArbitration",
    args: [caseAddr],
  });
}

/** The job a docket evaluator's dispute is about (undefined when that evaluator did not open it). */
export async function readJobOfDispute(chain: ChainAccess, evaluator: Address, disputeId: bigint) {
  return readFound(chain, {
    address: evaluator,
    abi: courtEvaluatorAbi,
    functionName: "jobOfDispute",
    args: [disputeId],
  });
}

/** A job contract's zero address is "not set" (a provider named later). */
export const isUnset = (a: Address) => isAddressEqual(a, zeroAddress);

/** The client and provider of each job (for the event stream's `addresses`): one multicall; a job that cannot be read is left out. */
export async function readJobParties(
  chain: ChainAccess,
  a: Arbitration,
  ids: readonly bigint[],
): Promise<Map<string, Address[]>> {
  const out = new Map<string, Address[]>();
  if (ids.length === 0) return out;
  const results = await Promise.allSettled(
    ids.map((id) =>
      chain.reader.readContract({ address: a.commerce, abi: agenticCommerceAbi, functionName: "getJob", args: [id] }),
    ),
  );
  results.forEach((r, i) => {
    if (r.status !== "fulfilled") return;
    const j = r.value as JobView;
    out.set(String(ids[i]), isUnset(j.provider) ? [j.client] : [j.client, j.provider]);
  });
  return out;
}
