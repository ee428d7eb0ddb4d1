import {
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionParameters,
  type ContractFunctionReturnType,
  formatEther,
  type GetTransactionReturnType,
  type Hex,
  type MulticallReturnType,
  type ReadContractParameters,
  type ReadContractReturnType,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from "viem";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi, multicall3Abi, testUSDAbi } from "./abi/generated.js";
import { MULTICALL3_ADDRESS } from "./client.js";
import type { Court } from "./court.js";

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

/** The chain time: from Multicall3 (batched with the reads beside it), or the latest block without it. */
export async function readChainTime(court: Court): Promise<bigint> {
  if (!court.hasMulticall3) return (await court.reader.getBlock({ blockTag: "latest" })).timestamp;
  return court.reader.readContract({
    address: MULTICALL3_ADDRESS,
    abi: multicall3Abi,
    functionName: "getCurrentBlockTimestamp",
  });
}

/** The value of a `(found, value)` answer. */
type Found<R> = R extends readonly [boolean, infer V] ? V : never;

/** A view that answers `(found, value)` (a case, the job of a dispute): the value, or undefined when not found. */
export async function readFound<
  const A extends Abi,
  F extends ContractFunctionName<A, "pure" | "view">,
  const Args extends ContractFunctionArgs<A, "pure" | "view", F>,
>(
  court: Court,
  call: ReadContractParameters<A, F, Args>,
): Promise<Found<ReadContractReturnType<A, F, Args>> | undefined> {
  const [found, value] = (await court.reader.readContract(call as never)) as readonly [boolean, unknown];
  return found ? (value as Found<ReadContractReturnType<A, F, Args>>) : undefined;
}

/** The page of a `(total, page)` answer. */
type Paged<R> = R extends readonly [bigint, infer P] ? P : never;

/**
 * A list view `fn(offset, limit) → (total, page)` (cases, cases in Deliberating, agents, jobs): the
 * page, and the total as a number. One eth_call.
 */
export async function readPage<const A extends Abi, F extends ContractFunctionName<A, "pure" | "view">>(
  court: Court,
  contract: { address: Address; abi: A },
  functionName: F,
  offset: number,
  limit: number,
): Promise<{ total: number; page: Paged<ContractFunctionReturnType<A, "pure" | "view", F>> }> {
  const [total, page] = (await court.reader.readContract({
    ...contract,
    functionName,
    args: [BigInt(offset), BigInt(limit)],
  } as never)) as readonly [bigint, Paged<ContractFunctionReturnType<A, "pure" | "view", F>>];
  return { total: Number(total), page };
}

export async function readCase(court: Court, addr: Address) {
  return readFound(court, { address: court.factory, abi: caseFactoryAbi, functionName: "getCase", args: [addr] });
}
export type CaseView = NonNullable<Awaited<ReturnType<typeof readCase>>>;

/** A case (undefined when the address is not one) and every court, to name its court: one multicall. */
export async function readCaseInCourt(court: Court, addr: Address) {
  // Same tick, so the client batches both into one Multicall3 eth_call.
  const [view, courts] = await Promise.all([readCase(court, addr), readCourts(court)]);
  return { view, courts };
}

/**
 * A case's parties, filing evidence and evidence list, or undefined when the address is not a case.
 * The factory says first whether it is one (its getCase); only a case is called itself: an address
 * that is none may be anything (a precompile that burns all the gas it is given fails the whole
 * multicall its call shares). One request, and a second for the evidence list when it has items.
 */
export async function readCaseEvidence(court: Court, addr: Address) {
  // The factory answers only for its own cases, so an address that is not one (a precompile, any
  // contract) is never called: one eth_call, whatever the address.
  const [exists, view, evidence] = await court.reader.readContract({
    address: court.factory,
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
export async function readCaseMinimumStake(court: Court, addr: Address): Promise<bigint> {
  const terms = await court.reader.readContract({ address: addr, abi: disputeCaseAbi, functionName: "terms" });
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
export async function readParticipants(court: Court, cases: readonly Address[]): Promise<Map<Address, Address[]>> {
  const out = new Map<Address, Address[]>();
  const chunks: Address[][] = [];
  for (let i = 0; i < cases.length; i += PARTICIPANTS_PER_CALL) chunks.push(cases.slice(i, i + PARTICIPANTS_PER_CALL));
  await Promise.all(
    chunks.map(async (chunk) => {
      const contracts = chunk.map((c) => ({ address: c, abi: disputeCaseAbi, functionName: "getSummary" }) as const);
      const results = court.hasMulticall3
        ? await court.reader.multicall({ allowFailure: true, batchSize: 0, contracts })
        : (await Promise.allSettled(contracts.map((c) => court.reader.readContract(c)))).map((r) =>
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

/** The latest block number, never from viem's cache. */
export function readBlockNumber(court: Court): Promise<bigint> {
  return court.reader.getBlockNumber({ cacheTime: 0 });
}

/** A transaction as the node knows it: `tx` once it is known, `receipt` once it is mined. */
export interface TxLookup {
  tx?: GetTransactionReturnType;
  receipt?: TransactionReceipt;
}

/** The transaction and its receipt, in parallel: 2 JSON-RPC requests. Unknown is not an error here. */
export async function lookupTransaction(court: Court, hash: Hex): Promise<TxLookup> {
  const [tx, receipt] = await Promise.all([
    court.reader.getTransaction({ hash }).catch(absent(TransactionNotFoundError)),
    court.reader.getTransactionReceipt({ hash }).catch(absent(TransactionReceiptNotFoundError)),
  ]);
  return { tx, receipt };
}

function absent(kind: new (...args: never[]) => Error) {
  return (err: unknown): undefined => {
    if (err instanceof kind) return undefined;
    throw err;
  };
}

/**
 * Several calls as one JSON-RPC request: a multicall, or, on a chain without Multicall3, call by
 * call (the transport batches them into one round trip; the clock, CLOCK, then comes from the
 * latest block). Every call must succeed. `batchSize: 0` keeps a multicall in one eth_call however long.
 */
export async function readAll<const C extends readonly ContractFunctionParameters[]>(
  court: Court,
  contracts: C,
  opts: { batchSize?: number } = {},
): Promise<MulticallReturnType<C, false>> {
  if (court.hasMulticall3) {
    return (await court.reader.multicall({
      allowFailure: false,
      ...opts,
      contracts: contracts as readonly ContractFunctionParameters[],
    })) as MulticallReturnType<C, false>;
  }
  return (await Promise.all(
    contracts.map((c) => (c === CLOCK ? readChainTime(court) : court.reader.readContract(c as never))),
  )) as MulticallReturnType<C, false>;
}

/** The chain time as one call of a readAll. */
const CLOCK = {
  address: MULTICALL3_ADDRESS,
  abi: multicall3Abi,
  functionName: "getCurrentBlockTimestamp",
} as const satisfies ContractFunctionParameters;

/** The court parameters and the record of a filing fee paid under (ref, payer): one multicall. */
export async function readFeeRecord(court: Court, paymentRef: Hex, payer: Address) {
  const [params, [paid, amount, usedBy]] = await readAll(court, [
    { address: court.factory, abi: caseFactoryAbi, functionName: "getParams" },
    { address: court.factory, abi: caseFactoryAbi, functionName: "feePayment", args: [paymentRef, payer] },
  ]);
  return { params, paid, amount, usedBy };
}

/**
 * What judging a token fee (an EIP-3009 authorization, nonce = reference) needs before the filing
 * submits it, in one multicall: the court parameters, the case that used the reference, whether the
 * token has the nonce used (or cancelled), the payer's balance, the token's EIP-712 domain (name,
 * version) and the chain time. Only what every EIP-3009 token (USDC) answers.
 */
export async function readTokenPayment(court: Court, token: Address, nonce: Hex, payer: Address) {
  const [params, usedBy, used, balance, held, name, version, chainTime] = await readAll(court, [
    { address: court.factory, abi: caseFactoryAbi, functionName: "getParams" },
    { address: court.factory, abi: caseFactoryAbi, functionName: "paymentRefUsedBy", args: [nonce, payer] },
    { address: token, abi: testUSDAbi, functionName: "authorizationState", args: [payer, nonce] },
    { address: token, abi: testUSDAbi, functionName: "balanceOf", args: [payer] },
    { address: token, abi: testUSDAbi, functionName: "balanceOf", args: [court.factory] },
    { address: token, abi: testUSDAbi, functionName: "name" },
    { address: token, abi: testUSDAbi, functionName: "version" },
    CLOCK,
  ]);
  return { params, usedBy, used, balance, held, domain: { name, version }, chainTime: Number(chainTime) };
}

/** A fee token's EIP-712 domain name and version (what x402 "exact" puts in `extra`), and the chain time. */
export async function readTokenDomain(court: Court, token: Address) {
  const [name, version, chainTime] = await readAll(court, [
    { address: token, abi: testUSDAbi, functionName: "name" },
    { address: token, abi: testUSDAbi, functionName: "version" },
    CLOCK,
  ]);
  return { name, version, chainTime: Number(chainTime) };
}

/** A page of every case. */
export async function readCasePage(court: Court, offset: number, limit: number) {
  return readPage(court, { address: court.factory, abi: caseFactoryAbi }, "getCases", offset, limit);
}

/** A page of the cases in Deliberating, from the factory's own index of them. */
export async function readDeliberating(court: Court, offset: number, limit: number) {
  return readPage(court, { address: court.factory, abi: caseFactoryAbi }, "getDeliberatingCases", offset, limit);
}

/**
 * A page of the open cases `who` takes part in (party, or judge of any round), each as the compact
 * status the inbox works from, with the chain time the page was read at: one eth_call.
 */
export async function readInvolvedCases(court: Court, who: Address, offset: number, limit: number) {
  const [total, chainTime, page] = await court.reader.readContract({
    address: court.factory,
    abi: caseFactoryAbi,
    functionName: "getInvolvedCases",
    args: [who, BigInt(offset), BigInt(limit)],
  });
  return { total: Number(total), chainTime: Number(chainTime), cases: page };
}

/** A page of every open case's status, for the keeper view: one eth_call. */
export async function readCaseStatuses(court: Court, offset: number, limit: number) {
  const [total, chainTime, page] = await court.reader.readContract({
    address: court.factory,
    abi: caseFactoryAbi,
    functionName: "getCaseStatuses",
    args: [BigInt(offset), BigInt(limit)],
  });
  return { total: Number(total), chainTime: Number(chainTime), cases: page };
}
export type CaseStatusView = Awaited<ReturnType<typeof readCaseStatuses>>["cases"][number];

/** Court parameters, registry overview, case counts, every court and the block number, in one multicall. */
export async function readOverview(court: Court) {
  if (!court.hasMulticall3) {
    const [params, stats, overview, courts, blockNumber] = await Promise.all([
      court.reader.readContract({ address: court.factory, abi: caseFactoryAbi, functionName: "getParams" }),
      court.reader.readContract({ address: court.factory, abi: caseFactoryAbi, functionName: "getStats" }),
      court.reader.readContract({ address: court.registry, abi: courtRegistryAbi, functionName: "getOverview" }),
      court.reader.readContract({ address: court.registry, abi: courtRegistryAbi, functionName: "getCourts" }),
      court.reader.getBlockNumber({ cacheTime: 0 }),
    ]);
    return { params, stats, overview, courts, blockNumber };
  }
  const [params, stats, overview, courts, blockNumber] = await court.reader.multicall({
    allowFailure: false,
    contracts: [
      { address: court.factory, abi: caseFactoryAbi, functionName: "getParams" },
      { address: court.factory, abi: caseFactoryAbi, functionName: "getStats" },
      { address: court.registry, abi: courtRegistryAbi, functionName: "getOverview" },
      { address: court.registry, abi: courtRegistryAbi, functionName: "getCourts" },
      { address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getBlockNumber" },
    ],
  });
  return { params, stats, overview, courts, blockNumber };
}

export async function readParams(court: Court) {
  return court.reader.readContract({ address: court.factory, abi: caseFactoryAbi, functionName: "getParams" });
}
export type CourtParamsView = Awaited<ReturnType<typeof readParams>>;

export async function readAgent(court: Court, who: Address) {
  return court.reader.readContract({
    address: court.registry,
    abi: courtRegistryAbi,
    functionName: "getAgent",
    args: [who],
  });
}

/** A page of the registered agents. */
export async function readAgents(court: Court, offset: number, limit: number) {
  return readPage(court, { address: court.registry, abi: courtRegistryAbi }, "getAgents", offset, limit);
}
export type AgentView = Awaited<ReturnType<typeof readAgent>>;

/**
 * A judge's record, the General court's minimum stake and the judge's stake in each court it staked
 * in, in one multicall (the client batches same-tick reads).
 */
export async function readJudge(court: Court, who: Address) {
  const [judge, minimumStake, [courtIds, stakes]] = await Promise.all([
    court.reader.readContract({
      address: court.registry,
      abi: courtRegistryAbi,
      functionName: "getJudge",
      args: [who],
    }),
    court.reader.readContract({ address: court.registry, abi: courtRegistryAbi, functionName: "minJudgeStake" }),
    court.reader.readContract({
      address: court.registry,
      abi: courtRegistryAbi,
      functionName: "getJudgeCourts",
      args: [who],
    }),
  ]);
  return { judge, minimumStake, courtStakes: courtIds.map((id, i) => ({ court: id, stake: stakes[i] ?? 0n })) };
}
export type JudgeView = Awaited<ReturnType<typeof readJudge>>["judge"];
/** A judge's own stake in one court (not counting the courts below it). */
export type CourtStake = Awaited<ReturnType<typeof readJudge>>["courtStakes"][number];

/** Judges per eth_call when reading the judge list in chunks: ~12k gas each, far under a 30M call cap. */
export const JUDGE_CHUNK = 200;

/** Each listed judge's stake per court, at most JUDGE_CHUNK judges per eth_call. */
async function readCourtStakes(court: Court, who: readonly Address[]) {
  const calls = who.map(
    (addr) =>
      ({ address: court.registry, abi: courtRegistryAbi, functionName: "getJudgeCourts", args: [addr] }) as const,
  );
  const chunks: (typeof calls)[] = [];
  for (let i = 0; i < calls.length; i += JUDGE_CHUNK) chunks.push(calls.slice(i, i + JUDGE_CHUNK));
  const perJudge = court.hasMulticall3
    ? (
        await Promise.all(
          chunks.map((contracts) => court.reader.multicall({ allowFailure: false, batchSize: 0, contracts })),
        )
      ).flat()
    : await Promise.all(calls.map((c) => court.reader.readContract(c)));
  return perJudge.map(([ids, stakes]) => ids.map((id, i) => ({ court: id, stake: stakes[i] ?? 0n })));
}

/**
 * A page of the judge list (every judge with a stake, eligible or not, in list order) with its total,
 * the courts, and each listed judge's stake per court: 2 JSON-RPC requests whatever the pool.
 */
export async function readJudgePage(court: Court, offset: number, limit: number) {
  const [[minimumStake, total, pool], courts] = await Promise.all([
    court.reader.readContract({
      address: court.registry,
      abi: courtRegistryAbi,
      functionName: "getJudgePool",
      args: [BigInt(offset), BigInt(limit)],
    }),
    readCourts(court),
  ]);
  const courtStakes = await readCourtStakes(
    court,
    pool.map((j) => j.addr),
  );
  return { minimumStake, total: Number(total), pool, courts, courtStakes };
}

/**
 * The whole judge list, JUDGE_CHUNK judges per eth_call (the first chunk, then the rest at once), so
 * no call outgrows a provider's eth_call gas cap however large the pool.
 */
export async function readJudgePool(court: Court) {
  const first = await readJudgePage(court, 0, JUDGE_CHUNK);
  const offsets: number[] = [];
  for (let o = JUDGE_CHUNK; o < first.total; o += JUDGE_CHUNK) offsets.push(o);
  const rest = await Promise.all(offsets.map((o) => readJudgePage(court, o, JUDGE_CHUNK)));
  return {
    ...first,
    pool: [...first.pool, ...rest.flatMap((p) => p.pool)],
    courtStakes: [...first.courtStakes, ...rest.flatMap((p) => p.courtStakes)],
  };
}

/** Every court (a tree of at most 64), in id order, the General court first: one eth_call. */
export async function readCourts(court: Court) {
  return court.reader.readContract({ address: court.registry, abi: courtRegistryAbi, functionName: "getCourts" });
}
export type CourtView = Awaited<ReturnType<typeof readCourts>>[number];

/** "0.05 ETH": display amounts carry the chain's coin symbol. */
export function displayAmount(court: Court, wei: bigint): string {
  return `${formatEther(wei)} ${court.chain.nativeCurrency.symbol}`;
}
