/** Case reads: a case, its evidence, its parties, the pages of cases (every case, Deliberating, a party's open cases, every open case's status), and the names of its states and outcomes. */
import type { Address } from "viem";
import { caseFactoryAbi, disputeCaseAbi } from "../abi/generated.js";
import type { ChainAccess } from "../access.js";
import { readFound, readPage } from "./core.js";
import { readCourts } from "./courts.js";

/** State names in enum order; `Deliberating` is 3, as the interface requires. */
export const STATE_NAMES = [
  "Filed",
  "Summoned",
  "Active",
  "Deliberating",
  "Resolved",
  "Dismissed",
  "Defaulted",
  "Appealed",
] as const;

export const OUTCOME_NAMES = [null, "PlaintiffWon", "DefendantWon", "Dismissed"] as const;

/**
 * Each read below is exactly one JSON-RPC request (an eth_call, or one Multicall3 eth_call). On a
 * chain without Multicall3 (found once, at connect), a "multicall" is its calls made one by one, in
 * parallel: as many eth_calls as it has calls.
 */

export async function readCase(chain: ChainAccess, addr: Address) {
  return readFound(chain, { address: chain.factory, abi: caseFactoryAbi, functionName: "getCase", args: [addr] });
}

export type CaseView = NonNullable<Awaited<ReturnType<typeof readCase>>>;

/** A case (undefined when the address is not one) and every court, to name its court: one multicall. */
export async function readCaseInCourt(chain: ChainAccess, addr: Address) {
  // Same tick, so the client batches both into one Multicall3 eth_call.
  const [view, courts] = await Promise.all([readCase(chain, addr), readCourts(chain)]);
  return { view, courts };
}

/**
 * A case's parties, filing evidence and evidence list, or undefined when the address is not a case.
 * The factory says first whether it is one (its getCase); only a case is called itself: an address
 * that is none may be anything (a precompile that burns all the gas it is given fails the whole
 * multicall its call shares). One request, and a second for the evidence list when it has items.
 */
export async function readCaseEvidence(chain: ChainAccess, addr: Address) {
  // The factory answers only for its own cases, so an address that is not one (a precompile, any
  // contract) is never called: one eth_call, whatever the address.
  const [exists, view, evidence] = await chain.reader.readContract({
    address: chain.factory,
    abi: caseFactoryAbi,
    functionName: "getCaseEvidence",
    args: [addr],
  });
  if (!exists) return undefined;
  return {
    plaintiff: view.plaintiff,
    defendant: view.defendant,
    filing: view.evidenceIpfsHash,
    filedAt: view.filedAt,
    evidence,
  };
}

/** The minimum party stake a case was filed under (its terms are frozen at filing). */
export async function readCaseMinimumStake(chain: ChainAccess, addr: Address): Promise<bigint> {
  const terms = await chain.reader.readContract({ address: addr, abi: disputeCaseAbi, functionName: "terms" });
  // The public getter returns CaseTerms as a tuple, in declaration order.
  const MIN_PARTY_STAKE = 5;
  return terms[MIN_PARTY_STAKE];
}

/** Cases per eth_call when reading participants: well inside a node's gas cap for one call. */
const PARTICIPANTS_PER_CALL = 200;

/**
 * The parties and current panel of each case (its `getSummary`), for the event stream: one multicall
 * for up to 200 cases, however many a poll's events touch. A case whose read fails is left out.
 */
export async function readParticipants(
  chain: ChainAccess,
  cases: readonly Address[],
): Promise<Map<Address, Address[]>> {
  const out = new Map<Address, Address[]>();
  const chunks: Address[][] = [];
  for (let i = 0; i < cases.length; i += PARTICIPANTS_PER_CALL) chunks.push(cases.slice(i, i + PARTICIPANTS_PER_CALL));
  await Promise.all(
    chunks.map(async (chunk) => {
      const contracts = chunk.map((c) => ({ address: c, abi: disputeCaseAbi, functionName: "getSummary" }) as const);
      const results = chain.hasMulticall3
        ? await chain.reader.multicall({ allowFailure: true, batchSize: 0, contracts })
        : (await Promise.allSettled(contracts.map((c) => chain.reader.readContract(c)))).map((r) =>
            r.status === "fulfilled" ? { status: "success" as const, result: r.value } : { status: "failure" as const },
          );
      results.forEach((r, i) => {
        if (r.status === "success" && r.result)
          out.set(chunk[i] as Address, [r.result.plaintiff, r.result.defendant, ...r.result.judges]);
      });
    }),
  );
  return out;
}

/** A page of every case. */
export async function readCasePage(chain: ChainAccess, offset: number, limit: number) {
  return readPage(chain, { address: chain.factory, abi: caseFactoryAbi }, "getCases", offset, limit);
}

/** A page of the cases in Deliberating, from the factory's own index of them. */
export async function readDeliberating(chain: ChainAccess, offset: number, limit: number) {
  return readPage(chain, { address: chain.factory, abi: caseFactoryAbi }, "getDeliberatingCases", offset, limit);
}

/**
 * A page of the open cases `who` takes part in (party, or judge of any round), each as the compact
 * status the inbox works from, with the chain time the page was read at: one eth_call.
 */
export async function readInvolvedCases(chain: ChainAccess, who: Address, offset: number, limit: number) {
  const [total, chainTime, page] = await chain.reader.readContract({
    address: chain.factory,
    abi: caseFactoryAbi,
    functionName: "getInvolvedCases",
    args: [who, BigInt(offset), BigInt(limit)],
  });
  return { total: Number(total), chainTime: Number(chainTime), cases: page };
}

/** A page of every open case's status, for the keeper view: one eth_call. */
export async function readCaseStatuses(chain: ChainAccess, offset: number, limit: number) {
  const [total, chainTime, page] = await chain.reader.readContract({
    address: chain.factory,
    abi: caseFactoryAbi,
    functionName: "getCaseStatuses",
    args: [BigInt(offset), BigInt(limit)],
  });
  return { total: Number(total), chainTime: Number(chainTime), cases: page };
}

export type CaseStatusView = Awaited<ReturnType<typeof readCaseStatuses>>["cases"][number];

/** What the index keeps of a case beside its events: its status now and its claim's words. */
export interface CaseFacts {
  status?: CaseStatusView;
  claim?: string;
}

const FACTS_PER_CALL = 200;

/**
 * The status of each case in `touched` (its `getStatus`) and the claim of each in `filed` (the
 * factory's `getCase`), for the index after a step: one multicall per 200 calls, however many cases a
 * step touches. A case whose read fails is left out (the index keeps what it had).
 */
export async function readCaseFacts(
  chain: ChainAccess,
  touched: readonly Address[],
  filed: readonly Address[],
): Promise<Map<string, CaseFacts>> {
  const calls = [
    ...touched.map((c) => ({ address: c, abi: disputeCaseAbi, functionName: "getStatus" }) as const),
    ...filed.map((c) => ({ address: chain.factory, abi: caseFactoryAbi, functionName: "getCase", args: [c] }) as const),
  ];
  const results: { status: "success" | "failure"; result?: unknown }[] = [];
  for (let i = 0; i < calls.length; i += FACTS_PER_CALL) {
    const chunk = calls.slice(i, i + FACTS_PER_CALL);
    const got = chain.hasMulticall3
      ? await chain.reader.multicall({ allowFailure: true, batchSize: 0, contracts: chunk })
      : (await Promise.allSettled(chunk.map((c) => chain.reader.readContract(c as never)))).map((r) =>
          r.status === "fulfilled" ? { status: "success" as const, result: r.value } : { status: "failure" as const },
        );
    results.push(...(got as typeof results));
  }
  const out = new Map<string, CaseFacts>();
  const at = (a: Address) => {
    const k = a.toLowerCase();
    const f = out.get(k) ?? {};
    out.set(k, f);
    return f;
  };
  touched.forEach((c, i) => {
    const r = results[i];
    if (r?.status === "success") at(c).status = r.result as CaseStatusView;
  });
  filed.forEach((c, i) => {
    const r = results[touched.length + i];
    const [exists, view] = (r?.status === "success" ? r.result : [false]) as [boolean, CaseView?];
    if (exists && view) at(c).claim = view.claimDescription;
  });
  return out;
}
