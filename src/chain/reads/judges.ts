/** Judge reads: one judge's record and stakes per court, a page of the judge list, the whole list in chunks. */
import type { Address } from "viem";
import { courtRegistryAbi } from "../abi/generated.js";
import type { ChainAccess } from "../access.js";
import { readCourts } from "./courts.js";

/**
 * A judge's record, the General court's minimum stake and the judge's stake in each court it staked
 * in, in one multicall (the client batches same-tick reads).
 */
export async function readJudge(chain: ChainAccess, who: Address) {
  const [judge, minimumStake, [courtIds, stakes]] = await Promise.all([
    chain.reader.readContract({
      address: chain.registry,
      abi: courtRegistryAbi,
      functionName: "getJudge",
      args: [who],
    }),
    chain.reader.readContract({ address: chain.registry, abi: courtRegistryAbi, functionName: "minJudgeStake" }),
    chain.reader.readContract({
      address: chain.registry,
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
async function readCourtStakes(chain: ChainAccess, who: readonly Address[]) {
  const calls = who.map(
    (addr) =>
      ({ address: chain.registry, abi: courtRegistryAbi, functionName: "getJudgeCourts", args: [addr] }) as const,
  );
  const chunks: (typeof calls)[] = [];
  for (let i = 0; i < calls.length; i += JUDGE_CHUNK) chunks.push(calls.slice(i, i + JUDGE_CHUNK));
  const perJudge = chain.hasMulticall3
    ? (
        await Promise.all(
          chunks.map((contracts) => chain.reader.multicall({ allowFailure: false, batchSize: 0, contracts })),
        )
      ).flat()
    : await Promise.all(calls.map((c) => chain.reader.readContract(c)));
  return perJudge.map(([ids, stakes]) => ids.map((id, i) => ({ court: id, stake: stakes[i] ?? 0n })));
}

/**
 * A page of the judge list (every judge with a stake, eligible or not, in list order) with its total,
 * the courts, and each listed judge's stake per court: 2 JSON-RPC requests whatever the pool.
 */
export async function readJudgePage(chain: ChainAccess, offset: number, limit: number) {
  const [[minimumStake, total, pool], courts] = await Promise.all([
    chain.reader.readContract({
      address: chain.registry,
      abi: courtRegistryAbi,
      functionName: "getJudgePool",
      args: [BigInt(offset), BigInt(limit)],
    }),
    readCourts(chain),
  ]);
  const courtStakes = await readCourtStakes(
    chain,
    pool.map((j) => j.addr),
  );
  return { minimumStake, total: Number(total), pool, courts, courtStakes };
}

/**
 * The whole judge list, JUDGE_CHUNK judges per eth_call (the first chunk, then the rest at once), so
 * no call outgrows a provider's eth_call gas cap however large the pool.
 */
export async function readJudgePool(chain: ChainAccess) {
  const first = await readJudgePage(chain, 0, JUDGE_CHUNK);
  const offsets: number[] = [];
  for (let o = JUDGE_CHUNK; o < first.total; o += JUDGE_CHUNK) offsets.push(o);
  const rest = await Promise.all(offsets.map((o) => readJudgePage(chain, o, JUDGE_CHUNK)));
  return {
    ...first,
    pool: [...first.pool, ...rest.flatMap((p) => p.pool)],
    courtStakes: [...first.courtStakes, ...rest.flatMap((p) => p.courtStakes)],
  };
}
