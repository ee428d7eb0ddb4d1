import type { Address } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;

const { party, judge } = kit.courtOfFile(async (court) => {
  c = court;
});

function drawRandom(caseAddr: Address) {
  return kit.drawJudges(c, caseAddr, party(5));
}

function assign(caseAddr: Address, who: Actor[]) {
  return kit.seat(c, caseAddr, who);
}

/** Files a case and has it answered: the answer arms its draw on the pool as it is now. */
async function answered(p: Actor, d: Actor): Promise<Address> {
  const { caseAddr } = await kit.fileCase(c, p, d.address);
  await kit.respond(caseAddr, d);
  return caseAddr;
}

describe("panels from a thin pool", () => {
  it("refuses to draw or seat judges who are missing, parties, ineligible or already served", async () => {
    const [p, d] = [party(1), party(2)];
    const empty = await answered(p, d);
    await kit.expectRevert(drawRandom(empty), "NotEnoughJudges", [0n, 3n]);

    // Three eligible judges, but one is the plaintiff.
    await kit.stakeJudges(c, [judge(0), judge(1), p]);
    // The draw reads the pool as it was when the case was answered: still empty for that case.
    await kit.expectRevert(drawRandom(empty), "NotEnoughJudges", [0n, 3n]);
    const caseAddr = await answered(p, d);
    await kit.expectRevert(drawRandom(caseAddr), "NotEnoughJudges", [2n, 3n]);
    await kit.expectRevert(assign(caseAddr, [p, judge(0), judge(1)]), "JudgeIsParty", [p.address]);
    await kit.expectRevert(assign(caseAddr, [judge(0), judge(1), judge(2)]), "JudgeNotEligible", [judge(2).address]);

    await kit.stakeJudges(c, [judge(2)]);
    // The owner's override reads eligibility now; the draw, the pool at arming.
    await kit.expectRevert(drawRandom(caseAddr), "NotEnoughJudges", [2n, 3n]);
    const third = await answered(p, d);
    await drawRandom(third);
    const round1 = (await kit.readCase(c, third)).judges;
    expect([...round1].sort()).toEqual([judge(0), judge(1), judge(2)].map((j) => j.address).sort());
    await kit.vote(third, judge(0), true);
    await kit.vote(third, judge(1), true);

    // On appeal every eligible judge has served or is a party; four fresh ones join before the
    // appeal arms its draw, a fifth after it.
    const fresh = [judge(3), judge(4), judge(5), judge(6)];
    await kit.stakeJudges(c, fresh);
    await kit.appeal(third, d);
    await kit.expectRevert(drawRandom(third), "NotEnoughJudges", [4n, 5n]);
    await kit.expectRevert(assign(third, [...fresh, judge(0)]), "JudgeAlreadyServed", [judge(0).address]);
    await kit.expectRevert(assign(third, fresh.slice(0, 3)), "WrongPanelSize", [5n, 3n]);
    await kit.expectRevert(assign(third, [...fresh, judge(3)]), "DuplicateJudge", [judge(3).address]);

    await kit.stakeJudges(c, [judge(7)]);
    await kit.expectRevert(drawRandom(third), "NotEnoughJudges", [4n, 5n]);
    // Only a fresh arming reads the grown pool: once the arming block's hash is out of reach
    // (256 blocks), a draw re-arms instead of seating, and the next one seats.
    await kit.mineBlocks(c, 257);
    await drawRandom(third);
    expect((await kit.readCase(c, third)).state).toBe(kit.State.Appealed);
    await drawRandom(third);
    const round2 = (await kit.readCase(c, third)).judges;
    expect([...round2].sort()).toEqual([...fresh, judge(7)].map((j) => j.address).sort());
    // A round-one judge has no vote on appeal.
    await kit.expectRevert(kit.vote(third, judge(0), false), "NotAssignedJudge", [judge(0).address]);
  });
});

describe("case refusals", () => {
  beforeAll(async () => {
    await kit.stakeJudges(c, [judge(8), judge(9), judge(10), judge(11), judge(12)]);
  });

  const panel = () => [judge(8), judge(9), judge(10)];
  const appealPanel = () => [judge(0), judge(1), judge(2), judge(11), judge(12)];

  it("respond: only the defendant, with the minimum stake, once, within the window", async () => {
    const [p, d] = [party(3), party(4)];
    const { caseAddr } = await kit.fileCase(c, p, d.address);
    const { responseDeadline } = await kit.readCase(c, caseAddr);
    await kit.expectRevert(kit.respond(caseAddr, p), "OnlyDefendant");
    await kit.expectRevert(kit.respond(caseAddr, party(6)), "OnlyDefendant");
    await kit.expectRevert(kit.respond(caseAddr, d, kit.P.minPartyStake - 1n), "StakeBelowMinimum", [
      kit.P.minPartyStake,
      kit.P.minPartyStake - 1n,
    ]);
    await kit.expectRevert(kit.triggerDefault(caseAddr, p), "ResponseWindowStillOpen", [responseDeadline]);
    await kit.respond(caseAddr, d);
    await kit.expectRevert(kit.respond(caseAddr, d), "WrongState", [kit.State.Active]);
    await kit.expectRevert(kit.triggerDefault(caseAddr, p), "WrongState", [kit.State.Active]);

    const late = await kit.fileCase(c, p, d.address);
    const deadline = (await kit.readCase(c, late.caseAddr)).responseDeadline;
    await kit.advance(c, kit.P.responseWindow + 1n);
    await kit.expectRevert(kit.respond(late.caseAddr, d), "ResponseWindowClosed", [deadline]);
    await kit.triggerDefault(late.caseAddr, party(6));
    await kit.expectRevert(kit.triggerDefault(late.caseAddr, party(6)), "WrongState", [kit.State.Defaulted]);
    await kit.expectRevert(kit.respond(late.caseAddr, d), "WrongState", [kit.State.Defaulted]);
  });

  it("evidence: parties only, while heard, a bounded hash, at most 16 per party and round", async () => {
    const [p, d] = [party(1), party(3)];
    const { caseAddr } = await kit.fileCase(c, p, d.address);
    const submit = (who: Actor, hash: string) =>
      who.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "submitEvidence", args: [hash] });
    await kit.expectRevert(submit(p, "bafy"), "WrongState", [kit.State.Summoned]);
    await kit.respond(caseAddr, d);
    await kit.expectRevert(submit(party(6), "bafy"), "OnlyParty");
    await kit.expectRevert(submit(judge(8), "bafy"), "OnlyParty");
    await kit.expectRevert(submit(p, ""), "EvidenceHashInvalid");
    await kit.expectRevert(submit(p, "h".repeat(129)), "EvidenceHashInvalid");
    await submit(p, "h".repeat(128));
    await submit(d, "bafy-defence");
    await assign(caseAddr, panel());
    const evidence = await c.reader.readContract({
      address: caseAddr,
      abi: kit.disputeCaseAbi,
      functionName: "getEvidence",
    });
    expect(evidence[1]?.submitter).toBe(d.address);
    expect(evidence[1]?.hash).toBe("bafy-defence");
    await kit.vote(caseAddr, judge(8), false);
    await kit.vote(caseAddr, judge(9), false);
    await kit.expectRevert(submit(p, "late"), "WrongState", [kit.State.Resolved]);
  });

  // Audit (issue #26, hole 2): one cap of 64 shared by both parties let the plaintiff send 64
  // submitEvidence right after respond() and silence the defendant in both rounds.
  it("one party cannot fill every evidence slot: 64 plaintiff submissions, then the defendant still submits, in both rounds", async () => {
    const [p, d] = [party(2), party(4)];
    const { caseAddr } = await kit.fileCase(c, p, d.address);
    const submit = (who: Actor, hash: string) =>
      who.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "submitEvidence", args: [hash] });
    await kit.respond(caseAddr, d);
    for (let i = 0; i < 64; i++) {
      if (i < 16) await submit(p, `bafy-p-${i}`);
      else await kit.expectRevert(submit(p, `bafy-p-${i}`), "TooMuchEvidence", [16n]);
    }
    for (let i = 0; i < 16; i++) await submit(d, `bafy-d-${i}`);
    await kit.expectRevert(submit(d, "bafy-d-16"), "TooMuchEvidence", [16n]);
    expect((await kit.readCase(c, caseAddr)).evidenceCount).toBe(32n);
    // Round 2 (the defendant appeals): both parties get their own slots again.
    await assign(caseAddr, panel());
    await kit.vote(caseAddr, judge(8), true);
    await kit.vote(caseAddr, judge(10), true);
    await kit.appeal(caseAddr, d);
    await assign(caseAddr, appealPanel());
    await submit(d, "bafy-d-appeal");
    await submit(p, "bafy-p-appeal");
    expect((await kit.readCase(c, caseAddr)).evidenceCount).toBe(34n);
  });

  it("seating: only through the factory, when awaiting a panel, the right size, no duplicates", async () => {
    const [p, d] = [party(2), party(4)];
    const { caseAddr } = await kit.fileCase(c, p, d.address);
    await kit.expectRevert(assign(caseAddr, panel()), "WrongState", [kit.State.Summoned]);
    await kit.respond(caseAddr, d);
    await kit.expectRevert(assign(caseAddr, panel().slice(0, 2)), "WrongPanelSize", [3n, 2n]);
    await kit.expectRevert(assign(caseAddr, [...panel(), judge(11)]), "WrongPanelSize", [3n, 4n]);
    await kit.expectRevert(assign(caseAddr, [judge(8), judge(9), judge(8)]), "DuplicateJudge", [judge(8).address]);
    await kit.expectRevert(assign(caseAddr, [judge(8), judge(9), party(6)]), "JudgeNotEligible", [party(6).address]);
    await kit.expectRevert(
      party(5).write({
        address: caseAddr,
        abi: kit.disputeCaseAbi,
        functionName: "setJudges",
        args: [panel().map((j) => j.address)],
      }),
      "OnlyFactory",
    );
    await kit.expectRevert(
      party(5).write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "drawJudges" }),
      "OnlyFactory",
    );
    await assign(caseAddr, panel());
    await kit.expectRevert(assign(caseAddr, appealPanel().slice(0, 3)), "WrongState", [kit.State.Deliberating]);
    await kit.expectRevert(drawRandom(caseAddr), "WrongState", [kit.State.Deliberating]);

    // An answered case whose panel is not seated in time can only be dismissed.
    const { caseAddr: slow } = await kit.fileCase(c, p, d.address);
    await kit.respond(slow, d);
    const { deliberationDeadline } = await kit.readCase(c, slow);
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.expectRevert(assign(slow, panel()), "DeliberationClosed", [deliberationDeadline]);
    await kit.expectRevert(drawRandom(slow), "DeliberationClosed", [deliberationDeadline]);
    await kit.resolveAfterDeadline(slow, p);
  });

  it("voting: assigned judges only, once each, while deliberating, before the deadline", async () => {
    const [p, d] = [party(5), party(6)];
    const { caseAddr } = await kit.fileCase(c, p, d.address);
    await kit.respond(caseAddr, d);
    await kit.expectRevert(kit.vote(caseAddr, judge(8), true), "WrongState", [kit.State.Active]);
    await assign(caseAddr, panel());
    await kit.expectRevert(kit.vote(caseAddr, party(1), true), "NotAssignedJudge", [party(1).address]);
    await kit.expectRevert(kit.vote(caseAddr, judge(11), true), "NotAssignedJudge", [judge(11).address]);
    // This court votes in public: the commit-reveal calls are refused, even to the panel.
    await kit.expectRevert(kit.commitVote(caseAddr, judge(8), true), "VotesArePublic");
    await kit.expectRevert(kit.revealVote(caseAddr, judge(8), true), "VotesArePublic");
    await kit.vote(caseAddr, judge(8), true);
    await kit.expectRevert(kit.vote(caseAddr, judge(8), false), "AlreadyVoted", [judge(8).address]);
    const { deliberationDeadline } = await kit.readCase(c, caseAddr);
    await kit.expectRevert(kit.resolveAfterDeadline(caseAddr, p), "DeadlineNotReached", [deliberationDeadline]);
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.expectRevert(kit.vote(caseAddr, judge(9), true), "DeliberationClosed", [deliberationDeadline]);
    await kit.resolveAfterDeadline(caseAddr, p);
    await kit.expectRevert(kit.resolveAfterDeadline(caseAddr, p), "WrongState", [kit.State.Dismissed]);
    await kit.expectRevert(kit.vote(caseAddr, judge(9), true), "WrongState", [kit.State.Dismissed]);

    const { caseAddr: summoned } = await kit.fileCase(c, p, d.address);
    await kit.expectRevert(kit.resolveAfterDeadline(summoned, p), "WrongState", [kit.State.Summoned]);
  });

  it("appeal and settle: the loser, once, with the exact bond, inside the window; settle only after it", async () => {
    const [p, d] = [party(1), party(2)];
    const caseAddr = await kit.deliberating(c, p, d, panel());
    await kit.expectRevert(kit.settle(caseAddr, p), "WrongState", [kit.State.Deliberating]);
    await kit.expectRevert(kit.appeal(caseAddr, d), "WrongState", [kit.State.Deliberating]);
    await kit.vote(caseAddr, judge(8), true);
    await kit.vote(caseAddr, judge(10), true);
    await kit.expectRevert(kit.vote(caseAddr, judge(9), false), "WrongState", [kit.State.Resolved]);
    await kit.expectRevert(kit.resolveAfterDeadline(caseAddr, p), "WrongState", [kit.State.Resolved]);
    const { appealDeadline } = await kit.readCase(c, caseAddr);
    await kit.expectRevert(kit.settle(caseAddr, p), "AppealWindowStillOpen", [appealDeadline]);
    await kit.expectRevert(kit.appeal(caseAddr, p), "OnlyLosingParty");
    await kit.expectRevert(kit.appeal(caseAddr, party(6)), "OnlyLosingParty");
    await kit.expectRevert(kit.appeal(caseAddr, d, kit.P.appealBond - 1n), "WrongAppealBond", [
      kit.P.appealBond,
      kit.P.appealBond - 1n,
    ]);
    await kit.expectRevert(kit.appeal(caseAddr, d, kit.P.appealBond + 1n), "WrongAppealBond", [
      kit.P.appealBond,
      kit.P.appealBond + 1n,
    ]);
    await kit.expectRevert(kit.appeal(caseAddr, d, 0n), "WrongAppealBond", [kit.P.appealBond, 0n]);
    await kit.appeal(caseAddr, d);
    await kit.expectRevert(kit.appeal(caseAddr, d), "WrongState", [kit.State.Appealed]);
    await kit.expectRevert(kit.settle(caseAddr, p), "WrongState", [kit.State.Appealed]);
    await kit.expectRevert(assign(caseAddr, panel()), "WrongPanelSize", [5n, 3n]);
    await assign(caseAddr, appealPanel());
    for (const j of appealPanel().slice(0, 3)) await kit.vote(caseAddr, j, false);
    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.settled]).toEqual([kit.State.Resolved, true]);
    // The appeal verdict is final: the new loser cannot appeal, and there is nothing to settle.
    await kit.expectRevert(kit.appeal(caseAddr, p), "AppealAlreadyUsed");
    await kit.expectRevert(kit.appeal(caseAddr, d), "AppealAlreadyUsed");
    await kit.expectRevert(kit.settle(caseAddr, p), "WrongState", [kit.State.Resolved]);
  });

  it("appeal after the window is refused; a settled case cannot be settled or appealed again", async () => {
    const [p, d] = [party(3), party(5)];
    const caseAddr = await kit.deliberating(c, p, d, panel());
    await kit.vote(caseAddr, judge(9), false);
    await kit.vote(caseAddr, judge(10), false);
    const { appealDeadline } = await kit.readCase(c, caseAddr);
    await kit.advance(c, kit.P.appealWindow + 1n);
    await kit.expectRevert(kit.appeal(caseAddr, p), "AppealWindowClosed", [appealDeadline]);
    await kit.settle(caseAddr, d);
    await kit.expectRevert(kit.settle(caseAddr, d), "WrongState", [kit.State.Resolved]);
    await kit.expectRevert(kit.appeal(caseAddr, p), "AppealWindowClosed", [appealDeadline]);
  });

  it("withdraw: nothing owed is refused", async () => {
    const { caseAddr } = await kit.fileCase(c, party(4), party(6).address);
    await kit.expectRevert(
      party(4).write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "withdraw" }),
      "NothingToWithdraw",
    );
  });
});
