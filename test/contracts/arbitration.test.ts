/**
 * docket as a Kleros-style arbitrator (DocketArbitrator): a dispute is a case like any other whose
 * parties stake nothing; its cost pays the filing fee, the judges and the court; the ruling reaches
 * the arbitrable once, when the case is final, and a failing callback never blocks the case.
 */
import { type Address, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as arbKit from "./arbitrationHelpers.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;
let arbitrable: Address;
const plaintiff = () => kit.actor(c, 1);
const defendant = () => kit.actor(c, 2);
const keeper = () => kit.actor(c, 5);
const judges = () => arbKit.eightJudges(c);
const panel = () => judges().slice(0, 3);
/** The cost of a dispute in the General court with its own panel (3): the filing fee and three minimum stakes. */
const COST = kit.P.filingFee + 3n * kit.P.minPartyStake;

const calls = () =>
  c.reader.readContract({ address: arbitrable, abi: arbKit.testArbitrableAbi, functionName: "calls" });
const lastRuling = () =>
  c.reader.readContract({ address: arbitrable, abi: arbKit.testArbitrableAbi, functionName: "lastRuling" });
const setFailing = (failing: boolean) =>
  keeper().write({ address: arbitrable, abi: arbKit.testArbitrableAbi, functionName: "setFailing", args: [failing] });
const open = () =>
  arbKit.openDispute(
    c,
    arbitrable,
    keeper(),
    arbKit.extraData({ plaintiff: plaintiff().address, defendant: defendant().address }),
  );
const executeRuling = (id: bigint) =>
  keeper().write({
    address: arbKit.arbitrationOf(c).arbitrator,
    abi: arbKit.docketArbitratorAbi,
    functionName: "executeRuling",
    args: [id],
  });
const dueRulings = () =>
  c.reader.readContract({
    address: arbKit.arbitrationOf(c).arbitrator,
    abi: arbKit.docketArbitratorAbi,
    functionName: "getDueRulings",
    args: [0n, 100n],
  });

beforeAll(async () => {
  c = await kit.bootCourt(kit.P);
  await kit.stakeJudges(c, judges());
  arbitrable = await arbKit.deployTestArbitrable(c, keeper());
}, 120_000);

afterAll(async () => {
  await c?.stop();
});

describe("arbitrator: cost and filing", () => {
  it("arbitrationCost is the filing fee plus one minimum party stake per first-round judge, short or full extraData", async () => {
    expect(await arbKit.arbitrationCost(c)).toBe(COST);
    expect(await arbKit.arbitrationCost(c, arbKit.shortExtraData(1n, 3n))).toBe(COST);
    // Below the court's panel means the court's panel; an even panel is raised to the next odd one.
    expect(await arbKit.arbitrationCost(c, arbKit.shortExtraData(0n, 1n))).toBe(COST);
    expect(await arbKit.arbitrationCost(c, arbKit.shortExtraData(0n, 4n))).toBe(
      kit.P.filingFee + 5n * kit.P.minPartyStake,
    );
    const full = arbKit.extraData({ jurors: 5n, plaintiff: plaintiff().address, defendant: defendant().address });
    expect(await arbKit.arbitrationCost(c, full)).toBe(kit.P.filingFee + 5n * kit.P.minPartyStake);
    await kit.expectRevert(arbKit.arbitrationCost(c, arbKit.shortExtraData(0n, 33n)), "PanelTooLarge", [31n, 33n]);
  });

  it("createDispute refuses other than two choices, a wrong payment, an unknown dispute kit and a short extraData", async () => {
    const data = arbKit.extraData({ plaintiff: plaintiff().address, defendant: defendant().address });
    const arb = arbKit.arbitrationOf(c).arbitrator;
    const send = (choices: bigint, d: `0x${string}`, value: bigint) =>
      keeper().write({
        address: arb,
        abi: arbKit.docketArbitratorAbi,
        functionName: "createDispute",
        args: [choices, d],
        value,
      });
    await kit.expectRevert(send(3n, data, COST), "WrongChoices", [2n, 3n]);
    await kit.expectRevert(send(2n, data, COST - 1n), "WrongArbitrationCost", [COST, COST - 1n]);
    await kit.expectRevert(send(2n, data, COST + 1n), "WrongArbitrationCost", [COST, COST + 1n]);
    await kit.expectRevert(
      send(2n, arbKit.extraData({ kit: 2n, plaintiff: plaintiff().address, defendant: defendant().address }), COST),
      "UnsupportedDisputeKit",
      [2n],
    );
    await kit.expectRevert(send(2n, arbKit.shortExtraData(0n, 3n), COST), "ExtraDataInvalid");
    await kit.expectRevert(
      send(2n, arbKit.extraData({ plaintiff: plaintiff().address, defendant: plaintiff().address }), COST),
      "InvalidDefendant",
    );
  });

  it("a dispute is a case in the named court whose parties stake nothing; the case shows its arbitrable and dispute id", async () => {
    const feeRecipientBefore = await kit.balance(c, c.owner.address);
    const { disputeId, caseAddr } = await open();
    expect(await kit.balance(c, c.owner.address)).toBe(feeRecipientBefore + kit.P.filingFee);
    const v = await kit.readCase(c, caseAddr);
    expect(v.plaintiff).toBe(plaintiff().address);
    expect(v.defendant).toBe(defendant().address);
    expect(v.plaintiffStake).toBe(0n);
    expect(v.state).toBe(kit.State.Summoned);
    expect(v.courtId).toBe(1n);
    expect(await kit.balance(c, caseAddr)).toBe(COST - kit.P.filingFee);
    const [arbitrated, a] = await c.reader.readContract({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "getCaseArbitration",
      args: [caseAddr],
    });
    expect(arbitrated).toBe(true);
    expect(a).toEqual({ arbitrator: arbKit.arbitrationOf(c).arbitrator, arbitrable, disputeId });
    const d = await arbKit.readDispute(c, disputeId);
    expect(d).toMatchObject({ arbitrable, caseAddr, courtId: 1n, panelSize: 3, cost: COST, ruled: false });
    expect(d.status).toBe(arbKit.RulingStatus.Pending);
    // The defendant answers without a stake (the court's minimum is 0 in this case).
    await kit.respond(caseAddr, defendant(), 0n);
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Active);
    const [notArbitrated] = await c.reader.readContract({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "getCaseArbitration",
      args: [c.owner.address],
    });
    expect(notArbitrated).toBe(false);
  });
});

describe("arbitrator: rulings", () => {
  it("only the arbitrator rules: the evaluator's rule, the arbitrator's caseClosed and the factory's fileDispute refuse anyone else", async () => {
    await kit.expectRevert(
      keeper().write({
        address: arbKit.evaluatorOf(c, 1),
        abi: arbKit.courtEvaluatorAbi,
        functionName: "rule",
        args: [0n, 2n],
      }),
      "OnlyArbitrator",
    );
    const { caseAddr } = await open();
    await kit.expectRevert(
      keeper().write({
        address: arbKit.arbitrationOf(c).arbitrator,
        abi: arbKit.docketArbitratorAbi,
        functionName: "caseClosed",
        args: [caseAddr],
      }),
      "OnlyFactory",
    );
    await kit.expectRevert(
      keeper().write({
        address: c.factory,
        abi: kit.caseFactoryAbi,
        functionName: "fileDispute",
        args: [
          {
            courtId: 1n,
            panelSize: 3,
            plaintiff: keeper().address,
            defendant: defendant().address,
            claimDescription: "forged",
            evidenceIpfsHash: "bafkreiforged",
            arbitrable: keeper().address,
            disputeId: 0n,
          },
        ],
        value: COST,
      }),
      "OnlyArbitrator",
    );
    // The test arbitrable itself only takes rulings from the arbitrator.
    await expect(
      keeper().write({ address: arbitrable, abi: arbKit.testArbitrableAbi, functionName: "rule", args: [0n, 1n] }),
    ).rejects.toThrow();
  });

  it("the ruling is delivered once, when the case is final after the appeal window, and pays the judges from the cost", async () => {
    const { disputeId, caseAddr } = await open();
    await kit.respond(caseAddr, defendant(), 0n);
    await kit.seat(c, caseAddr, panel());
    const rewardsBefore = await Promise.all(panel().map(async (j) => (await kit.readJudge(c, j.address)).rewards));
    const treasuryBefore = (await kit.readOverview(c)).treasury;
    const before = await calls();
    // Two of three decide (the third is released unscored).
    for (const j of panel().slice(0, 2)) await kit.vote(caseAddr, j, false);
    // Decided, but open to appeal: nothing delivered yet.
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Resolved);
    expect(await calls()).toBe(before);
    expect((await arbKit.readDispute(c, disputeId)).ruled).toBe(false);
    await kit.advance(c, kit.P.appealWindow + 1n);
    const r = await kit.settle(caseAddr, keeper());
    const ruled = parseEventLogs({ abi: arbKit.docketArbitratorAbi, eventName: "Ruling", logs: r.logs });
    expect(ruled.map((l) => [l.args.disputeID, l.args.ruling])).toEqual([[disputeId, 2n]]);
    expect(
      parseEventLogs({ abi: arbKit.docketArbitratorAbi, eventName: "RulingDelivered", logs: r.logs }),
    ).toHaveLength(1);
    expect(await calls()).toBe(before + 1n);
    expect(await lastRuling()).toBe(2n);
    const d = await arbKit.readDispute(c, disputeId);
    expect([d.ruled, d.ruling, d.status]).toEqual([true, 2, arbKit.RulingStatus.Delivered]);
    const [ruling] = await c.reader.readContract({
      address: arbKit.arbitrationOf(c).arbitrator,
      abi: arbKit.docketArbitratorAbi,
      functionName: "currentRuling",
      args: [disputeId],
    });
    expect(ruling).toBe(2n);
    // Delivered once: nothing is due, a retry is refused.
    await kit.expectRevert(executeRuling(disputeId), "RulingNotDue", [disputeId, arbKit.RulingStatus.Delivered]);
    expect(await calls()).toBe(before + 1n);
    // The cost beyond the filing fee: judgeRewardBps of it to the two judges who voted with the outcome, the rest to the treasury.
    const fee = COST - kit.P.filingFee;
    const each = (fee * BigInt(kit.P.judgeRewardBps)) / 10_000n / 2n;
    const rewardsAfter = await Promise.all(panel().map(async (j) => (await kit.readJudge(c, j.address)).rewards));
    expect(rewardsAfter.map((x, i) => x - (rewardsBefore[i] as bigint))).toEqual([each, each, 0n]);
    expect((await kit.readOverview(c)).treasury - treasuryBefore).toBe(fee - 2n * each);
    expect(await kit.balance(c, caseAddr)).toBe(0n);
    // Nobody's stake: nothing paid to either party.
    const v = await kit.readCase(c, caseAddr);
    expect([v.plaintiffStake, v.defendantStake, v.outcome]).toEqual([0n, 0n, kit.Outcome.DefendantWon]);
    await kit.expectRegistryBalanced(c);
  });

  it("after an appeal the ruling comes with the appeal's verdict, once", async () => {
    const { disputeId, caseAddr } = await open();
    await kit.respond(caseAddr, defendant(), 0n);
    await kit.seat(c, caseAddr, panel());
    const before = await calls();
    for (const j of panel().slice(0, 2)) await kit.vote(caseAddr, j, true);
    expect(await calls()).toBe(before);
    await kit.appeal(caseAddr, defendant(), kit.P.appealBond);
    await kit.seat(c, caseAddr, judges().slice(3, 8));
    for (const j of judges().slice(3, 6)) await kit.vote(caseAddr, j, false);
    expect((await kit.readCase(c, caseAddr)).settled).toBe(true);
    expect(await calls()).toBe(before + 1n);
    expect(await lastRuling()).toBe(2n);
    expect((await arbKit.readDispute(c, disputeId)).status).toBe(arbKit.RulingStatus.Delivered);
  });

  it("a failing callback does not block the case; the ruling stays due and anyone retries it with executeRuling", async () => {
    await setFailing(true);
    const { disputeId, caseAddr } = await open();
    const before = await calls();
    await kit.advance(c, kit.P.responseWindow + 1n);
    // The defendant never answered: the plaintiff wins by default, the case ends regardless of the callback.
    const r = await kit.triggerDefault(caseAddr, keeper());
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Defaulted);
    expect(parseEventLogs({ abi: arbKit.docketArbitratorAbi, eventName: "RulingFailed", logs: r.logs })).toHaveLength(
      1,
    );
    expect((await arbKit.readDispute(c, disputeId)).status).toBe(arbKit.RulingStatus.Failed);
    expect((await dueRulings())[1].map((d) => d.id)).toEqual([disputeId]);
    expect(await calls()).toBe(before);
    // A retry while it still fails: recorded again, still due.
    const again = await executeRuling(disputeId);
    expect(
      parseEventLogs({ abi: arbKit.docketArbitratorAbi, eventName: "RulingFailed", logs: again.logs }),
    ).toHaveLength(1);
    expect((await dueRulings())[0]).toBe(1n);
    await setFailing(false);
    const ok = await executeRuling(disputeId);
    expect(
      parseEventLogs({ abi: arbKit.docketArbitratorAbi, eventName: "RulingDelivered", logs: ok.logs }),
    ).toHaveLength(1);
    expect(await calls()).toBe(before + 1n);
    expect(await lastRuling()).toBe(1n);
    expect((await dueRulings())[0]).toBe(0n);
    await kit.expectRevert(executeRuling(disputeId), "RulingNotDue", [disputeId, arbKit.RulingStatus.Delivered]);
    // No verdict by judges: the cost beyond the filing fee went to the treasury, the case holds nothing.
    expect(await kit.balance(c, caseAddr)).toBe(0n);
    await kit.expectRegistryBalanced(c);
  });

  it("a dismissal (no verdict by the deadline) rules 0 and the court keeps the cost", async () => {
    const { disputeId, caseAddr } = await open();
    await kit.respond(caseAddr, defendant(), 0n);
    await kit.seat(c, caseAddr, panel());
    const treasuryBefore = (await kit.readOverview(c)).treasury;
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, keeper());
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Dismissed);
    expect(await lastRuling()).toBe(0n);
    const d = await arbKit.readDispute(c, disputeId);
    expect([d.ruled, d.ruling, d.status]).toEqual([true, 0, arbKit.RulingStatus.Delivered]);
    // The cost and the no-show judges' slashes reach the treasury; the case holds nothing.
    expect((await kit.readOverview(c)).treasury - treasuryBefore).toBeGreaterThanOrEqual(COST - kit.P.filingFee);
    expect(await kit.balance(c, caseAddr)).toBe(0n);
    await kit.expectRegistryBalanced(c);
  });

  it("a stake-free case reads like any other through the registry and factory views", async () => {
    const { caseAddr } = await open();
    const status = await c.reader.readContract({
      address: caseAddr,
      abi: kit.disputeCaseAbi,
      functionName: "getStatus",
    });
    expect(status.plaintiff).toBe(plaintiff().address);
    const involved = await c.reader.readContract({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "involvedCount",
      args: [plaintiff().address],
    });
    expect(involved).toBeGreaterThan(0n);
    const fee = await c.reader.readContract({
      address: caseAddr,
      abi: kit.disputeCaseAbi,
      functionName: "arbitrationFee",
    });
    expect(fee).toBe(COST - kit.P.filingFee);
  });
});
