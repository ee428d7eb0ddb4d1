/**
 * Hidden votes (commit-reveal), a court term: judges commit a hash of their vote first and reveal it
 * once every judge committed or the commit phase ended, so nobody votes knowing the others'
 * votes. Only revealed votes count; a judge who never reveals is a no-show when the case is
 * dismissed. Runs on the dev chain's own terms (HP), panels seated by the owner so every judge is
 * known in advance.
 */
import { type Address, parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../src/chain/actor.js";
import { voteCommitment } from "../../src/chain/votes.js";
import {
  actor,
  advance,
  appeal,
  bootCourt,
  Cast,
  type Court,
  commitAndReveal,
  commitVote,
  disputeCaseAbi,
  expectRegistryBalanced,
  expectRevert,
  fileCase,
  HP,
  Outcome,
  readCase,
  readJudge,
  readPanel,
  resolveAfterDeadline,
  respond,
  revealVote,
  State,
  saltOf,
  seat,
  settle,
  stakeJudges,
  vote,
} from "./helpers.js";
import { Ledger } from "./ledger.js";

let c: Court;
const party = (i: number) => actor(c, i);
const judge = (i: number) => actor(c, 7 + i);
const BPS = 10_000n;
const slashOf = (stake: bigint) => (stake * BigInt(HP.slashBps)) / BPS;

beforeAll(async () => {
  c = await bootCourt(HP);
  for (let i = 0; i < 11; i++) await stakeJudges(c, [judge(i)], parseEther("1") + 7_654_321n * BigInt(i + 1));
});

afterAll(async () => {
  await c?.stop();
});

/** Files and answers a case, then seats `panel` through the owner's override. */
async function deliberating(p: Actor, d: Actor, panel: Actor[]): Promise<Address> {
  const { caseAddr } = await fileCase(c, p, d.address);
  await respond(caseAddr, d);
  await seat(c, caseAddr, panel);
  return caseAddr;
}

/** Moves time so that the next transaction is mined at exactly `t`. */
async function landAt(t: bigint): Promise<void> {
  const { timestamp } = await c.reader.getBlock({ blockTag: "latest" });
  const gap = t - 1n - timestamp;
  if (gap < 0n) throw new Error(`already past ${t}`);
  if (gap > 0n) await advance(c, gap);
}

function commitOf(caseAddr: Address, j: Actor, plaintiffWins: boolean, round = 1) {
  return voteCommitment({
    caseAddress: caseAddr,
    judge: j.address,
    round,
    plaintiffWins,
    salt: saltOf(caseAddr, j.address, round),
  });
}

describe("hidden votes", () => {
  it("commit, then reveal once all committed: counts show revealed votes only, reasons are kept, the majority decides", async () => {
    const [j0, j1, j2] = [judge(0), judge(1), judge(2)];
    const caseAddr = await deliberating(party(1), party(2), [j0, j1, j2]);
    let v = await readCase(c, caseAddr);
    const seated = (await c.reader.getBlock({ blockTag: "latest" })).timestamp;
    expect([v.hiddenVotes, v.commitDeadline, v.revealDeadline, v.deliberationDeadline]).toEqual([
      true,
      seated + HP.commitPeriod,
      seated + HP.commitPeriod + HP.revealPeriod,
      seated + HP.commitPeriod + HP.revealPeriod,
    ]);
    await expectRevert(vote(caseAddr, j0, true), "VotesAreHidden");

    const committed = await commitVote(caseAddr, j0, true);
    const [ev] = parseEventLogs({ abi: disputeCaseAbi, eventName: "VoteCommitted", logs: committed.logs });
    expect(ev?.args).toEqual({ judge: j0.address, round: 1 });
    v = await readCase(c, caseAddr);
    // A commitment shows as such, never which way it goes, and is not counted.
    expect([v.votesCommitted, v.votesForPlaintiff, v.votesForDefendant]).toEqual([1n, 0n, 0n]);
    expect(v.votes.map((x) => [x.judge, x.vote])).toEqual([
      [j0.address, Cast.Committed],
      [j1.address, Cast.None],
      [j2.address, Cast.None],
    ]);
    expect((await readPanel(c, caseAddr, 1))[1]).toEqual([Cast.Committed, Cast.None, Cast.None]);

    // The reveal phase opens only when all have committed (or the commit deadline passed).
    await expectRevert(revealVote(caseAddr, j0, true), "RevealPhaseNotOpen", [v.commitDeadline]);
    await expectRevert(commitVote(caseAddr, j0, false), "AlreadyCommitted", [j0.address]);
    await expectRevert(
      j1.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "commitVote", args: [`0x${"0".repeat(64)}`] }),
      "InvalidCommitment",
    );
    await expectRevert(commitVote(caseAddr, judge(5), true), "NotAssignedJudge", [judge(5).address]);
    await expectRevert(commitVote(caseAddr, party(1), true), "NotAssignedJudge", [party(1).address]);
    await commitVote(caseAddr, j1, false);
    await commitVote(caseAddr, j2, true);
    expect((await readCase(c, caseAddr)).votesCommitted).toBe(3n);

    // Reveals must match the commitment exactly: the other vote, or another salt, do not.
    await expectRevert(revealVote(caseAddr, j1, true), "CommitmentMismatch");
    await expectRevert(revealVote(caseAddr, j1, false, 1, "", saltOf(caseAddr, j0.address, 1)), "CommitmentMismatch");
    await expectRevert(revealVote(caseAddr, party(3), true), "NotCommitted", [party(3).address]);

    const reasons = "The delivery receipts contradict the defendant's account.";
    const revealed = await revealVote(caseAddr, j0, true, 1, reasons);
    const [rev] = parseEventLogs({ abi: disputeCaseAbi, eventName: "VoteRevealed", logs: revealed.logs });
    expect(rev?.args).toEqual({ judge: j0.address, plaintiffWins: true, round: 1, justification: reasons });
    await expectRevert(revealVote(caseAddr, j0, true), "AlreadyVoted", [j0.address]);
    // Reasons are bounded in bytes, not characters: 257 two-byte characters are 514 bytes.
    await expectRevert(revealVote(caseAddr, j1, false, 1, "x".repeat(513)), "JustificationTooLong", [512n]);
    await expectRevert(revealVote(caseAddr, j1, false, 1, "é".repeat(257)), "JustificationTooLong", [512n]);
    await revealVote(caseAddr, j1, false, 1, "y".repeat(512));
    v = await readCase(c, caseAddr);
    expect([v.state, v.votesForPlaintiff, v.votesForDefendant]).toEqual([State.Deliberating, 1n, 1n]);
    expect(v.votes).toEqual([
      { judge: j0.address, vote: Cast.Plaintiff, justification: reasons },
      { judge: j1.address, vote: Cast.Defendant, justification: "y".repeat(512) },
      { judge: j2.address, vote: Cast.Committed, justification: "" },
    ]);

    await revealVote(caseAddr, j2, true);
    v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.votesForPlaintiff, v.votesForDefendant]).toEqual([
      State.Resolved,
      Outcome.PlaintiffWon,
      2n,
      1n,
    ]);
    // Scored at settle, when the outcome is final: the revealed minority is slashed.
    const before = await readJudge(c, j1.address);
    await advance(c, HP.appealWindow + 1n);
    await settle(caseAddr, party(3));
    const [a0, a1, a2] = await Promise.all([j0, j1, j2].map((j) => readJudge(c, j.address)));
    expect([a0?.majorityVotes, a1?.minorityVotes, a2?.majorityVotes]).toEqual([1, 1, 1]);
    expect(a1?.slashed).toBe(before.slashed + slashOf(before.stake));
    for (const a of [a0, a1, a2]) expect(a?.activeCases).toBe(0);
  });

  it("a commitment copied from another judge cannot be revealed by the copier", async () => {
    const [j0, j1, j2] = [judge(3), judge(4), judge(5)];
    const caseAddr = await deliberating(party(3), party(4), [j0, j1, j2]);
    const theirs = commitOf(caseAddr, j0, true);
    await commitVote(caseAddr, j0, true);
    // j1 sends j0's commitment as its own, hoping to vote as j0 does once j0 reveals.
    await j1.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "commitVote", args: [theirs] });
    await commitVote(caseAddr, j2, false);
    await revealVote(caseAddr, j0, true);
    // The commitment binds the judge's own address: j0's vote and salt do not open it for j1.
    await expectRevert(revealVote(caseAddr, j1, true, 1, "", saltOf(caseAddr, j0.address, 1)), "CommitmentMismatch");
    await expectRevert(revealVote(caseAddr, j1, false, 1, "", saltOf(caseAddr, j0.address, 1)), "CommitmentMismatch");
    await revealVote(caseAddr, j2, false);
    expect((await readCase(c, caseAddr)).state).toBe(State.Deliberating);
    // Leave it to time out, so these judges are free for later tests.
    await advance(c, HP.commitPeriod + HP.revealPeriod + 1n);
    await resolveAfterDeadline(caseAddr, c.owner);
  });

  it("deadlines: commit until the commit deadline, reveal after it until the reveal deadline; a missed reveal is a no-show at dismissal", async () => {
    const [p, d] = [party(5), party(6)];
    const [revealer, silent, late] = [judge(6), judge(7), judge(8)];
    const caseAddr = await deliberating(p, d, [revealer, silent, late]);
    const ledger = await Ledger.open(c, [p, d, revealer, silent, late]);
    const { commitDeadline, revealDeadline } = await readCase(c, caseAddr);
    await ledger.tx(revealer, commitVote(caseAddr, revealer, true));
    // The last second of the commit phase is still in it; the reveal phase is not open yet.
    await landAt(commitDeadline);
    await ledger.tx(silent, commitVote(caseAddr, silent, false));
    await expectRevert(commitVote(caseAddr, late, true), "CommitPhaseClosed", [commitDeadline]);
    // Past the commit deadline those who committed may reveal, though one judge never did.
    await ledger.tx(revealer, revealVote(caseAddr, revealer, true, 1, "Reasons."));
    await landAt(revealDeadline + 1n);
    await expectRevert(revealVote(caseAddr, silent, false), "DeliberationClosed", [revealDeadline]);
    await ledger.tx(p, resolveAfterDeadline(caseAddr, p));

    const v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.votesForPlaintiff, v.votesForDefendant]).toEqual([
      State.Dismissed,
      Outcome.Dismissed,
      1n,
      0n,
    ]);
    // No final outcome: the judge who revealed is unscored; the one who committed but never
    // revealed and the one who never committed are no-shows, slashed into the treasury.
    const slashSilent = slashOf(ledger.stakeBefore(silent));
    const slashLate = slashOf(ledger.stakeBefore(late));
    expect(await ledger.stake(revealer)).toBe(0n);
    expect(await ledger.stake(silent)).toBe(-slashSilent);
    expect(await ledger.stake(late)).toBe(-slashLate);
    expect(await ledger.treasuryDelta()).toBe(slashSilent + slashLate);
    expect(await ledger.registryDelta()).toBe(0n);
    // Both stakes (paid before the ledger opened) come back in full.
    expect(await ledger.wallet(p)).toBe(HP.minPartyStake);
    expect(await ledger.wallet(d)).toBe(HP.minPartyStake);
    const [r, s, l] = await Promise.all([revealer, silent, late].map((j) => readJudge(c, j.address)));
    expect([r?.noShows, s?.noShows, l?.noShows]).toEqual([0, 1, 1]);
    for (const x of [r, s, l]) expect(x?.activeCases).toBe(0);
    await expectRegistryBalanced(c);
  });

  it("appeal under hidden votes: five judges commit and reveal; every round is scored against the final outcome", async () => {
    const [p, d] = [party(1), party(4)];
    const round1 = [judge(0), judge(1), judge(2)];
    const round2 = [judge(3), judge(4), judge(5), judge(6), judge(7)];
    const [j0, j1, j2] = round1;
    const [k0, k1, k2, k3, k4] = round2 as [Actor, Actor, Actor, Actor, Actor];
    const caseAddr = await deliberating(p, d, round1);
    const ledger = await Ledger.open(c, [p, d, ...round1, ...round2]);
    const noShowsBefore = (await readJudge(c, (round2[4] as Actor).address)).noShows;
    // Round one: all commit, two reveal for the plaintiff and decide it; j2's commitment is never opened.
    for (const [j, w] of [
      [j0, true],
      [j1, true],
      [j2, false],
    ] as [Actor, boolean][])
      await commitVote(caseAddr, j, w);
    await revealVote(caseAddr, j0 as Actor, true);
    await revealVote(caseAddr, j1 as Actor, true);
    let v = await readCase(c, caseAddr);
    expect([v.state, v.outcome]).toEqual([State.Resolved, Outcome.PlaintiffWon]);
    expect(v.votes.map((x) => x.vote)).toEqual([Cast.Plaintiff, Cast.Plaintiff, Cast.Committed]);
    await ledger.tx(d, appeal(caseAddr, d));

    await seat(c, caseAddr, round2);
    v = await readCase(c, caseAddr);
    // Round two has its own phases and its own count of commitments.
    const seated = (await c.reader.getBlock({ blockTag: "latest" })).timestamp;
    expect([v.round, v.votesCommitted, v.commitDeadline, v.revealDeadline]).toEqual([
      2,
      0n,
      seated + HP.commitPeriod,
      seated + HP.commitPeriod + HP.revealPeriod,
    ]);
    // Four of five commit (k4 never does), so the reveal phase waits for the commit deadline.
    for (const [j, w] of [
      [k0, false],
      [k1, false],
      [k2, true],
      [k3, false],
    ] as [Actor, boolean][])
      await commitVote(caseAddr, j, w, 2);
    await expectRevert(revealVote(caseAddr, k0, false, 2), "RevealPhaseNotOpen", [v.commitDeadline]);
    // A round-one judge has no say in round two, and a round-one salt does not open round two.
    await expectRevert(commitVote(caseAddr, j0 as Actor, false, 2), "NotAssignedJudge", [j0?.address]);
    await landAt(v.commitDeadline + 1n);
    await revealVote(caseAddr, k0, false, 2);
    await expectRevert(revealVote(caseAddr, k2, true, 2, "", saltOf(caseAddr, k2.address, 1)), "CommitmentMismatch");
    await revealVote(caseAddr, k2, true, 2);
    await revealVote(caseAddr, k1, false, 2);
    v = await readCase(c, caseAddr);
    expect([v.state, v.votesForPlaintiff, v.votesForDefendant]).toEqual([State.Deliberating, 1n, 2n]);
    const decisive = await revealVote(caseAddr, k3, false, 2);
    v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.round, v.settled]).toEqual([State.Resolved, Outcome.DefendantWon, 2, true]);

    const pot = 2n * HP.minPartyStake + HP.appealBond;
    const fee = (pot * BigInt(HP.courtFeeBps)) / BPS;
    const each = (fee * BigInt(HP.judgeRewardBps)) / BPS / 3n;
    const [settled] = parseEventLogs({ abi: disputeCaseAbi, eventName: "Settled", logs: decisive.logs });
    expect(settled?.args).toEqual({ winner: d.address, payout: pot - fee, courtFee: fee, judgeRewards: 3n * each });
    // Round one's revealed plaintiff votes were wrong in the end: slashed. Its unopened commitment
    // is unscored (the verdict came before it had to reveal). Round two: the defendant majority
    // shares the reward, the revealed plaintiff vote is slashed, the judge who never committed is
    // a no-show.
    const slashed = [j0, j1, k2, k4] as Actor[];
    for (const j of slashed) expect(await ledger.stake(j)).toBe(-slashOf(ledger.stakeBefore(j)));
    expect(await ledger.stake(j2 as Actor)).toBe(0n);
    for (const j of [k0, k1, k3]) expect(await ledger.stake(j)).toBe(each);
    const slashes = slashed.reduce((s, j) => s + slashOf(ledger.stakeBefore(j)), 0n);
    expect(await ledger.treasuryDelta()).toBe(fee - 3n * each + slashes);
    expect(await ledger.registryDelta()).toBe(fee);
    // The defendant's stake was paid before the ledger opened; its bond after.
    expect(await ledger.wallet(d)).toBe(pot - fee - HP.appealBond);
    expect(await ledger.wallet(p)).toBe(0n);
    const records = await Promise.all([...round1, ...round2].map((j) => readJudge(c, j.address)));
    expect(records.map((r) => r.activeCases)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect((await readJudge(c, k4.address)).noShows).toBe(noShowsBefore + 1);
    await expectRegistryBalanced(c);
  });

  it("a commitment the verdict did not need stays hidden for good", async () => {
    const panel = [judge(8), judge(9), judge(10)];
    const caseAddr = await deliberating(party(2), party(3), panel);
    await commitAndReveal(c, caseAddr, [
      [panel[0] as Actor, false],
      [panel[1] as Actor, false],
      [panel[2] as Actor, true],
    ]);
    const v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.votesForDefendant]).toEqual([State.Resolved, Outcome.DefendantWon, 2n]);
    // The third judge had committed: its vote stays hidden, as it was never needed.
    expect(v.votes.map((x) => x.vote)).toEqual([Cast.Defendant, Cast.Defendant, Cast.Committed]);
    await expectRevert(revealVote(caseAddr, panel[2] as Actor, true), "WrongState", [State.Resolved]);
  });
});
