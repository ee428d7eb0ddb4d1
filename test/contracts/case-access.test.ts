import type { Address } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import {
  advance,
  appeal,
  type Court,
  commitVote,
  courtOfFile,
  deliberating,
  disputeCaseAbi,
  drawJudges,
  expectRevert,
  fileCase,
  mineBlocks,
  P,
  readCase,
  resolveAfterDeadline,
  respond,
  revealVote,
  State,
  seat,
  settle,
  stakeJudges,
  triggerDefault,
  vote,
} from "./helpers.js";

let c: Court;

const { party, judge } = courtOfFile(async (court) => {
  c = court;
});

function drawRandom(caseAddr: Address) {
  return drawJudges(c, caseAddr, party(5));
}

function assign(caseAddr: Address, who: Actor[]) {
  return seat(c, caseAddr, who);
}

/** Files a case and has it answered: the answer arms its draw on the pool as it is now. */
async function answered(p: Actor, d: Actor): Promise<Address> {
  const { caseAddr } = await fileCase(c, p, d.address);
  await respond(caseAddr, d);
  return caseAddr;
}

describe("panels from a thin pool", () => {
  it("refuses to draw or seat judges who are missing, parties, ineligible or already served", async () => {
    const [p, d] = [party(1), party(2)];
    const empty = await answered(p, d);
    await expectRevert(drawRandom(empty), "NotEnoughJudges", [0n, 3n]);

    // Three eligible judges, but one is the plaintiff.
    await stakeJudges(c, [judge(0), judge(1), p]);
    // The draw reads the pool as it was when the case was answered: still empty for that case.
    await expectRevert(drawRandom(empty), "NotEnoughJudges", [0n, 3n]);
    const caseAddr = await answered(p, d);
    await expectRevert(drawRandom(caseAddr), "NotEnoughJudges", [2n, 3n]);
    await expectRevert(assign(caseAddr, [p, judge(0), judge(1)]), "JudgeIsParty", [p.address]);
    await expectRevert(assign(caseAddr, [judge(0), judge(1), judge(2)]), "JudgeNotEligible", [judge(2).address]);

    await stakeJudges(c, [judge(2)]);
    // The owner's override reads eligibility now; the draw, the pool at arming.
    await expectRevert(drawRandom(caseAddr), "NotEnoughJudges", [2n, 3n]);
    const third = await answered(p, d);
    await drawRandom(third);
    const round1 = (await readCase(c, third)).judges;
    expect([...round1].sort()).toEqual([judge(0), judge(1), judge(2)].map((j) => j.address).sort());
    await vote(third, judge(0), true);
    await vote(third, judge(1), true);

    // On appeal every eligible judge has served or is a party; four fresh ones join before the
    // appeal arms its draw, a fifth after it.
    const fresh = [judge(3), judge(4), judge(5), judge(6)];
    await stakeJudges(c, fresh);
    await appeal(third, d);
    await expectRevert(drawRandom(third), "NotEnoughJudges", [4n, 5n]);
    await expectRevert(assign(third, [...fresh, judge(0)]), "JudgeAlreadyServed", [judge(0).address]);
    await expectRevert(assign(third, fresh.slice(0, 3)), "WrongPanelSize", [5n, 3n]);
    await expectRevert(assign(third, [...fresh, judge(3)]), "DuplicateJudge", [judge(3).address]);

    await stakeJudges(c, [judge(7)]);
    await expectRevert(drawRandom(third), "NotEnoughJudges", [4n, 5n]);
    // Only a fresh arming reads the grown pool: once the arming block's hash is out of reach
    // (256 blocks), a draw re-arms instead of seating, and the next one seats.
    await mineBlocks(c, 257);
    await drawRandom(third);
    expect((await readCase(c, third)).state).toBe(State.Appealed);
    await drawRandom(third);
    const round2 = (await readCase(c, third)).judges;
    expect([...round2].sort()).toEqual([...fresh, judge(7)].map((j) => j.address).sort());
    // A round-one judge has no vote on appeal.
    await expectRevert(vote(third, judge(0), false), "NotAssignedJudge", [judge(0).address]);
  });
});

describe("case refusals", () => {
  beforeAll(async () => {
    await stakeJudges(c, [judge(8), judge(9), judge(10), judge(11), judge(12)]);
  });

  const panel = () => [judge(8), judge(9), judge(10)];
  const appealPanel = () => [judge(0), judge(1), judge(2), judge(11), judge(12)];

  it("respond: only the defendant, with the minimum stake, once, within the window", async () => {
    const [p, d] = [party(3), party(4)];
    const { caseAddr } = await fileCase(c, p, d.address);
    const { responseDeadline } = await readCase(c, caseAddr);
    await expectRevert(respond(caseAddr, p), "OnlyDefendant");
    await expectRevert(respond(caseAddr, party(6)), "OnlyDefendant");
    await expectRevert(respond(caseAddr, d, P.minPartyStake - 1n), "StakeBelowMinimum", [
      P.minPartyStake,
      P.minPartyStake - 1n,
    ]);
    await expectRevert(triggerDefault(caseAddr, p), "ResponseWindowStillOpen", [responseDeadline]);
    await respond(caseAddr, d);
    await expectRevert(respond(caseAddr, d), "WrongState", [State.Active]);
    await expectRevert(triggerDefault(caseAddr, p), "WrongState", [State.Active]);

    const late = await fileCase(c, p, d.address);
    const deadline = (await readCase(c, late.caseAddr)).responseDeadline;
    await advance(c, P.responseWindow + 1n);
    await expectRevert(respond(late.caseAddr, d), "ResponseWindowClosed", [deadline]);
    await triggerDefault(late.caseAddr, party(6));
    await expectRevert(triggerDefault(late.caseAddr, party(6)), "WrongState", [State.Defaulted]);
    await expectRevert(respond(late.caseAddr, d), "WrongState", [State.Defaulted]);
  });

  it("evidence: parties only, while heard, a bounded hash, at most 16 per party and round", async () => {
    const [p, d] = [party(1), party(3)];
    const { caseAddr } = await fileCase(c, p, d.address);
    const submit = (who: Actor, hash: string) =>
      who.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "submitEvidence", args: [hash] });
    await expectRevert(submit(p, "bafy"), "WrongState", [State.Summoned]);
    await respond(caseAddr, d);
    await expectRevert(submit(party(6), "bafy"), "OnlyParty");
    await expectRevert(submit(judge(8), "bafy"), "OnlyParty");
    await expectRevert(submit(p, ""), "EvidenceHashInvalid");
    await expectRevert(submit(p, "h".repeat(129)), "EvidenceHashInvalid");
    await submit(p, "h".repeat(128));
    await submit(d, "bafy-defence");
    await assign(caseAddr, panel());
    const evidence = await c.reader.readContract({
      address: caseAddr,
      abi: disputeCaseAbi,
      functionName: "getEvidence",
    });
    expect(evidence[1]?.submitter).toBe(d.address);
    expect(evidence[1]?.hash).toBe("bafy-defence");
    await vote(caseAddr, judge(8), false);
    await vote(caseAddr, judge(9), false);
    await expectRevert(submit(p, "late"), "WrongState", [State.Resolved]);
  });

  // Audit (issue #26, hole 2): one cap of 64 shared by both parties let the plaintiff send 64
  // submitEvidence right after respond() and silence the defendant in both rounds.
  it("one party cannot fill every evidence slot: 64 plaintiff submissions, then the defendant still submits, in both rounds", async () => {
    const [p, d] = [party(2), party(4)];
    const { caseAddr } = await fileCase(c, p, d.address);
    const submit = (who: Actor, hash: string) =>
      who.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "submitEvidence", args: [hash] });
    await respond(caseAddr, d);
    for (let i = 0; i < 64; i++) {
      if (i < 16) await submit(p, `bafy-p-${i}`);
      else await expectRevert(submit(p, `bafy-p-${i}`), "TooMuchEvidence", [16n]);
    }
    for (let i = 0; i < 16; i++) await submit(d, `bafy-d-${i}`);
    await expectRevert(submit(d, "bafy-d-16"), "TooMuchEvidence", [16n]);
    expect((await readCase(c, caseAddr)).evidenceCount).toBe(32n);
    // Round 2 (the defendant appeals): both parties get their own slots again.
    await assign(caseAddr, panel());
    await vote(caseAddr, judge(8), true);
    await vote(caseAddr, judge(10), true);
    await appeal(caseAddr, d);
    await assign(caseAddr, appealPanel());
    await submit(d, "bafy-d-appeal");
    await submit(p, "bafy-p-appeal");
    expect((await readCase(c, caseAddr)).evidenceCount).toBe(34n);
  });

  it("seating: only through the factory, when awaiting a panel, the right size, no duplicates", async () => {
    const [p, d] = [party(2), party(4)];
    const { caseAddr } = await fileCase(c, p, d.address);
    await expectRevert(assign(caseAddr, panel()), "WrongState", [State.Summoned]);
    await respond(caseAddr, d);
    await expectRevert(assign(caseAddr, panel().slice(0, 2)), "WrongPanelSize", [3n, 2n]);
    await expectRevert(assign(caseAddr, [...panel(), judge(11)]), "WrongPanelSize", [3n, 4n]);
    await expectRevert(assign(caseAddr, [judge(8), judge(9), judge(8)]), "DuplicateJudge", [judge(8).address]);
    await expectRevert(assign(caseAddr, [judge(8), judge(9), party(6)]), "JudgeNotEligible", [party(6).address]);
    await expectRevert(
      party(5).write({
        address: caseAddr,
        abi: disputeCaseAbi,
        functionName: "setJudges",
        args: [panel().map((j) => j.address)],
      }),
      "OnlyFactory",
    );
    await expectRevert(
      party(5).write({ address: caseAddr, abi: disputeCaseAbi, functionName: "drawJudges" }),
      "OnlyFactory",
    );
    await assign(caseAddr, panel());
    await expectRevert(assign(caseAddr, appealPanel().slice(0, 3)), "WrongState", [State.Deliberating]);
    await expectRevert(drawRandom(caseAddr), "WrongState", [State.Deliberating]);

    // An answered case whose panel is not seated in time can only be dismissed.
    const { caseAddr: slow } = await fileCase(c, p, d.address);
    await respond(slow, d);
    const { deliberationDeadline } = await readCase(c, slow);
    await advance(c, P.deliberationPeriod + 1n);
    await expectRevert(assign(slow, panel()), "DeliberationClosed", [deliberationDeadline]);
    await expectRevert(drawRandom(slow), "DeliberationClosed", [deliberationDeadline]);
    await resolveAfterDeadline(slow, p);
  });

  it("voting: assigned judges only, once each, while deliberating, before the deadline", async () => {
    const [p, d] = [party(5), party(6)];
    const { caseAddr } = await fileCase(c, p, d.address);
    await respond(caseAddr, d);
    await expectRevert(vote(caseAddr, judge(8), true), "WrongState", [State.Active]);
    await assign(caseAddr, panel());
    await expectRevert(vote(caseAddr, party(1), true), "NotAssignedJudge", [party(1).address]);
    await expectRevert(vote(caseAddr, judge(11), true), "NotAssignedJudge", [judge(11).address]);
    // This court votes in public: the commit-reveal calls are refused, even to the panel.
    await expectRevert(commitVote(caseAddr, judge(8), true), "VotesArePublic");
    await expectRevert(revealVote(caseAddr, judge(8), true), "VotesArePublic");
    await vote(caseAddr, judge(8), true);
    await expectRevert(vote(caseAddr, judge(8), false), "AlreadyVoted", [judge(8).address]);
    const { deliberationDeadline } = await readCase(c, caseAddr);
    await expectRevert(resolveAfterDeadline(caseAddr, p), "DeadlineNotReached", [deliberationDeadline]);
    await advance(c, P.deliberationPeriod + 1n);
    await expectRevert(vote(caseAddr, judge(9), true), "DeliberationClosed", [deliberationDeadline]);
    await resolveAfterDeadline(caseAddr, p);
    await expectRevert(resolveAfterDeadline(caseAddr, p), "WrongState", [State.Dismissed]);
    await expectRevert(vote(caseAddr, judge(9), true), "WrongState", [State.Dismissed]);

    const { caseAddr: summoned } = await fileCase(c, p, d.address);
    await expectRevert(resolveAfterDeadline(summoned, p), "WrongState", [State.Summoned]);
  });

  it("appeal and settle: the loser, once, with the exact bond, inside the window; settle only after it", async () => {
    const [p, d] = [party(1), party(2)];
    const caseAddr = await deliberating(c, p, d, panel());
    await expectRevert(settle(caseAddr, p), "WrongState", [State.Deliberating]);
    await expectRevert(appeal(caseAddr, d), "WrongState", [State.Deliberating]);
    await vote(caseAddr, judge(8), true);
    await vote(caseAddr, judge(10), true);
    await expectRevert(vote(caseAddr, judge(9), false), "WrongState", [State.Resolved]);
    await expectRevert(resolveAfterDeadline(caseAddr, p), "WrongState", [State.Resolved]);
    const { appealDeadline } = await readCase(c, caseAddr);
    await expectRevert(settle(caseAddr, p), "AppealWindowStillOpen", [appealDeadline]);
    await expectRevert(appeal(caseAddr, p), "OnlyLosingParty");
    await expectRevert(appeal(caseAddr, party(6)), "OnlyLosingParty");
    await expectRevert(appeal(caseAddr, d, P.appealBond - 1n), "WrongAppealBond", [P.appealBond, P.appealBond - 1n]);
    await expectRevert(appeal(caseAddr, d, P.appealBond + 1n), "WrongAppealBond", [P.appealBond, P.appealBond + 1n]);
    await expectRevert(appeal(caseAddr, d, 0n), "WrongAppealBond", [P.appealBond, 0n]);
    await appeal(caseAddr, d);
    await expectRevert(appeal(caseAddr, d), "WrongState", [State.Appealed]);
    await expectRevert(settle(caseAddr, p), "WrongState", [State.Appealed]);
    await expectRevert(assign(caseAddr, panel()), "WrongPanelSize", [5n, 3n]);
    await assign(caseAddr, appealPanel());
    for (const j of appealPanel().slice(0, 3)) await vote(caseAddr, j, false);
    const v = await readCase(c, caseAddr);
    expect([v.state, v.settled]).toEqual([State.Resolved, true]);
    // The appeal verdict is final: the new loser cannot appeal, and there is nothing to settle.
    await expectRevert(appeal(caseAddr, p), "AppealAlreadyUsed");
    await expectRevert(appeal(caseAddr, d), "AppealAlreadyUsed");
    await expectRevert(settle(caseAddr, p), "WrongState", [State.Resolved]);
  });

  it("appeal after the window is refused; a settled case cannot be settled or appealed again", async () => {
    const [p, d] = [party(3), party(5)];
    const caseAddr = await deliberating(c, p, d, panel());
    await vote(caseAddr, judge(9), false);
    await vote(caseAddr, judge(10), false);
    const { appealDeadline } = await readCase(c, caseAddr);
    await advance(c, P.appealWindow + 1n);
    await expectRevert(appeal(caseAddr, p), "AppealWindowClosed", [appealDeadline]);
    await settle(caseAddr, d);
    await expectRevert(settle(caseAddr, d), "WrongState", [State.Resolved]);
    await expectRevert(appeal(caseAddr, p), "AppealWindowClosed", [appealDeadline]);
  });

  it("withdraw: nothing owed is refused", async () => {
    const { caseAddr } = await fileCase(c, party(4), party(6).address);
    await expectRevert(
      party(4).write({ address: caseAddr, abi: disputeCaseAbi, functionName: "withdraw" }),
      "NothingToWithdraw",
    );
  });
});
