/**
 * Judges are scored once, against the case's final outcome. A round-one verdict scores nobody: its
 * judges stay bound to the case until it is final (settled, decided on appeal, or dismissed). So a
 * round-one minority judge proven right on appeal is rewarded and never slashed (before, it was
 * slashed at the first verdict and then rewarded: counted twice), and a round-one majority judge
 * proven wrong is slashed. Wei-exact, on public votes.
 */
import { type Address, parseEther, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";
import { Ledger } from "./ledger.js";

let c: kit.CourtDeployment;
const slashOf = (stake: bigint) => kit.slashOf(stake, kit.P);

const { party, judge } = kit.courtOfFile(async (court) => {
  c = court;
  // Odd, distinct stakes so every slash is a floor division with a remainder.
  for (let i = 0; i < 8; i++) await kit.stakeJudges(c, [judge(i)], parseEther("1") + 3_333_333n * BigInt(i + 1));
});

async function records(who: Actor[]) {
  return Promise.all(who.map((j) => kit.readJudge(c, j.address)));
}

describe("scoring against the final outcome", () => {
  it("a round-one minority judge proven right on appeal is rewarded and not slashed; the round-one majority is slashed", async () => {
    const [p, d] = [party(1), party(2)];
    const [j0, j1, j2] = [judge(0), judge(1), judge(2)];
    const round2 = [judge(3), judge(4), judge(5), judge(6), judge(7)];
    const caseAddr: Address = await kit.deliberating(c, p, d, [j0, j1, j2]);
    const ledger = await Ledger.open(c, [p, d, j0, j1, j2, ...round2]);
    const before = await records([j0, j1, j2]);

    await kit.vote(caseAddr, j0, true);
    await kit.vote(caseAddr, j1, false);
    await kit.vote(caseAddr, j2, true);
    // Round one went to the plaintiff; j1 was in its minority. Nobody is scored, slashed or
    // released yet (`before` was read with the panel already seated).
    let now = await records([j0, j1, j2]);
    for (const [i, r] of now.entries()) {
      const b = before[i] as (typeof before)[number];
      expect([r.activeCases, r.majorityVotes, r.minorityVotes, r.slashed, r.stake]).toEqual([
        b.activeCases,
        b.majorityVotes,
        b.minorityVotes,
        b.slashed,
        b.stake,
      ]);
    }
    await ledger.tx(d, kit.appeal(caseAddr, d));
    await kit.seat(c, caseAddr, round2);
    for (const j of round2.slice(0, 3)) await kit.vote(caseAddr, j, false);
    // The third defendant vote decided round two, finally; a fourth vote finds the case closed.
    await kit.expectRevert(kit.vote(caseAddr, round2[3] as Actor, true), "WrongState", [kit.State.Resolved]);

    const pot = 2n * kit.P.minPartyStake + kit.P.appealBond;
    const fee = (pot * BigInt(kit.P.courtFeeBps)) / kit.BPS;
    const rewardPool = (fee * BigInt(kit.P.judgeRewardBps)) / kit.BPS;
    // Rewarded: j1 (round one, proven right) and three round-two judges.
    const each = rewardPool / 4n;
    const slash0 = slashOf(ledger.stakeBefore(j0));
    const slash2 = slashOf(ledger.stakeBefore(j2));
    expect(await ledger.stake(j1)).toBe(each);
    expect(await ledger.stake(j0)).toBe(-slash0);
    expect(await ledger.stake(j2)).toBe(-slash2);
    for (const j of round2.slice(0, 3)) expect(await ledger.stake(j)).toBe(each);
    for (const j of round2.slice(3)) expect(await ledger.stake(j)).toBe(0n);
    expect(await ledger.treasuryDelta()).toBe(fee - 4n * each + slash0 + slash2);
    expect(await ledger.registryDelta()).toBe(fee);
    expect(await ledger.wallet(d)).toBe(pot - fee - kit.P.appealBond);

    // Each judge scored exactly once, for this case: j1 in the majority, j0 and j2 in the minority.
    now = await records([j0, j1, j2]);
    const delta = now.map((r, i) => {
      const b = before[i] as (typeof before)[number];
      return [b.activeCases - r.activeCases, r.majorityVotes - b.majorityVotes, r.minorityVotes - b.minorityVotes];
    });
    expect(delta).toEqual([
      [1, 0, 1],
      [1, 1, 0],
      [1, 0, 1],
    ]);
    const j1Now = now[1] as (typeof now)[number];
    expect([j1Now.slashed, j1Now.rewards]).toEqual([(before[1] as (typeof before)[number]).slashed, each]);
    await kit.expectRegistryBalanced(c);
  });

  it("appeal upheld: round one's lone dissenter is scored in the minority once, at the appeal verdict", async () => {
    const [p, d] = [party(3), party(4)];
    const panel = [judge(0), judge(1), judge(2)];
    const caseAddr = await kit.deliberating(c, p, d, panel);
    const ledger = await Ledger.open(c, [judge(1)]);
    const before = await kit.readJudge(c, judge(1).address);
    await kit.vote(caseAddr, judge(0), false);
    await kit.vote(caseAddr, judge(1), true);
    await kit.vote(caseAddr, judge(2), false);
    await kit.appeal(caseAddr, p);
    // Still unscored while the appeal is heard.
    expect((await kit.readJudge(c, judge(1).address)).minorityVotes).toBe(before.minorityVotes);
    await kit.seat(c, caseAddr, [judge(3), judge(4), judge(5), judge(6), judge(7)]);
    await kit.vote(caseAddr, judge(3), false);
    await kit.vote(caseAddr, judge(4), false);
    const r = await kit.vote(caseAddr, judge(5), false);
    // Upheld: the two round-one defendant votes and three round-two ones share the pool.
    const pot = 2n * kit.P.minPartyStake + kit.P.appealBond;
    const fee = (pot * BigInt(kit.P.courtFeeBps)) / kit.BPS;
    const each = (fee * BigInt(kit.P.judgeRewardBps)) / kit.BPS / 5n;
    const [settled] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Settled", logs: r.logs });
    expect(settled?.args.judgeRewards).toBe(5n * each);
    const after = await kit.readJudge(c, judge(1).address);
    expect([after.minorityVotes, after.majorityVotes, after.activeCases]).toEqual([
      before.minorityVotes + 1,
      before.majorityVotes,
      0,
    ]);
    expect(await ledger.stake(judge(1))).toBe(-slashOf(ledger.stakeBefore(judge(1))));
    await kit.expectRegistryBalanced(c);
  });
});
