/**
 * Hidden votes (commit-reveal), a court term: judges commit a hash of their vote first and reveal it
 * once every judge committed or the commit phase ended, so nobody votes knowing the others'
 * votes. Only revealed votes count, and no round is decided while a commitment is unopened: the
 * reveal that opens the last one decides (for a majority of the panel, if there is one), or, once
 * the reveal deadline has passed, `resolveAfterDeadline` gives the verdict of a majority of the
 * panel among the revealed votes, else dismisses the case. Whoever did not reveal, committed or
 * not, is a no-show at the final outcome: a judge who sees the majority form cannot dodge its
 * minority score by staying silent. Runs on the dev chain's own terms (HP), panels seated by the
 * owner so every judge is known in advance.
 */
import { type Address, parseEther, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import { voteCommitment } from "../../src/chain/votes.js";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";
import { Ledger } from "./ledger.js";

let c: kit.CourtDeployment;
const slashOf = (stake: bigint) => kit.slashOf(stake, kit.HP);

const { party, judge } = kit.courtOfFile(async (court) => {
  c = court;
  for (let i = 0; i < 11; i++) await kit.stakeJudges(c, [judge(i)], parseEther("1") + 7_654_321n * BigInt(i + 1));
}, kit.HP);

/** Files and answers a case, then seats `panel` through the owner's override. */
async function deliberating(p: Actor, d: Actor, panel: Actor[]): Promise<Address> {
  const { caseAddr } = await kit.fileCase(c, p, d.address);
  await kit.respond(caseAddr, d);
  await kit.seat(c, caseAddr, panel);
  return caseAddr;
}

/** Moves time so that the next transaction is mined at exactly `t`. */
async function landAt(t: bigint): Promise<void> {
  const { timestamp } = await c.reader.getBlock({ blockTag: "latest" });
  const gap = t - 1n - timestamp;
  if (gap < 0n) throw new Error(`already past ${t}`);
  if (gap > 0n) await kit.advance(c, gap);
}

function commitOf(caseAddr: Address, j: Actor, plaintiffWins: boolean, round = 1) {
  return voteCommitment({
    caseAddress: caseAddr,
    judge: j.address,
    round,
    plaintiffWins,
    salt: kit.saltOf(caseAddr, j.address, round),
  });
}

describe("hidden votes", () => {
  it("commit, then reveal once all committed: counts show revealed votes only, reasons are kept, the majority decides", async () => {
    const [j0, j1, j2] = [judge(0), judge(1), judge(2)];
    const caseAddr = await deliberating(party(1), party(2), [j0, j1, j2]);
    let v = await kit.readCase(c, caseAddr);
    const seated = (await c.reader.getBlock({ blockTag: "latest" })).timestamp;
    expect([v.hiddenVotes, v.commitDeadline, v.revealDeadline, v.deliberationDeadline]).toEqual([
      true,
      seated + kit.HP.commitPeriod,
      seated + kit.HP.commitPeriod + kit.HP.revealPeriod,
      seated + kit.HP.commitPeriod + kit.HP.revealPeriod,
    ]);
    await kit.expectRevert(kit.vote(caseAddr, j0, true), "VotesAreHidden");

    const committed = await kit.commitVote(caseAddr, j0, true);
    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "VoteCommitted", logs: committed.logs });
    expect(ev?.args).toEqual({ judge: j0.address, round: 1 });
    v = await kit.readCase(c, caseAddr);
    // A commitment shows as such, never which way it goes, and is not counted.
    expect([v.votesCommitted, v.votesForPlaintiff, v.votesForDefendant]).toEqual([1n, 0n, 0n]);
    expect(v.votes.map((x) => [x.judge, x.vote])).toEqual([
      [j0.address, kit.Cast.Committed],
      [j1.address, kit.Cast.None],
      [j2.address, kit.Cast.None],
    ]);
    expect((await kit.readPanel(c, caseAddr, 1))[1]).toEqual([kit.Cast.Committed, kit.Cast.None, kit.Cast.None]);

    // The reveal phase opens only when all have committed (or the commit deadline passed).
    await kit.expectRevert(kit.revealVote(caseAddr, j0, true), "RevealPhaseNotOpen", [v.commitDeadline]);
    await kit.expectRevert(kit.commitVote(caseAddr, j0, false), "AlreadyCommitted", [j0.address]);
    await kit.expectRevert(
      j1.write({
        address: caseAddr,
        abi: kit.disputeCaseAbi,
        functionName: "commitVote",
        args: [`0x${"0".repeat(64)}`],
      }),
      "InvalidCommitment",
    );
    await kit.expectRevert(kit.commitVote(caseAddr, judge(5), true), "NotAssignedJudge", [judge(5).address]);
    await kit.expectRevert(kit.commitVote(caseAddr, party(1), true), "NotAssignedJudge", [party(1).address]);
    await kit.commitVote(caseAddr, j1, false);
    await kit.commitVote(caseAddr, j2, true);
    expect((await kit.readCase(c, caseAddr)).votesCommitted).toBe(3n);

    // Reveals must match the commitment exactly: the other vote, or another salt, do not.
    await kit.expectRevert(kit.revealVote(caseAddr, j1, true), "CommitmentMismatch");
    await kit.expectRevert(
      kit.revealVote(caseAddr, j1, false, 1, "", kit.saltOf(caseAddr, j0.address, 1)),
      "CommitmentMismatch",
    );
    await kit.expectRevert(kit.revealVote(caseAddr, party(3), true), "NotCommitted", [party(3).address]);

    const reasons = "The delivery receipts contradict the defendant's account.";
    const revealed = await kit.revealVote(caseAddr, j0, true, 1, reasons);
    const [rev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "VoteRevealed", logs: revealed.logs });
    expect(rev?.args).toEqual({ judge: j0.address, plaintiffWins: true, round: 1, justification: reasons });
    await kit.expectRevert(kit.revealVote(caseAddr, j0, true), "AlreadyVoted", [j0.address]);
    // Reasons are bounded in bytes, not characters: 257 two-byte characters are 514 bytes.
    await kit.expectRevert(kit.revealVote(caseAddr, j1, false, 1, "x".repeat(513)), "JustificationTooLong", [512n]);
    await kit.expectRevert(kit.revealVote(caseAddr, j1, false, 1, "é".repeat(257)), "JustificationTooLong", [512n]);
    await kit.revealVote(caseAddr, j1, false, 1, "y".repeat(512));
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.votesForPlaintiff, v.votesForDefendant]).toEqual([kit.State.Deliberating, 1n, 1n]);
    expect(v.votes).toEqual([
      { judge: j0.address, vote: kit.Cast.Plaintiff, justification: reasons },
      { judge: j1.address, vote: kit.Cast.Defendant, justification: "y".repeat(512) },
      { judge: j2.address, vote: kit.Cast.Committed, justification: "" },
    ]);

    await kit.revealVote(caseAddr, j2, true);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.votesForPlaintiff, v.votesForDefendant]).toEqual([
      kit.State.Resolved,
      kit.Outcome.PlaintiffWon,
      2n,
      1n,
    ]);
    // Scored at settle, when the outcome is final: the revealed minority is slashed.
    const before = await kit.readJudge(c, j1.address);
    await kit.advance(c, kit.HP.appealWindow + 1n);
    await kit.settle(caseAddr, party(3));
    const [a0, a1, a2] = await Promise.all([j0, j1, j2].map((j) => kit.readJudge(c, j.address)));
    expect([a0?.majorityVotes, a1?.minorityVotes, a2?.majorityVotes]).toEqual([1, 1, 1]);
    expect(a1?.slashed).toBe(before.slashed + slashOf(before.stake));
    for (const a of [a0, a1, a2]) expect(a?.activeCases).toBe(0);
  });

  it("a commitment copied from another judge cannot be revealed by the copier", async () => {
    const [j0, j1, j2] = [judge(3), judge(4), judge(5)];
    const caseAddr = await deliberating(party(3), party(4), [j0, j1, j2]);
    const theirs = commitOf(caseAddr, j0, true);
    await kit.commitVote(caseAddr, j0, true);
    // j1 sends j0's commitment as its own, hoping to vote as j0 does once j0 reveals.
    await j1.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "commitVote", args: [theirs] });
    await kit.commitVote(caseAddr, j2, false);
    await kit.revealVote(caseAddr, j0, true);
    // The commitment binds the judge's own address: j0's vote and salt do not open it for j1.
    await kit.expectRevert(
      kit.revealVote(caseAddr, j1, true, 1, "", kit.saltOf(caseAddr, j0.address, 1)),
      "CommitmentMismatch",
    );
    await kit.expectRevert(
      kit.revealVote(caseAddr, j1, false, 1, "", kit.saltOf(caseAddr, j0.address, 1)),
      "CommitmentMismatch",
    );
    await kit.revealVote(caseAddr, j2, false);
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Deliberating);
    // Leave it to time out, so these judges are free for later tests.
    await kit.advance(c, kit.HP.commitPeriod + kit.HP.revealPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
  });

  it("deadlines: commit until the commit deadline, reveal after it until the reveal deadline; a missed reveal is a no-show at dismissal", async () => {
    const [p, d] = [party(5), party(6)];
    const [revealer, silent, late] = [judge(6), judge(7), judge(8)];
    const caseAddr = await deliberating(p, d, [revealer, silent, late]);
    const ledger = await Ledger.open(c, [p, d, revealer, silent, late]);
    const { commitDeadline, revealDeadline } = await kit.readCase(c, caseAddr);
    await ledger.tx(revealer, kit.commitVote(caseAddr, revealer, true));
    // The last second of the commit phase is still in it; the reveal phase is not open yet.
    await landAt(commitDeadline);
    await ledger.tx(silent, kit.commitVote(caseAddr, silent, false));
    await kit.expectRevert(kit.commitVote(caseAddr, late, true), "CommitPhaseClosed", [commitDeadline]);
    // Past the commit deadline those who committed may reveal, though one judge never did.
    await ledger.tx(revealer, kit.revealVote(caseAddr, revealer, true, 1, "Reasons."));
    await landAt(revealDeadline + 1n);
    await kit.expectRevert(kit.revealVote(caseAddr, silent, false), "DeliberationClosed", [revealDeadline]);
    await ledger.tx(p, kit.resolveAfterDeadline(caseAddr, p));

    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.votesForPlaintiff, v.votesForDefendant]).toEqual([
      kit.State.Dismissed,
      kit.Outcome.Dismissed,
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
    expect(await ledger.wallet(p)).toBe(kit.HP.minPartyStake);
    expect(await ledger.wallet(d)).toBe(kit.HP.minPartyStake);
    const [r, s, l] = await Promise.all([revealer, silent, late].map((j) => kit.readJudge(c, j.address)));
    expect([r?.noShows, s?.noShows, l?.noShows]).toEqual([0, 1, 1]);
    for (const x of [r, s, l]) expect(x?.activeCases).toBe(0);
    await kit.expectRegistryBalanced(c);
  });

  it("appeal under hidden votes: five judges commit and reveal; every round is scored against the final outcome", async () => {
    const [p, d] = [party(1), party(4)];
    const round1 = [judge(0), judge(1), judge(2)];
    const round2 = [judge(3), judge(4), judge(5), judge(6), judge(7)];
    const [j0, j1, j2] = round1;
    const [k0, k1, k2, k3, k4] = round2 as [Actor, Actor, Actor, Actor, Actor];
    const caseAddr = await deliberating(p, d, round1);
    const ledger = await Ledger.open(c, [p, d, ...round1, ...round2]);
    const noShowsBefore = (await kit.readJudge(c, (round2[4] as Actor).address)).noShows;
    // Round one: all commit; the round waits for every commitment to be opened, and the last
    // reveal decides it for the plaintiff, 2 to 1.
    for (const [j, w] of [
      [j0, true],
      [j1, true],
      [j2, false],
    ] as [Actor, boolean][])
      await kit.commitVote(caseAddr, j, w);
    await kit.revealVote(caseAddr, j0 as Actor, true);
    await kit.revealVote(caseAddr, j2 as Actor, false);
    let v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome]).toEqual([kit.State.Deliberating, kit.Outcome.None]);
    await kit.revealVote(caseAddr, j1 as Actor, true);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome]).toEqual([kit.State.Resolved, kit.Outcome.PlaintiffWon]);
    expect(v.votes.map((x) => x.vote)).toEqual([kit.Cast.Plaintiff, kit.Cast.Plaintiff, kit.Cast.Defendant]);
    await ledger.tx(d, kit.appeal(caseAddr, d));

    await kit.seat(c, caseAddr, round2);
    v = await kit.readCase(c, caseAddr);
    // Round two has its own phases and its own count of commitments.
    const seated = (await c.reader.getBlock({ blockTag: "latest" })).timestamp;
    expect([v.round, v.votesCommitted, v.commitDeadline, v.revealDeadline]).toEqual([
      2,
      0n,
      seated + kit.HP.commitPeriod,
      seated + kit.HP.commitPeriod + kit.HP.revealPeriod,
    ]);
    // Four of five commit (k4 never does), so the reveal phase waits for the commit deadline.
    for (const [j, w] of [
      [k0, false],
      [k1, false],
      [k2, true],
      [k3, false],
    ] as [Actor, boolean][])
      await kit.commitVote(caseAddr, j, w, 2);
    await kit.expectRevert(kit.revealVote(caseAddr, k0, false, 2), "RevealPhaseNotOpen", [v.commitDeadline]);
    // A round-one judge has no say in round two, and a round-one salt does not open round two.
    await kit.expectRevert(kit.commitVote(caseAddr, j0 as Actor, false, 2), "NotAssignedJudge", [j0?.address]);
    await landAt(v.commitDeadline + 1n);
    await kit.revealVote(caseAddr, k0, false, 2);
    await kit.expectRevert(
      kit.revealVote(caseAddr, k2, true, 2, "", kit.saltOf(caseAddr, k2.address, 1)),
      "CommitmentMismatch",
    );
    await kit.revealVote(caseAddr, k2, true, 2);
    await kit.revealVote(caseAddr, k1, false, 2);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.votesForPlaintiff, v.votesForDefendant]).toEqual([kit.State.Deliberating, 1n, 2n]);
    const decisive = await kit.revealVote(caseAddr, k3, false, 2);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.round, v.settled]).toEqual([kit.State.Resolved, kit.Outcome.DefendantWon, 2, true]);

    const pot = 2n * kit.HP.minPartyStake + kit.HP.appealBond;
    const fee = (pot * BigInt(kit.HP.courtFeeBps)) / kit.BPS;
    const each = (fee * BigInt(kit.HP.judgeRewardBps)) / kit.BPS / 4n;
    const [settled] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Settled", logs: decisive.logs });
    expect(settled?.args).toEqual({ winner: d.address, payout: pot - fee, courtFee: fee, judgeRewards: 4n * each });
    // Round one's revealed plaintiff votes were wrong in the end: slashed; its lone defendant vote
    // was right and shares the reward with round two's defendant majority. Round two's revealed
    // plaintiff vote is slashed, and the judge who never committed is a no-show.
    const slashed = [j0, j1, k2, k4] as Actor[];
    for (const j of slashed) expect(await ledger.stake(j)).toBe(-slashOf(ledger.stakeBefore(j)));
    for (const j of [j2 as Actor, k0, k1, k3]) expect(await ledger.stake(j)).toBe(each);
    const slashes = slashed.reduce((s, j) => s + slashOf(ledger.stakeBefore(j)), 0n);
    expect(await ledger.treasuryDelta()).toBe(fee - 4n * each + slashes);
    expect(await ledger.registryDelta()).toBe(fee);
    // The defendant's stake was paid before the ledger opened; its bond after.
    expect(await ledger.wallet(d)).toBe(pot - fee - kit.HP.appealBond);
    expect(await ledger.wallet(p)).toBe(0n);
    const records = await Promise.all([...round1, ...round2].map((j) => kit.readJudge(c, j.address)));
    expect(records.map((r) => r.activeCases)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect((await kit.readJudge(c, k4.address)).noShows).toBe(noShowsBefore + 1);
    await kit.expectRegistryBalanced(c);
  });

  /** All of `panel` commit their votes; the panel is the whole round, so the reveal phase opens at once. */
  async function commitAll(caseAddr: Address, panel: [Actor, boolean][], round = 1): Promise<void> {
    for (const [j, w] of panel) await kit.commitVote(caseAddr, j, w, round);
  }

  const pot1 = 2n * kit.HP.minPartyStake;
  const fee1 = (pot1 * BigInt(kit.HP.courtFeeBps)) / kit.BPS;
  const pool1 = (fee1 * BigInt(kit.HP.judgeRewardBps)) / kit.BPS;

  for (const thirdForPlaintiff of [true, false]) {
    it(`two matching reveals of three commitments do not decide; the third reveal does (${thirdForPlaintiff ? "agreeing, 3 to 0" : "dissenting, 2 to 1"})`, async () => {
      const [a, b, x] = [judge(8), judge(9), judge(10)];
      const caseAddr = await deliberating(party(2), party(3), [a, b, x]);
      await commitAll(caseAddr, [
        [a, true],
        [b, true],
        [x, thirdForPlaintiff],
      ]);
      await kit.revealVote(caseAddr, a, true);
      await kit.revealVote(caseAddr, b, true);
      // A majority of the panel has revealed for the plaintiff, but x's commitment is unopened:
      // nothing is decided, and x may still reveal.
      let v = await kit.readCase(c, caseAddr);
      expect([v.state, v.outcome, v.votesForPlaintiff, v.votesForDefendant, v.resolvedAt]).toEqual([
        kit.State.Deliberating,
        kit.Outcome.None,
        2n,
        0n,
        0n,
      ]);
      expect(v.votes.map((y) => y.vote)).toEqual([kit.Cast.Plaintiff, kit.Cast.Plaintiff, kit.Cast.Committed]);
      const last = await kit.revealVote(caseAddr, x, thirdForPlaintiff);
      const [verdict] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Verdict", logs: last.logs });
      expect(verdict?.args).toEqual({ outcome: kit.Outcome.PlaintiffWon, round: 1 });
      v = await kit.readCase(c, caseAddr);
      expect([v.state, v.outcome, v.votesForPlaintiff, v.votesForDefendant, v.appealWindowOpen]).toEqual([
        kit.State.Resolved,
        kit.Outcome.PlaintiffWon,
        thirdForPlaintiff ? 3n : 2n,
        thirdForPlaintiff ? 0n : 1n,
        true,
      ]);
      // Finish it, so these judges are scored and free again.
      await kit.advance(c, kit.HP.appealWindow + 1n);
      await kit.settle(caseAddr, party(4));
    });
  }

  it("three committed, two matching reveals: after the reveal deadline resolveAfterDeadline gives their verdict; the judge who did not reveal is a no-show", async () => {
    const [p, d] = [party(5), party(6)];
    const [a, b, s] = [judge(0), judge(1), judge(2)];
    const caseAddr = await deliberating(p, d, [a, b, s]);
    const ledger = await Ledger.open(c, [p, d, a, b, s]);
    const before = await Promise.all([a, b, s].map((j) => kit.readJudge(c, j.address)));
    // s committed the very vote that wins, and still never reveals it.
    await commitAll(caseAddr, [
      [a, false],
      [b, false],
      [s, false],
    ]);
    await kit.revealVote(caseAddr, a, false);
    await kit.revealVote(caseAddr, b, false);
    const { revealDeadline, state } = await kit.readCase(c, caseAddr);
    expect(state).toBe(kit.State.Deliberating);
    await landAt(revealDeadline);
    await kit.expectRevert(kit.resolveAfterDeadline(caseAddr, p), "DeadlineNotReached", [revealDeadline]);
    await landAt(revealDeadline + 1n);
    await kit.expectRevert(kit.revealVote(caseAddr, s, false), "DeliberationClosed", [revealDeadline]);
    const r = await ledger.tx(p, kit.resolveAfterDeadline(caseAddr, p));
    const at = revealDeadline + 1n;
    expect(parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Verdict", logs: r.logs }).map((e) => e.args)).toEqual([
      { outcome: kit.Outcome.DefendantWon, round: 1 },
    ]);
    expect(parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Dismissed", logs: r.logs })).toEqual([]);
    expect(parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Settled", logs: r.logs })).toEqual([]);
    const v = await kit.readCase(c, caseAddr);
    // A round-one verdict as the reveals would have given it: the appeal window opens.
    expect([
      v.state,
      v.outcome,
      v.round,
      v.settled,
      v.resolvedAt,
      v.appealDeadline,
      v.appealWindowOpen,
      v.verdictReason,
    ]).toEqual([
      kit.State.Resolved,
      kit.Outcome.DefendantWon,
      1,
      false,
      at,
      at + kit.HP.appealWindow,
      true,
      "A majority of the panel found for the defendant",
    ]);
    // Nothing paid, nobody scored before the outcome is final.
    expect(await ledger.wallet(d)).toBe(0n);
    expect((await kit.readJudge(c, s.address)).noShows).toBe((before[2] as (typeof before)[number]).noShows);
    await kit.expectRevert(kit.settle(caseAddr, p), "AppealWindowStillOpen", [at + kit.HP.appealWindow]);
    await kit.advance(c, kit.HP.appealWindow + 1n);
    await ledger.tx(p, kit.settle(caseAddr, p));

    const each = pool1 / 2n;
    const slash = slashOf(ledger.stakeBefore(s));
    expect(await ledger.stake(a)).toBe(each);
    expect(await ledger.stake(b)).toBe(each);
    expect(await ledger.stake(s)).toBe(-slash);
    expect(await ledger.treasuryDelta()).toBe(fee1 - 2n * each + slash);
    expect(await ledger.registryDelta()).toBe(fee1);
    // Both stakes were paid before the ledger opened.
    expect(await ledger.wallet(d)).toBe(pot1 - fee1);
    expect(await ledger.wallet(p)).toBe(0n);
    const after = await Promise.all([a, b, s].map((j) => kit.readJudge(c, j.address)));
    const delta = after.map((x, i) => {
      const y = before[i] as (typeof before)[number];
      return [
        x.majorityVotes - y.majorityVotes,
        x.minorityVotes - y.minorityVotes,
        x.noShows - y.noShows,
        x.activeCases,
      ];
    });
    expect(delta).toEqual([
      [1, 0, 0, 0],
      [1, 0, 0, 0],
      [0, 0, 1, 0],
    ]);
    await kit.expectRegistryBalanced(c);
  });

  it("a judge who committed the minority vote cannot dodge its score by silence: the round waits for it, and the unopened vote is slashed as a no-show", async () => {
    const [p, d] = [party(1), party(2)];
    const [a, b, m] = [judge(3), judge(4), judge(5)];
    const caseAddr = await deliberating(p, d, [a, b, m]);
    const ledger = await Ledger.open(c, [p, d, a, b, m]);
    const before = await kit.readJudge(c, m.address);
    await commitAll(caseAddr, [
      [a, true],
      [b, true],
      [m, false],
    ]);
    await kit.revealVote(caseAddr, a, true);
    await kit.revealVote(caseAddr, b, true);
    // m sees the majority form against its vote. Before, the second reveal decided and m, never
    // having to reveal, went unscored; now the round waits for m's reveal until the deadline.
    let v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome]).toEqual([kit.State.Deliberating, kit.Outcome.None]);
    expect(v.votes.map((x) => x.vote)).toEqual([kit.Cast.Plaintiff, kit.Cast.Plaintiff, kit.Cast.Committed]);
    await landAt(v.revealDeadline + 1n);
    await ledger.tx(p, kit.resolveAfterDeadline(caseAddr, p));
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([kit.State.Resolved, kit.Outcome.PlaintiffWon, false]);
    await kit.advance(c, kit.HP.appealWindow + 1n);
    await ledger.tx(p, kit.settle(caseAddr, p));
    // Silence costs what a revealed minority vote costs (the first test): the slash.
    const slash = slashOf(ledger.stakeBefore(m));
    expect(await ledger.stake(m)).toBe(-slash);
    const each = pool1 / 2n;
    for (const j of [a, b]) expect(await ledger.stake(j)).toBe(each);
    expect(await ledger.treasuryDelta()).toBe(fee1 - 2n * each + slash);
    expect(await ledger.wallet(p)).toBe(pot1 - fee1);
    const after = await kit.readJudge(c, m.address);
    expect([after.noShows, after.minorityVotes, after.majorityVotes, after.activeCases]).toEqual([
      before.noShows + 1,
      before.minorityVotes,
      before.majorityVotes,
      0,
    ]);
    await kit.expectRegistryBalanced(c);
  });

  it("two commit, the third never does: both reveal the same and decide at once; the judge who never committed is a no-show", async () => {
    const [p, d] = [party(3), party(4)];
    const [a, b, n] = [judge(6), judge(7), judge(8)];
    const caseAddr = await deliberating(p, d, [a, b, n]);
    const ledger = await Ledger.open(c, [p, d, a, b, n]);
    const before = await kit.readJudge(c, n.address);
    await kit.commitVote(caseAddr, a, false);
    await kit.commitVote(caseAddr, b, false);
    const { commitDeadline } = await kit.readCase(c, caseAddr);
    await kit.expectRevert(kit.revealVote(caseAddr, a, false), "RevealPhaseNotOpen", [commitDeadline]);
    await landAt(commitDeadline + 1n);
    await kit.expectRevert(kit.commitVote(caseAddr, n, false), "CommitPhaseClosed", [commitDeadline]);
    await kit.revealVote(caseAddr, a, false);
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Deliberating);
    // Every commitment is open now and two of three found for the defendant: decided, well before
    // the reveal deadline.
    const r = await kit.revealVote(caseAddr, b, false);
    const [verdict] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Verdict", logs: r.logs });
    expect(verdict?.args).toEqual({ outcome: kit.Outcome.DefendantWon, round: 1 });
    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.votesCommitted, v.votesForDefendant]).toEqual([
      kit.State.Resolved,
      kit.Outcome.DefendantWon,
      2n,
      2n,
    ]);
    expect(v.chainTime < v.revealDeadline).toBe(true);
    await kit.advance(c, kit.HP.appealWindow + 1n);
    await ledger.tx(d, kit.settle(caseAddr, d));
    const slash = slashOf(ledger.stakeBefore(n));
    const each = pool1 / 2n;
    expect(await ledger.stake(n)).toBe(-slash);
    for (const j of [a, b]) expect(await ledger.stake(j)).toBe(each);
    expect(await ledger.treasuryDelta()).toBe(fee1 - 2n * each + slash);
    expect(await ledger.wallet(d)).toBe(pot1 - fee1);
    const after = await kit.readJudge(c, n.address);
    expect([after.noShows, after.activeCases]).toEqual([before.noShows + 1, before.activeCases - 1]);
    await kit.expectRegistryBalanced(c);
  });

  it("on appeal, a majority of the five revealed by the reveal deadline is the final verdict: settled and paid out by resolveAfterDeadline", async () => {
    const [p, d] = [party(5), party(2)];
    const round1 = [judge(0), judge(1), judge(2)] as [Actor, Actor, Actor];
    const round2 = [judge(3), judge(4), judge(5), judge(6), judge(7)] as [Actor, Actor, Actor, Actor, Actor];
    const [j0, j1, j2] = round1;
    const [k0, k1, k2, k3, k4] = round2;
    const caseAddr = await deliberating(p, d, round1);
    const ledger = await Ledger.open(c, [p, d, ...round1, ...round2]);
    const before = await Promise.all(round2.map((j) => kit.readJudge(c, j.address)));
    await commitAll(caseAddr, [
      [j0, true],
      [j1, true],
      [j2, false],
    ]);
    await kit.revealVote(caseAddr, j0, true);
    await kit.revealVote(caseAddr, j2, false);
    await kit.revealVote(caseAddr, j1, true);
    expect((await kit.readCase(c, caseAddr)).outcome).toBe(kit.Outcome.PlaintiffWon);
    await ledger.tx(d, kit.appeal(caseAddr, d));
    await kit.seat(c, caseAddr, round2);
    // All five commit; three reveal for the defendant, k3 (plaintiff) and k4 (defendant) never do.
    await commitAll(
      caseAddr,
      [
        [k0, false],
        [k1, false],
        [k2, false],
        [k3, true],
        [k4, false],
      ],
      2,
    );
    for (const k of [k0, k1, k2]) await kit.revealVote(caseAddr, k, false, 2);
    let v = await kit.readCase(c, caseAddr);
    expect([v.state, v.round, v.votesForDefendant, v.outcome]).toEqual([
      kit.State.Deliberating,
      2,
      3n,
      kit.Outcome.None,
    ]);
    await landAt(v.revealDeadline + 1n);
    const r = await kit.resolveAfterDeadline(caseAddr, c.owner);

    const pot = 2n * kit.HP.minPartyStake + kit.HP.appealBond;
    const fee = (pot * BigInt(kit.HP.courtFeeBps)) / kit.BPS;
    // Rewarded: round one's defendant vote (j2) and round two's three revealed ones.
    const each = (fee * BigInt(kit.HP.judgeRewardBps)) / kit.BPS / 4n;
    expect(parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Verdict", logs: r.logs }).map((e) => e.args)).toEqual([
      { outcome: kit.Outcome.DefendantWon, round: 2 },
    ]);
    const [settled] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Settled", logs: r.logs });
    expect(settled?.args).toEqual({ winner: d.address, payout: pot - fee, courtFee: fee, judgeRewards: 4n * each });
    expect(parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Dismissed", logs: r.logs })).toEqual([]);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.round, v.settled, v.appealWindowOpen, v.verdictReason]).toEqual([
      kit.State.Resolved,
      kit.Outcome.DefendantWon,
      2,
      true,
      false,
      "On appeal, a majority of the panel found for the defendant",
    ]);
    await kit.expectRevert(kit.settle(caseAddr, p), "WrongState", [kit.State.Resolved]);
    await kit.expectRevert(kit.resolveAfterDeadline(caseAddr, p), "WrongState", [kit.State.Resolved]);

    // Round one's plaintiff votes were wrong: slashed; both silent round-two judges are no-shows,
    // k4 although it had committed the winning vote.
    const slashed = [j0, j1, k3, k4];
    for (const j of slashed) expect(await ledger.stake(j)).toBe(-slashOf(ledger.stakeBefore(j)));
    for (const j of [j2, k0, k1, k2]) expect(await ledger.stake(j)).toBe(each);
    const slashes = slashed.reduce((s, j) => s + slashOf(ledger.stakeBefore(j)), 0n);
    expect(await ledger.treasuryDelta()).toBe(fee - 4n * each + slashes);
    expect(await ledger.registryDelta()).toBe(fee);
    // Paid out at once: the defendant's stake was paid before the ledger opened, its bond after.
    expect(await ledger.wallet(d)).toBe(pot - fee - kit.HP.appealBond);
    expect(await ledger.wallet(p)).toBe(0n);
    const after = await Promise.all(round2.map((j) => kit.readJudge(c, j.address)));
    expect(after.map((x, i) => x.noShows - (before[i] as (typeof before)[number]).noShows)).toEqual([0, 0, 0, 1, 1]);
    const records = await Promise.all([...round1, ...round2].map((j) => kit.readJudge(c, j.address)));
    expect(records.map((x) => x.activeCases)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    await kit.expectRegistryBalanced(c);
  });
});
