import { type Address, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import {
  advance,
  appeal,
  balance,
  Cast,
  type Court,
  caseFactoryAbi,
  courtOfFile,
  deliberating,
  disputeCaseAbi,
  drawJudges,
  expectRegistryBalanced,
  fileCase,
  Outcome,
  openCaseAddrs,
  P,
  readAgent,
  readCase,
  readJudge,
  resolveAfterDeadline,
  respond,
  State,
  seat,
  settle,
  stakeJudges,
  triggerDefault,
  vote,
} from "./helpers.js";

let c: Court;
let judges: Actor[];

const { party } = courtOfFile(async (court) => {
  c = court;
  judges = c.actors.slice(7, 20);
  await stakeJudges(c, judges);
});

const j = (i: number) => judges[i] as Actor;

/** After any terminal path: no money left in the case, the registry's books balance. */
async function expectClosed(caseAddr: Address): Promise<void> {
  expect(await balance(c, caseAddr)).toBe(0n);
  expect(await openCaseAddrs(c)).not.toContain(caseAddr);
  await expectRegistryBalanced(c);
}

async function expectReleased(who: Actor[]): Promise<void> {
  for (const judge of who) expect((await readJudge(c, judge.address)).activeCases).toBe(0);
}

describe("lifecycle", () => {
  it("files a case: Summoned at once, with the response deadline running", async () => {
    const { caseAddr, receipt } = await fileCase(c, party(1), party(2).address, { stake: P.minPartyStake * 3n });
    const block = await c.reader.getBlock({ blockNumber: receipt.blockNumber });
    const v = await readCase(c, caseAddr);
    expect(v.state).toBe(State.Summoned);
    expect(v.plaintiff).toBe(party(1).address);
    expect(v.defendant).toBe(party(2).address);
    expect(v.plaintiffStake).toBe(P.minPartyStake * 3n);
    expect(v.filedAt).toBe(block.timestamp);
    expect(v.responseDeadline).toBe(block.timestamp + P.responseWindow);
    expect(v.round).toBe(1);
    expect(v.outcome).toBe(Outcome.None);
    const changed = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseChanged", logs: receipt.logs });
    expect(changed.map((e) => [e.args.caseAddr, e.args.state])).toEqual([[caseAddr, State.Summoned]]);
    expect(await openCaseAddrs(c)).toContain(caseAddr);
    expect(await balance(c, caseAddr)).toBe(P.minPartyStake * 3n);
  });

  it("verdict for the plaintiff, then settle after the appeal window", async () => {
    const caseAddr = await deliberating(c, party(1), party(2), [j(0), j(1), j(2)]);
    let v = await readCase(c, caseAddr);
    expect(v.state).toBe(State.Deliberating);
    expect(v.judges).toEqual([j(0).address, j(1).address, j(2).address]);

    await vote(caseAddr, j(0), true);
    await vote(caseAddr, j(1), false);
    v = await readCase(c, caseAddr);
    expect([v.state, v.votesForPlaintiff, v.votesForDefendant]).toEqual([State.Deliberating, 1n, 1n]);

    const decisive = await vote(caseAddr, j(2), true);
    const verdict = parseEventLogs({ abi: disputeCaseAbi, eventName: "Verdict", logs: decisive.logs });
    expect(verdict.map((e) => [e.args.outcome, e.args.round])).toEqual([[Outcome.PlaintiffWon, 1]]);
    const block = await c.reader.getBlock({ blockNumber: decisive.blockNumber });
    v = await readCase(c, caseAddr);
    expect(v.state).toBe(State.Resolved);
    expect(v.outcome).toBe(Outcome.PlaintiffWon);
    expect(v.verdictReason).toBe("A majority of the panel found for the plaintiff");
    expect(v.resolvedAt).toBe(block.timestamp);
    expect(v.appealDeadline).toBe(block.timestamp + P.appealWindow);
    expect(v.appealWindowOpen).toBe(true);
    expect(v.settled).toBe(false);
    // A verdict that can still be appealed keeps the case open, with its money, and its judges:
    // they stay bound and unscored until the outcome is final (an appeal could reverse it).
    expect(await openCaseAddrs(c)).toContain(caseAddr);
    expect(await balance(c, caseAddr)).toBe(2n * P.minPartyStake);
    const bound = await Promise.all([j(0), j(1), j(2)].map((x) => readJudge(c, x.address)));
    expect(bound.map((x) => [x.activeCases, x.majorityVotes, x.minorityVotes, x.slashed])).toEqual([
      [1, 0, 0, 0n],
      [1, 0, 0, 0n],
      [1, 0, 0, 0n],
    ]);

    await advance(c, P.appealWindow + 1n);
    expect((await readCase(c, caseAddr)).appealWindowOpen).toBe(false);
    const settled = await settle(caseAddr, c.owner);
    const [ev] = parseEventLogs({ abi: disputeCaseAbi, eventName: "Settled", logs: settled.logs });
    expect(ev?.args.winner).toBe(party(1).address);
    v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([State.Resolved, Outcome.PlaintiffWon, true]);
    // Settling makes round one final: its judges are released and scored now.
    await expectReleased([j(0), j(1), j(2)]);
    expect((await readJudge(c, j(1).address)).minorityVotes).toBe(1);
    expect((await readJudge(c, j(0).address)).majorityVotes).toBe(1);
    await expectClosed(caseAddr);
    const [winner, loser] = await Promise.all([readAgent(c, party(1).address), readAgent(c, party(2).address)]);
    expect([winner.casesWon, winner.casesLost, winner.reputation]).toEqual([1, 0, 10n]);
    expect([loser.casesWon, loser.casesLost, loser.noShows, loser.reputation]).toEqual([0, 1, 0, -5n]);
  });

  it("verdict for the defendant, then settle", async () => {
    const caseAddr = await deliberating(c, party(3), party(4), [j(3), j(4), j(5)]);
    await vote(caseAddr, j(3), false);
    await vote(caseAddr, j(4), false);
    let v = await readCase(c, caseAddr);
    expect([v.state, v.outcome]).toEqual([State.Resolved, Outcome.DefendantWon]);
    expect(v.verdictReason).toBe("A majority of the panel found for the defendant");
    // Still bound until the outcome is final.
    expect((await readJudge(c, j(5).address)).activeCases).toBe(1);
    await advance(c, P.appealWindow + 1n);
    const r = await settle(caseAddr, party(4));
    // The judge who had not voted when the majority formed is released without a score.
    const late = await readJudge(c, j(5).address);
    expect([late.activeCases, late.votesCast, late.noShows, late.slashed]).toEqual([0, 0, 0, 0n]);
    const [ev] = parseEventLogs({ abi: disputeCaseAbi, eventName: "Settled", logs: r.logs });
    expect(ev?.args.winner).toBe(party(4).address);
    v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([State.Resolved, Outcome.DefendantWon, true]);
    await expectClosed(caseAddr);
  });

  it("appeal and a second, five-judge verdict that reverses the first", async () => {
    const caseAddr = await deliberating(c, party(5), party(6), [j(0), j(1), j(2)]);
    await vote(caseAddr, j(0), true);
    await vote(caseAddr, j(1), true);
    const r = await appeal(caseAddr, party(6));
    const [ev] = parseEventLogs({ abi: disputeCaseAbi, eventName: "Appealed", logs: r.logs });
    expect(ev?.args).toEqual({ appellant: party(6).address, bond: P.appealBond });
    const block = await c.reader.getBlock({ blockNumber: r.blockNumber });
    let v = await readCase(c, caseAddr);
    expect(v.state).toBe(State.Appealed);
    expect(v.round).toBe(2);
    expect(v.outcome).toBe(Outcome.None);
    expect(v.resolvedAt).toBe(0n);
    expect(v.verdictReason).toBe("");
    expect(v.appealUsed).toBe(true);
    expect(v.appellant).toBe(party(6).address);
    expect(v.judges).toEqual([]);
    expect(v.appealWindowOpen).toBe(false);
    expect(v.deliberationDeadline).toBe(block.timestamp + P.deliberationPeriod);
    expect(await balance(c, caseAddr)).toBe(2n * P.minPartyStake + P.appealBond);

    const panel2 = [j(3), j(4), j(5), j(6), j(7)];
    await seat(c, caseAddr, panel2);
    v = await readCase(c, caseAddr);
    expect([v.state, v.round]).toEqual([State.Deliberating, 2]);
    expect(v.judges).toEqual(panel2.map((x) => x.address));
    await vote(caseAddr, j(3), false);
    await vote(caseAddr, j(4), true);
    await vote(caseAddr, j(5), false);
    v = await readCase(c, caseAddr);
    expect([v.state, v.votesForPlaintiff, v.votesForDefendant]).toEqual([State.Deliberating, 1n, 2n]);
    const decisive = await vote(caseAddr, j(6), false);
    const verdict = parseEventLogs({ abi: disputeCaseAbi, eventName: "Verdict", logs: decisive.logs });
    expect(verdict.map((e) => [e.args.outcome, e.args.round])).toEqual([[Outcome.DefendantWon, 2]]);
    v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled, v.round]).toEqual([State.Resolved, Outcome.DefendantWon, true, 2]);
    expect(v.verdictReason).toBe("On appeal, a majority of the panel found for the defendant");
    // The appeal verdict is final: no second appeal window.
    expect(v.appealWindowOpen).toBe(false);
    // Round one's panel and votes are still on record.
    const [round1, cast1] = await c.reader.readContract({
      address: caseAddr,
      abi: disputeCaseAbi,
      functionName: "getPanel",
      args: [1],
    });
    expect(round1).toEqual([j(0).address, j(1).address, j(2).address]);
    expect(cast1).toEqual([Cast.Plaintiff, Cast.Plaintiff, Cast.None]);
    await expectReleased([j(0), j(1), j(2), ...panel2]);
    await expectClosed(caseAddr);
    const [p, d] = await Promise.all([readAgent(c, party(5).address), readAgent(c, party(6).address)]);
    expect([p.casesWon, p.casesLost]).toEqual([0, 1]);
    expect([d.casesWon, d.casesLost]).toEqual([1, 0]);
  });

  it("appeal verdict that upholds the first, for the defendant", async () => {
    const caseAddr = await deliberating(c, party(1), party(3), [j(8), j(9), j(10)]);
    await vote(caseAddr, j(8), false);
    await vote(caseAddr, j(9), false);
    await appeal(caseAddr, party(1));
    await seat(c, caseAddr, [j(0), j(1), j(2), j(3), j(4)]);
    await vote(caseAddr, j(0), false);
    await vote(caseAddr, j(1), false);
    await vote(caseAddr, j(2), false);
    const v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([State.Resolved, Outcome.DefendantWon, true]);
    await expectClosed(caseAddr);
  });

  it("default after the response window: anyone ends it for the plaintiff", async () => {
    const { caseAddr } = await fileCase(c, party(2), party(3).address);
    const noShowBefore = await readAgent(c, party(3).address);
    await advance(c, P.responseWindow + 1n);
    const r = await triggerDefault(caseAddr, j(12));
    const [ev] = parseEventLogs({ abi: disputeCaseAbi, eventName: "Defaulted", logs: r.logs });
    expect(ev?.args.plaintiff).toBe(party(2).address);
    const v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([State.Defaulted, Outcome.PlaintiffWon, true]);
    expect(v.verdictReason).toBe("The defendant did not respond before the response deadline");
    const noShow = await readAgent(c, party(3).address);
    expect(noShow.noShows).toBe(noShowBefore.noShows + 1);
    expect(noShow.casesLost).toBe(noShowBefore.casesLost + 1);
    expect(noShow.reputation).toBe(noShowBefore.reputation - 20n);
    await expectClosed(caseAddr);
  });

  it("dismissal after the deliberation timeout: voters unscored, no-shows slashed", async () => {
    const caseAddr = await deliberating(c, party(4), party(5), [j(9), j(10), j(11)]);
    await vote(caseAddr, j(9), true);
    const before = await Promise.all([j(9), j(10), j(11)].map((x) => readJudge(c, x.address)));
    await advance(c, P.deliberationPeriod + 1n);
    const r = await resolveAfterDeadline(caseAddr, party(1));
    expect(parseEventLogs({ abi: disputeCaseAbi, eventName: "Dismissed", logs: r.logs })).toHaveLength(1);
    const v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([State.Dismissed, Outcome.Dismissed, true]);
    expect(v.verdictReason).toBe("No verdict before the deliberation deadline; stakes refunded");
    const after = await Promise.all([j(9), j(10), j(11)].map((x) => readJudge(c, x.address)));
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
    const { caseAddr } = await fileCase(c, party(6), party(1).address);
    await respond(caseAddr, party(1));
    await advance(c, P.deliberationPeriod + 1n);
    await resolveAfterDeadline(caseAddr, c.owner);
    expect((await readCase(c, caseAddr)).state).toBe(State.Dismissed);
    await expectClosed(caseAddr);
  });

  it("an appeal whose panel is never seated lets the first verdict stand: settled for the round-one winner", async () => {
    const caseAddr = await deliberating(c, party(2), party(4), [j(0), j(1), j(2)]);
    await vote(caseAddr, j(0), false);
    await vote(caseAddr, j(2), false);
    await appeal(caseAddr, party(2));
    await advance(c, P.deliberationPeriod + 1n);
    await resolveAfterDeadline(caseAddr, c.owner);
    const v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.round, v.appellant, v.settled]).toEqual([
      State.Resolved,
      Outcome.DefendantWon,
      2,
      party(2).address,
      true,
    ]);
    expect(v.verdictReason).toBe("No verdict on appeal before the deadline; the first verdict stands");
    await expectReleased([j(0), j(1), j(2)]);
    await expectClosed(caseAddr);
  });

  it("an appeal panel that does not decide lets the first verdict stand; its silent judges are no-shows", async () => {
    const caseAddr = await deliberating(c, party(3), party(5), [j(0), j(1), j(2)]);
    await vote(caseAddr, j(0), true);
    await vote(caseAddr, j(1), true);
    await appeal(caseAddr, party(5));
    const panel2 = [j(8), j(9), j(10), j(11), j(12)];
    await seat(c, caseAddr, panel2);
    await vote(caseAddr, j(8), true);
    await vote(caseAddr, j(9), false);
    const noShowsBefore = await Promise.all(panel2.map(async (x) => (await readJudge(c, x.address)).noShows));
    await advance(c, P.deliberationPeriod + 1n);
    await resolveAfterDeadline(caseAddr, c.owner);
    const noShowsAfter = await Promise.all(panel2.map(async (x) => (await readJudge(c, x.address)).noShows));
    expect(noShowsAfter.map((n, i) => n - (noShowsBefore[i] ?? 0))).toEqual([0, 0, 1, 1, 1]);
    const v = await readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([State.Resolved, Outcome.PlaintiffWon, true]);
    // Round one's judges were bound until now too; the end releases them with the appeal panel.
    await expectReleased([j(0), j(1), j(2), ...panel2]);
    await expectClosed(caseAddr);
  });

  it("a keeper's random draw seats eligible non-party judges, and fresh ones on appeal", async () => {
    // The plaintiff is itself a staked judge: the draw must pass it over.
    const plaintiff = j(12);
    const { caseAddr } = await fileCase(c, plaintiff, party(1).address);
    await respond(caseAddr, party(1));
    await drawJudges(c, caseAddr, c.owner);
    const pool = judges.map((x) => x.address);
    const round1 = (await readCase(c, caseAddr)).judges;
    expect(round1).toHaveLength(3);
    expect(new Set(round1).size).toBe(3);
    for (const a of round1) expect(pool).toContain(a);
    expect(round1).not.toContain(plaintiff.address);

    const voters = judges.filter((x) => round1.includes(x.address));
    await vote(caseAddr, voters[0] as Actor, true);
    await vote(caseAddr, voters[1] as Actor, true);
    await appeal(caseAddr, party(1));
    await drawJudges(c, caseAddr, party(2));
    const round2 = (await readCase(c, caseAddr)).judges;
    expect(round2).toHaveLength(5);
    expect(new Set(round2).size).toBe(5);
    for (const a of round2) {
      expect(pool).toContain(a);
      expect(round1).not.toContain(a);
      expect(a).not.toBe(plaintiff.address);
    }
    // Leave it to time out so the judges are free again for any later test.
    await advance(c, P.deliberationPeriod + 1n);
    await resolveAfterDeadline(caseAddr, c.owner);
    await expectClosed(caseAddr);
  });
});
