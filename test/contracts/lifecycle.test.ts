import { type Address, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;
let judges: Actor[];

const { party } = kit.courtOfFile(async (court) => {
  c = court;
  judges = c.actors.slice(7, 20);
  await kit.stakeJudges(c, judges);
});

const j = (i: number) => judges[i] as Actor;

/** After any terminal path: no money left in the case, the registry's books balance. */
async function expectClosed(caseAddr: Address): Promise<void> {
  expect(await kit.balance(c, caseAddr)).toBe(0n);
  expect(await kit.openCaseAddrs(c)).not.toContain(caseAddr);
  await kit.expectRegistryBalanced(c);
}

async function expectReleased(who: Actor[]): Promise<void> {
  for (const judge of who) expect((await kit.readJudge(c, judge.address)).activeCases).toBe(0);
}

describe("lifecycle", () => {
  it("files a case: Summoned at once, with the response deadline running", async () => {
    const { caseAddr, receipt } = await kit.fileCase(c, party(1), party(2).address, {
      stake: kit.P.minPartyStake * 3n,
    });
    const block = await c.reader.getBlock({ blockNumber: receipt.blockNumber });
    const v = await kit.readCase(c, caseAddr);
    expect(v.state).toBe(kit.State.Summoned);
    expect(v.plaintiff).toBe(party(1).address);
    expect(v.defendant).toBe(party(2).address);
    expect(v.plaintiffStake).toBe(kit.P.minPartyStake * 3n);
    expect(v.filedAt).toBe(block.timestamp);
    expect(v.responseDeadline).toBe(block.timestamp + kit.P.responseWindow);
    expect(v.round).toBe(1);
    expect(v.outcome).toBe(kit.Outcome.None);
    const changed = parseEventLogs({ abi: kit.caseFactoryAbi, eventName: "CaseChanged", logs: receipt.logs });
    expect(changed.map((e) => [e.args.caseAddr, e.args.state])).toEqual([[caseAddr, kit.State.Summoned]]);
    expect(await kit.openCaseAddrs(c)).toContain(caseAddr);
    expect(await kit.balance(c, caseAddr)).toBe(kit.P.minPartyStake * 3n);
  });

  it("verdict for the plaintiff, then settle after the appeal window", async () => {
    const caseAddr = await kit.deliberating(c, party(1), party(2), [j(0), j(1), j(2)]);
    let v = await kit.readCase(c, caseAddr);
    expect(v.state).toBe(kit.State.Deliberating);
    expect(v.judges).toEqual([j(0).address, j(1).address, j(2).address]);

    await kit.vote(caseAddr, j(0), true);
    await kit.vote(caseAddr, j(1), false);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.votesForPlaintiff, v.votesForDefendant]).toEqual([kit.State.Deliberating, 1n, 1n]);

    const decisive = await kit.vote(caseAddr, j(2), true);
    const verdict = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Verdict", logs: decisive.logs });
    expect(verdict.map((e) => [e.args.outcome, e.args.round])).toEqual([[kit.Outcome.PlaintiffWon, 1]]);
    const block = await c.reader.getBlock({ blockNumber: decisive.blockNumber });
    v = await kit.readCase(c, caseAddr);
    expect(v.state).toBe(kit.State.Resolved);
    expect(v.outcome).toBe(kit.Outcome.PlaintiffWon);
    expect(v.verdictReason).toBe("A majority of the panel found for the plaintiff");
    expect(v.resolvedAt).toBe(block.timestamp);
    expect(v.appealDeadline).toBe(block.timestamp + kit.P.appealWindow);
    expect(v.appealWindowOpen).toBe(true);
    expect(v.settled).toBe(false);
    // A verdict that can still be appealed keeps the case open, with its money, and its judges:
    // they stay bound and unscored until the outcome is final (an appeal could reverse it).
    expect(await kit.openCaseAddrs(c)).toContain(caseAddr);
    expect(await kit.balance(c, caseAddr)).toBe(2n * kit.P.minPartyStake);
    const bound = await Promise.all([j(0), j(1), j(2)].map((x) => kit.readJudge(c, x.address)));
    expect(bound.map((x) => [x.activeCases, x.majorityVotes, x.minorityVotes, x.slashed])).toEqual([
      [1, 0, 0, 0n],
      [1, 0, 0, 0n],
      [1, 0, 0, 0n],
    ]);

    await kit.advance(c, kit.P.appealWindow + 1n);
    expect((await kit.readCase(c, caseAddr)).appealWindowOpen).toBe(false);
    const settled = await kit.settle(caseAddr, c.owner);
    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Settled", logs: settled.logs });
    expect(ev?.args.winner).toBe(party(1).address);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([kit.State.Resolved, kit.Outcome.PlaintiffWon, true]);
    // Settling makes round one final: its judges are released and scored now.
    await expectReleased([j(0), j(1), j(2)]);
    expect((await kit.readJudge(c, j(1).address)).minorityVotes).toBe(1);
    expect((await kit.readJudge(c, j(0).address)).majorityVotes).toBe(1);
    await expectClosed(caseAddr);
    const [winner, loser] = await Promise.all([kit.readAgent(c, party(1).address), kit.readAgent(c, party(2).address)]);
    expect([winner.casesWon, winner.casesLost, winner.reputation]).toEqual([1, 0, 10n]);
    expect([loser.casesWon, loser.casesLost, loser.noShows, loser.reputation]).toEqual([0, 1, 0, -5n]);
  });

  it("verdict for the defendant, then settle", async () => {
    const caseAddr = await kit.deliberating(c, party(3), party(4), [j(3), j(4), j(5)]);
    await kit.vote(caseAddr, j(3), false);
    await kit.vote(caseAddr, j(4), false);
    let v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome]).toEqual([kit.State.Resolved, kit.Outcome.DefendantWon]);
    expect(v.verdictReason).toBe("A majority of the panel found for the defendant");
    // Still bound until the outcome is final.
    expect((await kit.readJudge(c, j(5).address)).activeCases).toBe(1);
    await kit.advance(c, kit.P.appealWindow + 1n);
    const r = await kit.settle(caseAddr, party(4));
    // The judge who had not voted when the majority formed is released without a score.
    const late = await kit.readJudge(c, j(5).address);
    expect([late.activeCases, late.votesCast, late.noShows, late.slashed]).toEqual([0, 0, 0, 0n]);
    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Settled", logs: r.logs });
    expect(ev?.args.winner).toBe(party(4).address);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([kit.State.Resolved, kit.Outcome.DefendantWon, true]);
    await expectClosed(caseAddr);
  });

  it("appeal and a second, five-judge verdict that reverses the first", async () => {
    const caseAddr = await kit.deliberating(c, party(5), party(6), [j(0), j(1), j(2)]);
    await kit.vote(caseAddr, j(0), true);
    await kit.vote(caseAddr, j(1), true);
    const r = await kit.appeal(caseAddr, party(6));
    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Appealed", logs: r.logs });
    expect(ev?.args).toEqual({ appellant: party(6).address, bond: kit.P.appealBond });
    const block = await c.reader.getBlock({ blockNumber: r.blockNumber });
    let v = await kit.readCase(c, caseAddr);
    expect(v.state).toBe(kit.State.Appealed);
    expect(v.round).toBe(2);
    expect(v.outcome).toBe(kit.Outcome.None);
    expect(v.resolvedAt).toBe(0n);
    expect(v.verdictReason).toBe("");
    expect(v.appealUsed).toBe(true);
    expect(v.appellant).toBe(party(6).address);
    expect(v.judges).toEqual([]);
    expect(v.appealWindowOpen).toBe(false);
    expect(v.deliberationDeadline).toBe(block.timestamp + kit.P.deliberationPeriod);
    expect(await kit.balance(c, caseAddr)).toBe(2n * kit.P.minPartyStake + kit.P.appealBond);

    const panel2 = [j(3), j(4), j(5), j(6), j(7)];
    await kit.seat(c, caseAddr, panel2);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.round]).toEqual([kit.State.Deliberating, 2]);
    expect(v.judges).toEqual(panel2.map((x) => x.address));
    await kit.vote(caseAddr, j(3), false);
    await kit.vote(caseAddr, j(4), true);
    await kit.vote(caseAddr, j(5), false);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.votesForPlaintiff, v.votesForDefendant]).toEqual([kit.State.Deliberating, 1n, 2n]);
    const decisive = await kit.vote(caseAddr, j(6), false);
    const verdict = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Verdict", logs: decisive.logs });
    expect(verdict.map((e) => [e.args.outcome, e.args.round])).toEqual([[kit.Outcome.DefendantWon, 2]]);
    v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled, v.round]).toEqual([kit.State.Resolved, kit.Outcome.DefendantWon, true, 2]);
    expect(v.verdictReason).toBe("On appeal, a majority of the panel found for the defendant");
    // The appeal verdict is final: no second appeal window.
    expect(v.appealWindowOpen).toBe(false);
    // Round one's panel and votes are still on record.
    const [round1, cast1] = await c.reader.readContract({
      address: caseAddr,
      abi: kit.disputeCaseAbi,
      functionName: "getPanel",
      args: [1],
    });
    expect(round1).toEqual([j(0).address, j(1).address, j(2).address]);
    expect(cast1).toEqual([kit.Cast.Plaintiff, kit.Cast.Plaintiff, kit.Cast.None]);
    await expectReleased([j(0), j(1), j(2), ...panel2]);
    await expectClosed(caseAddr);
    const [p, d] = await Promise.all([kit.readAgent(c, party(5).address), kit.readAgent(c, party(6).address)]);
    expect([p.casesWon, p.casesLost]).toEqual([0, 1]);
    expect([d.casesWon, d.casesLost]).toEqual([1, 0]);
  });

  it("appeal verdict that upholds the first, for the defendant", async () => {
    const caseAddr = await kit.deliberating(c, party(1), party(3), [j(8), j(9), j(10)]);
    await kit.vote(caseAddr, j(8), false);
    await kit.vote(caseAddr, j(9), false);
    await kit.appeal(caseAddr, party(1));
    await kit.seat(c, caseAddr, [j(0), j(1), j(2), j(3), j(4)]);
    await kit.vote(caseAddr, j(0), false);
    await kit.vote(caseAddr, j(1), false);
    await kit.vote(caseAddr, j(2), false);
    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([kit.State.Resolved, kit.Outcome.DefendantWon, true]);
    await expectClosed(caseAddr);
  });

  it("default after the response window: anyone ends it for the plaintiff", async () => {
    const { caseAddr } = await kit.fileCase(c, party(2), party(3).address);
    const noShowBefore = await kit.readAgent(c, party(3).address);
    await kit.advance(c, kit.P.responseWindow + 1n);
    const r = await kit.triggerDefault(caseAddr, j(12));
    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Defaulted", logs: r.logs });
    expect(ev?.args.plaintiff).toBe(party(2).address);
    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([kit.State.Defaulted, kit.Outcome.PlaintiffWon, true]);
    expect(v.verdictReason).toBe("The defendant did not respond before the response deadline");
    const noShow = await kit.readAgent(c, party(3).address);
    expect(noShow.noShows).toBe(noShowBefore.noShows + 1);
    expect(noShow.casesLost).toBe(noShowBefore.casesLost + 1);
    expect(noShow.reputation).toBe(noShowBefore.reputation - 20n);
    await expectClosed(caseAddr);
  });

  it("dismissal after the deliberation timeout: voters unscored, no-shows slashed", async () => {
    const caseAddr = await kit.deliberating(c, party(4), party(5), [j(9), j(10), j(11)]);
    await kit.vote(caseAddr, j(9), true);
    const before = await Promise.all([j(9), j(10), j(11)].map((x) => kit.readJudge(c, x.address)));
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    const r = await kit.resolveAfterDeadline(caseAddr, party(1));
    expect(parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Dismissed", logs: r.logs })).toHaveLength(1);
    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([kit.State.Dismissed, kit.Outcome.Dismissed, true]);
    expect(v.verdictReason).toBe("No verdict before the deliberation deadline; stakes refunded");
    const after = await Promise.all([j(9), j(10), j(11)].map((x) => kit.readJudge(c, x.address)));
    const [voter, absent1, absent2] = after;
    expect([voter?.slashed, voter?.noShows, voter?.majorityVotes, voter?.minorityVotes]).toEqual([
      before[0]?.slashed,
      before[0]?.noShows,
      before[0]?.majorityVotes,
      before[0]?.minorityVotes,
    ]);
    expect(absent1?.noShows).toBe((before[1]?.noShows ?? 0) + 1);
    expect(absent2?.noShows).toBe((before[2]?.noShows ?? 0) + 1);
    expect(absent1?.stake).toBeLessThan(before[1]?.stake ?? 0n);
    await expectReleased([j(9), j(10), j(11)]);
    await expectClosed(caseAddr);
  });

  it("dismissal of an answered case whose panel was never drawn", async () => {
    const { caseAddr } = await kit.fileCase(c, party(6), party(1).address);
    await kit.respond(caseAddr, party(1));
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Dismissed);
    await expectClosed(caseAddr);
  });

  it("an appeal whose panel is never seated lets the first verdict stand: settled for the round-one winner", async () => {
    const caseAddr = await kit.deliberating(c, party(2), party(4), [j(0), j(1), j(2)]);
    await kit.vote(caseAddr, j(0), false);
    await kit.vote(caseAddr, j(2), false);
    await kit.appeal(caseAddr, party(2));
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.round, v.appellant, v.settled]).toEqual([
      kit.State.Resolved,
      kit.Outcome.DefendantWon,
      2,
      party(2).address,
      true,
    ]);
    expect(v.verdictReason).toBe("No verdict on appeal before the deadline; the first verdict stands");
    await expectReleased([j(0), j(1), j(2)]);
    await expectClosed(caseAddr);
  });

  it("an appeal panel that does not decide lets the first verdict stand; its silent judges are no-shows", async () => {
    const caseAddr = await kit.deliberating(c, party(3), party(5), [j(0), j(1), j(2)]);
    await kit.vote(caseAddr, j(0), true);
    await kit.vote(caseAddr, j(1), true);
    await kit.appeal(caseAddr, party(5));
    const panel2 = [j(8), j(9), j(10), j(11), j(12)];
    await kit.seat(c, caseAddr, panel2);
    await kit.vote(caseAddr, j(8), true);
    await kit.vote(caseAddr, j(9), false);
    const noShowsBefore = await Promise.all(panel2.map(async (x) => (await kit.readJudge(c, x.address)).noShows));
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
    const noShowsAfter = await Promise.all(panel2.map(async (x) => (await kit.readJudge(c, x.address)).noShows));
    expect(noShowsAfter.map((n, i) => n - (noShowsBefore[i] ?? 0))).toEqual([0, 0, 1, 1, 1]);
    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([kit.State.Resolved, kit.Outcome.PlaintiffWon, true]);
    // Round one's judges were bound until now too; the end releases them with the appeal panel.
    await expectReleased([j(0), j(1), j(2), ...panel2]);
    await expectClosed(caseAddr);
  });

  it("a keeper's random draw seats eligible non-party judges, and fresh ones on appeal", async () => {
    // The plaintiff is itself a staked judge: the draw must pass it over.
    const plaintiff = j(12);
    const { caseAddr } = await kit.fileCase(c, plaintiff, party(1).address);
    await kit.respond(caseAddr, party(1));
    await kit.drawJudges(c, caseAddr, c.owner);
    const pool = judges.map((x) => x.address);
    const round1 = (await kit.readCase(c, caseAddr)).judges;
    expect(round1).toHaveLength(3);
    expect(new Set(round1).size).toBe(3);
    for (const a of round1) expect(pool).toContain(a);
    expect(round1).not.toContain(plaintiff.address);

    const voters = judges.filter((x) => round1.includes(x.address));
    await kit.vote(caseAddr, voters[0] as Actor, true);
    await kit.vote(caseAddr, voters[1] as Actor, true);
    await kit.appeal(caseAddr, party(1));
    await kit.drawJudges(c, caseAddr, party(2));
    const round2 = (await kit.readCase(c, caseAddr)).judges;
    expect(round2).toHaveLength(5);
    expect(new Set(round2).size).toBe(5);
    for (const a of round2) {
      expect(pool).toContain(a);
      expect(round1).not.toContain(a);
      expect(a).not.toBe(plaintiff.address);
    }
    // Leave it to time out so the judges are free again for any later test.
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
    await expectClosed(caseAddr);
  });
});
