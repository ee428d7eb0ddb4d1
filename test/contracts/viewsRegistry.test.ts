import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import * as kit from "./helpers.js";
import { buildWorld, type World } from "./world.js";

let c: kit.CourtDeployment;
let w: World;
const party = (i: number) => w.party(i);
const judge = (i: number) => w.judge(i);

kit.courtOfFile(async (court) => {
  c = court;
  w = await buildWorld(c);
});

describe("registry views", () => {
  it("getAgents pages agents in registration order, each equal to getAgent", async () => {
    const count = await c.reader.readContract({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "agentCount",
    });
    const [total, all] = await kit.readView(c, c.registry, kit.courtRegistryAbi, "getAgents", [0n, 100n]);
    expect(total).toBe(count);
    expect(total).toBe(6n);
    expect(all.map((a) => a.addr)).toEqual([1, 2, 3, 5, 6].map((i) => party(i).address).concat(judge(0).address));
    expect(all.map((a) => a.agentId)).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
    for (const a of all) expect(a).toEqual(await kit.readAgent(c, a.addr));
    const page = async (offset: bigint, limit: bigint) =>
      (await kit.readView(c, c.registry, kit.courtRegistryAbi, "getAgents", [offset, limit]))[1];
    expect([...(await page(0n, 4n)), ...(await page(4n, 4n))]).toEqual(all);
    expect(await page(6n, 1n)).toEqual([]);
    expect(await page(60n, 1n)).toEqual([]);
    expect(await page(1n, 0n)).toEqual([]);
    expect(await page(5n, maxUint256)).toEqual(all.slice(5));

    const judgeAgent = await kit.readAgent(c, judge(0).address);
    expect([judgeAgent.isJudge, judgeAgent.judgeStake]).toEqual([
      true,
      (await kit.readJudge(c, judge(0).address)).stake,
    ]);
  });

  it("getAgent keeps a party record for an unregistered address, and reflects outcomes", async () => {
    const unregistered = await kit.readAgent(c, party(4).address);
    expect([unregistered.registered, unregistered.agentId, unregistered.name]).toEqual([false, 0n, ""]);
    // Party 4 defaulted once (a no-show).
    expect([unregistered.casesLost, unregistered.noShows, unregistered.reputation]).toEqual([1, 1, -20n]);
    const p1 = await kit.readAgent(c, party(1).address);
    // Won the appeal-decided case (a default is no win: issue #31); "resolved", which it lost, is not settled yet.
    expect([p1.casesWon, p1.casesLost, p1.reputation]).toEqual([1, 0, 10n]);
    const stranger = await kit.readAgent(c, kit.actor(c, 19).address);
    expect(stranger).toEqual({
      addr: kit.actor(c, 19).address,
      registered: false,
      agentId: 0n,
      name: "",
      metadataURI: "",
      registeredAt: 0n,
      reputation: 0n,
      casesWon: 0,
      casesLost: 0,
      noShows: 0,
      judgeStake: 0n,
      isJudge: false,
    });
  });

  it("getJudgePool, getJudge, getCourtJudges and getOverview agree with the raw getters", async () => {
    const judgePage = (offset: bigint, limit: bigint) =>
      kit.readView(c, c.registry, kit.courtRegistryAbi, "getJudgePool", [offset, limit]);
    const [minimum, total, pool] = await judgePage(0n, maxUint256);
    expect(minimum).toBe(kit.P.minJudgeStake);
    expect([total, pool.length]).toEqual([11n, 11]);
    // Pages of 4 put together are the whole list; a page past the end is empty.
    const pages = await Promise.all([0n, 4n, 8n].map((o) => judgePage(o, 4n)));
    expect(pages.map(([, t, p]) => [t, p.length])).toEqual([
      [11n, 4],
      [11n, 4],
      [11n, 3],
    ]);
    expect(pages.flatMap(([, , p]) => p)).toEqual(pool);
    expect((await judgePage(11n, 5n))[2]).toEqual([]);
    for (const j of pool) {
      expect(j).toEqual(await kit.readJudge(c, j.addr));
      expect(j.eligible).toBe(await kit.readView(c, c.registry, kit.courtRegistryAbi, "isEligibleJudge", [j.addr]));
      expect(j.eligible).toBe(j.stake >= kit.P.minJudgeStake);
    }
    // The no-show staked at the minimum was slashed below it: still in the pool, not eligible.
    const slashed = pool.find((j) => j.addr === judge(10).address);
    expect([slashed?.eligible, slashed?.noShows, slashed?.stake]).toEqual([
      false,
      1,
      kit.P.minJudgeStake - kit.P.minJudgeStake / 10n,
    ]);
    // The General court's pool, paged by tree leaf: exactly the eligible judges, each with its stake.
    const page = (offset: bigint, limit: bigint) =>
      kit.readView(c, c.registry, kit.courtRegistryAbi, "getCourtJudges", [1n, offset, limit]);
    const [leaves, first, firstWeights] = await page(0n, 5n);
    const [, rest, restWeights] = await page(5n, maxUint256);
    expect(await page(leaves, 3n)).toEqual([leaves, [], []]);
    const members = [...first, ...rest].map((a, i) => [a, [...firstWeights, ...restWeights][i]] as const);
    const eligible = members.filter(([a]) => a !== kit.ZERO);
    expect(eligible.map(([a]) => a).sort()).toEqual(
      pool
        .filter((j) => j.eligible)
        .map((j) => j.addr)
        .sort(),
    );
    for (const [a, w] of eligible) expect(w).toBe(pool.find((j) => j.addr === a)?.stake);

    const o = await kit.readOverview(c);
    const raw = async (fn: "totalJudgeStake" | "treasury" | "minJudgeStake" | "slashBps" | "agentCount") =>
      c.reader.readContract({ address: c.registry, abi: kit.courtRegistryAbi, functionName: fn });
    expect(o).toEqual({
      agentCount: await raw("agentCount"),
      judgeCount: BigInt(pool.length),
      eligibleJudgeCount: BigInt(eligible.length),
      totalJudgeStake: await raw("totalJudgeStake"),
      treasury: await raw("treasury"),
      minJudgeStake: await raw("minJudgeStake"),
      slashBps: await raw("slashBps"),
    });
    expect(o.totalJudgeStake).toBe(pool.reduce((sum, j) => sum + j.stake, 0n));
    expect(o.eligibleJudgeCount).toBe(10n);
    expect(o.slashBps).toBe(kit.P.slashBps);
    expect(o.treasury).toBeGreaterThan(0n);
    expect(await c.reader.getBalance({ address: c.registry })).toBe(o.totalJudgeStake + o.treasury);

    const outsider = await kit.readJudge(c, party(1).address);
    expect([outsider.stake, outsider.eligible, outsider.stakedAt, outsider.totalAssigned]).toEqual([0n, false, 0n, 0]);
  });
});
