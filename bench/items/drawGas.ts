import { type Address, encodeFunctionData } from "viem";
import { courtRegistryAbi } from "../../src/chain/abi/generated.js";
import { JUDGE_CHUNK } from "../../src/chain/reads/judges.js";
import { startDevnet } from "../../src/devnet/devnet.js";
import { median, round } from "../lib/stats.js";
import { World } from "../lib/world.js";
import { type ViewGas, viewGas } from "./coldReads.js";

/**
 * Item 8: what a stake-weighted draw costs as the judge pool grows (issue #11). On a chain of its
 * own (a pool of 10,000 judges would change every view item 2 measures), the pool grows to each
 * size with judges staking between the minimum and 10x it; then at that size `draws` cases are
 * answered (arming their draws) and drawn from the next block on (3-judge panels), decided, appealed
 * and drawn again (5-judge panels, the first panel excluded), and `draws` new judges stake, each in
 * a block of its own. Gas is counted from receipts, not timed, so it does not depend on the machine.
 */

export interface GasFigures {
  transactions: number;
  gasUsedMedian: number;
  gasUsedMin: number;
  gasUsedMax: number;
  gasUsed: number[];
}

export interface DrawGasSize {
  /** Judges in the pool when the draws were armed. */
  judges: number;
  /** assignJudgesRandom, first round: a 3-judge panel, the two parties excluded. */
  draw: GasFigures;
  /** assignJudgesRandom on appeal: a 5-judge panel, the parties and the 3 first-round judges excluded. */
  appealDraw: GasFigures;
  /** stakeAsJudge of a judge joining a pool of this size, alone in its block (the tree update). */
  stakeNewJudge: GasFigures;
  /** Growing the pool to this size: seconds, transactions, blocks. */
  poolBuildSeconds: number;
  poolBuildTransactions: number;
  poolBuildBlocks: number;
  /**
   * Gas of the registry's judge-pool views at this size (issue #26's note), eth_estimateGas with a
   * 1e9 allowance and whether a plain eth_call (the node's cap: the 30M block gas limit) succeeds:
   * every judge in one call (what getJudgePool was before it was paged), the gateway's chunk, the
   * default page, and the overview.
   */
  poolViews?: Record<string, ViewGas>;
}

export interface DrawGasResult {
  /** The court drawn in and staked into (1: the General court; 2: Agentic Commerce, below it). */
  court?: number;
  /** How deep below the General court it is: a stake there writes depth + 1 trees. */
  courtDepth?: number;
  hiddenVotes: boolean;
  sizes: DrawGasSize[];
  /** Median gas at the largest pool over the median at the smallest. */
  ratioLargestToSmallest: { draw: number; appealDraw: number; stakeNewJudge: number };
  /** log2(largest) / log2(smallest): the most an O(log n) cost may grow between the two (a + b log n, a >= 0). */
  logRatioLargestToSmallest: number;
  /** largest / smallest: what an O(n) cost would grow by. */
  poolRatioLargestToSmallest: number;
  /**
   * Median gas added per doubling of the pool between consecutive sizes: (gas(b) - gas(a)) /
   * log2(b / a). About the same from segment to segment means gas = a + b log2(n).
   */
  gasPerPoolDoubling: { draw: number[]; appealDraw: number[]; stakeNewJudge: number[] };
  seconds: number;
}

const figures = (gas: number[]): GasFigures => ({
  transactions: gas.length,
  gasUsedMedian: median(gas),
  gasUsedMin: Math.min(...gas),
  gasUsedMax: Math.max(...gas),
  gasUsed: gas,
});

export async function benchDrawGas(
  sizes: number[],
  draws: number,
  log: (line: string) => void,
  court = 1n,
): Promise<DrawGasResult> {
  const t0 = performance.now();
  const devnet = await startDevnet({ seed: false });
  try {
    // Parties only: every judge comes from stakeJudges, so the pool is exactly the size named;
    // cases are filed in `court` and judges stake in it (a child court's stakes count in the General court too).
    const world = await World.on(devnet, { agentJudges: 0, court });
    const parties = 10 * draws;
    const out: DrawGasSize[] = [];
    for (const size of [...sizes].sort((a, b) => a - b)) {
      const build = await world.stakeJudges(size);
      log(
        `  ${size} judges: pool grown in ${build.seconds.toFixed(1)} s (${build.transactions} stakes, ${build.blocks} blocks)`,
      );
      // grow draws 1 in 10 of the new cases (index % 10 == 0), one block or more after the respond.
      const before = world.cases.length;
      const first = await world.grow(before + 10 * draws, parties);
      const drawn = world.cases.slice(before).filter((_, k) => (before + k) % 10 === 0) as Address[];
      await world.decide(drawn);
      const appeal = await world.appeal(drawn);
      const stakes: number[] = [];
      for (let k = 0; k < draws; k++) {
        stakes.push(...(await world.stakeJudges(world.poolJudges.length + 1)).gasUsed);
      }
      const r = devnet.deployment.registry;
      const pool = (limit: number) =>
        encodeFunctionData({ abi: courtRegistryAbi, functionName: "getJudgePool", args: [0n, BigInt(limit)] });
      const poolViews: Record<string, ViewGas> = {
        "getJudgePool(0,all)": await viewGas(
          devnet.nodeUrl,
          r,
          pool(size + draws),
          "not used by docket (the unpaged call)",
        ),
        [`getJudgePool(0,${JUDGE_CHUNK})`]: await viewGas(
          devnet.nodeUrl,
          r,
          pool(JUDGE_CHUNK),
          "GET /judges/pool?court=2 (one chunk of the list)",
        ),
        "getJudgePool(0,20)": await viewGas(devnet.nodeUrl, r, pool(20), "GET /judges/pool (default page)"),
        getOverview: await viewGas(
          devnet.nodeUrl,
          r,
          encodeFunctionData({ abi: courtRegistryAbi, functionName: "getOverview" }),
          "GET /stats/overview",
        ),
      };
      const row: DrawGasSize = {
        judges: size,
        draw: figures(first.gasUsed),
        appealDraw: figures(appeal.gasUsed),
        stakeNewJudge: figures(stakes),
        poolBuildSeconds: round(build.seconds, 1),
        poolBuildTransactions: build.transactions,
        poolBuildBlocks: build.blocks,
        poolViews,
      };
      log(
        `  ${size} judges: draw ${row.draw.gasUsedMedian} gas, appeal draw ${row.appealDraw.gasUsedMedian}, new judge's stake ${row.stakeNewJudge.gasUsedMedian} (medians)`,
      );
      out.push(row);
    }
    const lo = out[0] as DrawGasSize;
    const hi = out[out.length - 1] as DrawGasSize;
    const perDoubling = (f: (s: DrawGasSize) => GasFigures) =>
      out.slice(1).map((b, i) => {
        const a = out[i] as DrawGasSize;
        return Math.round((f(b).gasUsedMedian - f(a).gasUsedMedian) / Math.log2(b.judges / a.judges));
      });
    const ratio = (f: (s: DrawGasSize) => GasFigures) => round(f(hi).gasUsedMedian / f(lo).gasUsedMedian, 2);
    return {
      court: Number(court),
      courtDepth: court === 1n ? 0 : 1,
      hiddenVotes: world.votesHidden,
      sizes: out,
      ratioLargestToSmallest: {
        draw: ratio((s) => s.draw),
        appealDraw: ratio((s) => s.appealDraw),
        stakeNewJudge: ratio((s) => s.stakeNewJudge),
      },
      logRatioLargestToSmallest: round(Math.log2(hi.judges) / Math.log2(lo.judges), 2),
      poolRatioLargestToSmallest: round(hi.judges / lo.judges, 0),
      gasPerPoolDoubling: {
        draw: perDoubling((s) => s.draw),
        appealDraw: perDoubling((s) => s.appealDraw),
        stakeNewJudge: perDoubling((s) => s.stakeNewJudge),
      },
      seconds: round((performance.now() - t0) / 1000, 1),
    };
  } finally {
    await devnet.stop();
  }
}
