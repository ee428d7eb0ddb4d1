/**
 * Stake-weighted sortition, measured: many draws straight from `registry.drawPanel` (a view) with
 * fixed seeds at a fixed block, compared with the chances the stakes imply.
 *
 * Tolerance: a chi-square goodness-of-fit test at p = 0.001 where the counts are multinomial (the
 * first judge of each draw), and each count within 4 standard deviations of its expectation where
 * they are per-judge binomials (membership of a panel of three). The seeds are fixed, so the
 * outcome is the same on every run: these never flake. A contract change that keeps the
 * distribution right could still land on an unlucky 0.1% and need new seeds; one that ignores
 * stake (a uniform pick scores chi-square ~180 here) or lets a party in fails by a wide margin.
 */
import { type Address, keccak256, parseEther, toHex } from "viem";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;
/** Stakes 1:2:3:4 ETH (accounts 3..6). */
let ranked: Actor[];
const STAKES = [1n, 2n, 3n, 4n].map((n) => parseEther(String(n)));
/** Ten judges at the minimum stake (accounts 7..16) and one with ten times it (account 17). */
let sybils: Actor[];
let whale: Actor;
/**
 * The block whose pool the 1:2:3:4 draws read (before the Sybil army staked), and the later one:
 * each a block where a case armed a draw, as the tree keeps the pool exactly as of such blocks.
 */
let rankedBlock: bigint;
let sybilBlock: bigint;

const { party } = kit.courtOfFile(async (court) => {
  c = court;
  ranked = [3, 4, 5, 6].map((i) => kit.actor(c, i));
  sybils = Array.from({ length: 10 }, (_, i) => kit.actor(c, 7 + i));
  whale = kit.actor(c, 17);
  // The parties are judges too, with big stakes: a draw for their case must never pick them.
  await kit.stakeJudges(c, [party(1), party(2)], parseEther("10"));
  for (const [i, j] of ranked.entries()) await kit.stakeJudges(c, [j], STAKES[i]);
  rankedBlock = await armDraw();
  await kit.stakeJudges(c, sybils, c.params.minJudgeStake);
  await kit.stakeJudges(c, [whale], c.params.minJudgeStake * 10n);
  sybilBlock = await armDraw();
});

/** Arms a draw (a case between two accounts that are no judges is answered); returns its block. */
async function armDraw(): Promise<bigint> {
  const { caseAddr } = await kit.fileCase(c, kit.actor(c, 18), kit.actor(c, 19).address);
  return (await kit.respond(caseAddr, kit.actor(c, 19))).blockNumber;
}

const seedOf = (label: string, i: number) => keccak256(toHex(`sortition:${label}:${i}`));

/** `n` draws of `size` at `atBlock`, excluding `excluded`, seeds fixed by `label`. */
async function draws(label: string, n: number, size: number, atBlock: bigint, excluded: Address[]) {
  const out: (readonly Address[])[] = [];
  for (let start = 0; start < n; start += 50) {
    const batch = Array.from({ length: Math.min(50, n - start) }, (_, k) =>
      kit.readView(c, c.registry, kit.courtRegistryAbi, "drawPanel", [
        1n,
        seedOf(label, start + k),
        atBlock,
        BigInt(size),
        excluded,
      ]),
    );
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

function chiSquare(observed: number[], expected: number[]): number {
  return observed.reduce((sum, o, i) => sum + (o - (expected[i] as number)) ** 2 / (expected[i] as number), 0);
}
/** Chi-square critical values at p = 0.001. */
const CHI2_999: Record<number, number> = { 1: 10.828, 3: 16.266 };

/**
 * Exact chance that each item is among `size` drawn one by one without replacement, each draw
 * proportional to weight among those left (the contract cuts drawn ranges out of the line).
 */
function inclusion(weights: number[], size: number): number[] {
  const p = weights.map(() => 0);
  const walk = (left: number[], prob: number, depth: number) => {
    if (depth === size) return;
    const total = left.reduce((s, i) => s + (weights[i] as number), 0);
    for (const i of left) {
      const q = (prob * (weights[i] as number)) / total;
      p[i] = (p[i] as number) + q;
      walk(
        left.filter((x) => x !== i),
        q,
        depth + 1,
      );
    }
  };
  walk(
    weights.map((_, i) => i),
    1,
    0,
  );
  return p;
}

describe("stake-weighted sortition", () => {
  it("weightAt reads each judge's stake and the pool's total as of a past block", async () => {
    const weightAt = (who: Address, at: bigint) =>
      kit.readView(c, c.registry, kit.courtRegistryAbi, "weightAt", [1n, who, at]);
    const poolAtRanked = parseEther("20") + parseEther("10");
    for (const [i, j] of ranked.entries())
      expect(await weightAt(j.address, rankedBlock)).toEqual([STAKES[i], poolAtRanked]);
    // The Sybil army had no weight yet at rankedBlock.
    expect(await weightAt(whale.address, rankedBlock)).toEqual([0n, poolAtRanked]);
    const [whaleNow, total] = await weightAt(whale.address, sybilBlock);
    expect(total).toBe(poolAtRanked + 2n * c.params.minJudgeStake * 10n);
    let army = 0n;
    for (const s of sybils) army += (await weightAt(s.address, sybilBlock))[0];
    expect(army).toBe(whaleNow);
  });

  it("the first judge drawn is chosen in proportion to stake (1:2:3:4), never a party: chi-square at p = 0.001", async () => {
    const n = 600;
    const excluded = [party(1).address, party(2).address];
    const panels = await draws("single", n, 1, rankedBlock, excluded);
    const counts = ranked.map((j) => panels.filter((p) => p[0] === j.address).length);
    // Every draw picked one of the four: the parties hold a third of the pool's stake, and none.
    expect(counts.reduce((a, b) => a + b, 0)).toBe(n);
    const expected = [1, 2, 3, 4].map((w) => (n * w) / 10);
    const chi2 = chiSquare(counts, expected);
    expect(chi2, `counts ${counts} vs ${expected}`).toBeLessThan(CHI2_999[3] as number);
    // The seeds do vary the outcome (a constant draw would fail the test above, but say so plainly).
    expect(new Set(panels.map((p) => p[0])).size).toBe(4);
  });

  it("panels of three: distinct, no party, first seat by stake, membership at the exact without-replacement chances", async () => {
    const n = 400;
    const excluded = [party(1).address, party(2).address];
    const panels = await draws("triple", n, 3, rankedBlock, excluded);
    const addrs = ranked.map((j) => j.address);
    for (const p of panels) {
      expect(p).toHaveLength(3);
      expect(new Set(p).size).toBe(3);
      for (const a of p) expect(addrs).toContain(a);
    }
    const first = addrs.map((a) => panels.filter((p) => p[0] === a).length);
    expect(
      chiSquare(
        first,
        [1, 2, 3, 4].map((w) => (n * w) / 10),
      ),
    ).toBeLessThan(CHI2_999[3] as number);
    // Membership: per judge a binomial(n, p_i) with p_i worked out exactly; within 4 sigma.
    const p = inclusion([1, 2, 3, 4], 3);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(3, 12);
    for (const [i, a] of addrs.entries()) {
      const pi = p[i] as number;
      const seen = panels.filter((x) => x.includes(a)).length;
      const sigma = Math.sqrt(n * pi * (1 - pi));
      expect(Math.abs(seen - n * pi), `judge ${i + 1}: ${seen} of ${n}, expected ${(n * pi).toFixed(1)}`).toBeLessThan(
        4 * sigma,
      );
    }
    // The lightest judge is in far fewer panels than the heaviest: the weighting is not lost
    // when sampling without replacement.
    expect(p[0]).toBeLessThan(0.5);
    expect(p[3]).toBeGreaterThan(0.9);
  });

  it("a Sybil army of ten minimum stakes has the same chance as one judge with the same stake in one", async () => {
    const n = 400;
    // Only the army and the whale are drawable.
    const excluded = [party(1), party(2), ...ranked].map((j) => j.address);
    const panels = await draws("sybil", n, 1, sybilBlock, excluded);
    const whaleWins = panels.filter((p) => p[0] === whale.address).length;
    const armyWins = panels.filter((p) => sybils.some((s) => s.address === p[0])).length;
    expect(whaleWins + armyWins).toBe(n);
    expect(chiSquare([whaleWins, armyWins], [n / 2, n / 2]), `whale ${whaleWins}, army ${armyWins}`).toBeLessThan(
      CHI2_999[1] as number,
    );
    // Splitting the stake gains nothing per unit staked: each Sybil is a tenth of the whale's chance.
    const perSybil = sybils.map((s) => panels.filter((p) => p[0] === s.address).length);
    expect(
      chiSquare(
        perSybil,
        perSybil.map(() => armyWins / 10),
      ),
    ).toBeLessThan(27.877); // df 9, p = 0.001
  });
});
