/**
 * Issue #31, item 2 (the court side): a court that gives no verdict. (a) A judge counted in an armed
 * draw cannot leave that court before the draw is executed (or the case ends without a panel), so a
 * party's idle sybil judge cannot shrink the pool under the panel; (b) the arbitrator refuses a
 * dispute whose court cannot seat a panel from judges beyond the parties, before it takes the fee.
 */
import { type Address, type Hex, parseEther, parseEventLogs, type TransactionReceipt } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { type CourtParams, courtConfig } from "../../src/deploy/terms.js";
import type { Actor } from "../../src/devnet/actor.js";
import { wrapChainError } from "../../src/errors/chain.js";
import { errorStatus } from "../../src/errors/errors.js";
import * as arbKit from "./arbitrationHelpers.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;

kit.courtOfFile(async (court) => {
  c = court;
});

/** A court of its own below the General court: a panel of 3, appeals heard in it too. */
const params: CourtParams = { ...kit.P, minJudgeStake: parseEther("0.2"), jumpPanelSize: 0 };

async function createCourt(name: string): Promise<bigint> {
  const r = await c.owner.write({
    address: c.registry,
    abi: kit.courtRegistryAbi,
    functionName: "createCourt",
    args: [1n, name, `bafkrei${name.toLowerCase().replace(/ /g, "")}`, courtConfig(params)],
  });
  const [created] = parseEventLogs({ abi: kit.courtRegistryAbi, eventName: "CourtCreated", logs: r.logs });
  if (!created) throw new Error("createCourt emitted no CourtCreated");
  return created.args.courtId;
}

async function freshActors(n: number): Promise<Actor[]> {
  const out: Actor[] = [];
  for (let i = 0; i < n; i++) {
    const account = privateKeyToAccount(generatePrivateKey() as Hex);
    await kit.rpc(c, "anvil_setBalance", [account.address, `0x${parseEther("10").toString(16)}`]);
    out.push(kit.actorFor(c, account));
  }
  return out;
}

const stakeIn = (who: Actor, court: bigint) =>
  who.write({
    address: c.registry,
    abi: kit.courtRegistryAbi,
    functionName: "stakeAsJudge",
    args: [court],
    value: params.minJudgeStake,
  });
const unstakeFrom = (who: Actor, court: bigint) =>
  who.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstakeFrom", args: [court] });
const unstakeAll = (who: Actor) =>
  who.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstake" });

describe("issue #31 item 2a: a judge counted in an armed draw stays until the draw is executed", () => {
  it("the defendant's sybil judge cannot leave between the answer and the draw; the draw seats the panel", async () => {
    // Exactly enough judges: two honest ones and the defendant's idle sybil, for a panel of 3.
    const court = await createCourt("Sybil draw");
    const [honest1, honest2, sybil, plaintiff, defendant] = (await freshActors(5)) as [
      Actor,
      Actor,
      Actor,
      Actor,
      Actor,
    ];
    for (const j of [honest1, honest2, sybil]) await stakeIn(j, court);
    const { caseAddr } = await kit.fileCase(c, plaintiff, defendant.address, { court });
    await kit.respond(caseAddr, defendant); // arms the draw
    // The sybil tries to leave in the next block, by either door; the General court is above its
    // court, so a draw waiting there would hold it too.
    await kit.expectRevert(unstakeFrom(sybil, court), "DrawPendingInCourt", [court]);
    await kit.expectRevert(unstakeAll(sybil), "DrawPendingInCourt", [court]);
    await kit.drawJudges(c, caseAddr, c.owner);
    const v = await kit.readCase(c, caseAddr);
    expect(v.state).toBe(kit.State.Deliberating);
    expect([...v.judges].sort()).toEqual([honest1.address, honest2.address, sybil.address].sort());
    // Seated now: it leaves when the case releases it, as before.
    await kit.expectRevert(unstakeFrom(sybil, court), "JudgeServingOnOpenCase", [1n]);
  });

  it("a judge of a court whose draw has no panel leaves once the case is dismissed at the deadline", async () => {
    const court = await createCourt("Short court");
    const [j1, j2, plaintiff, defendant] = (await freshActors(4)) as [Actor, Actor, Actor, Actor];
    for (const j of [j1, j2]) await stakeIn(j, court);
    const { caseAddr } = await kit.fileCase(c, plaintiff, defendant.address, { court });
    await kit.respond(caseAddr, defendant);
    await kit.expectRevert(kit.drawJudges(c, caseAddr, c.owner), "NotEnoughJudges", [2n, 3n]);
    await kit.expectRevert(unstakeFrom(j1, court), "DrawPendingInCourt", [court]);
    await kit.advance(c, params.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Dismissed);
    await unstakeFrom(j1, court);
    await unstakeAll(j2);
  });
});

describe("issue #31 item 2b: the arbitrator refuses a court that cannot seat the panel", () => {
  it("a dispute in a court with fewer judges beyond the parties than a panel is refused before the fee is taken", async () => {
    const court = await createCourt("Thin court");
    const [j1, j2, plaintiff, defendant, keeper] = (await freshActors(5)) as [Actor, Actor, Actor, Actor, Actor];
    // Three judges, but one of them is the plaintiff: two beyond the parties, for a panel of 3.
    for (const j of [j1, j2, plaintiff]) await stakeIn(j, court);
    const arbitrable = await arbKit.deployTestArbitrable(c, keeper);
    const data = arbKit.extraData({ court, plaintiff: plaintiff.address, defendant: defendant.address });
    await kit.expectRevert(arbKit.openDispute(c, arbitrable, keeper, data), "CourtCannotSeatPanel", [court, 3n, 2n]);
    // docket's operations answer it as the caller's input against the chain: 422, not 500.
    const wrapped = await arbKit.openDispute(c, arbitrable, keeper, data).then(
      () => null,
      (e: unknown) => wrapChainError(e),
    );
    expect(wrapped?.code).toBe("VALIDATION_ERROR");
    expect(errorStatus.VALIDATION_ERROR).toBe(422);
    expect(wrapped?.details).toMatchObject({ reason: "CourtCannotSeatPanel" });
    // One more judge beyond the parties and the court takes it.
    const [j3] = (await freshActors(1)) as [Actor];
    await stakeIn(j3, court);
    const { caseAddr } = await arbKit.openDispute(c, arbitrable, keeper, data);
    expect((await kit.readCase(c, caseAddr)).plaintiff).toBe(plaintiff.address);
  });
});

describe("issue #31, also found (i): maxDuration is the worst case to the second", () => {
  /** The next transaction lands at exactly `t`. */
  const at = (t: bigint) => kit.rpc(c, "evm_setNextBlockTimestamp", [`0x${t.toString(16)}`]);
  const timeOf = async (r: TransactionReceipt) => (await c.reader.getBlock({ blockNumber: r.blockNumber })).timestamp;

  it("a dispute whose every step comes at its deadline gets its ruling exactly maxDuration after filing", async () => {
    // Public votes: round one decided by the last vote at its deadline, the appeal at the window's
    // last second, the appeal's panel seated at its deadline and never voting, so the appeal lapses
    // a second after its deadline and the first verdict is final then.
    const court = await createCourt("Slow court");
    const pool = await freshActors(8);
    for (const j of pool) await stakeIn(j, court);
    const [plaintiff, defendant, keeper] = (await freshActors(3)) as [Actor, Actor, Actor];
    const actorOf = (a: Address) => pool.find((j) => j.address === a) as Actor;
    const arbitrable = await arbKit.deployTestArbitrable(c, keeper);
    const data = arbKit.extraData({ court, plaintiff: plaintiff.address, defendant: defendant.address });
    const maxDuration = await kit.readView(
      c,
      arbKit.arbitrationOf(c).arbitrator,
      arbKit.docketArbitratorAbi,
      "maxDuration",
      [data],
    );
    const { disputeId, caseAddr } = await arbKit.openDispute(c, arbitrable, keeper, data);
    const filedAt = (await kit.readCase(c, caseAddr)).filedAt;
    await at(filedAt + params.responseWindow);
    await kit.respond(caseAddr, defendant, 0n);
    const drawBy = (await kit.readCase(c, caseAddr)).deliberationDeadline;
    await at(drawBy);
    await kit.drawJudges(c, caseAddr, keeper);
    const round1 = (await kit.readCase(c, caseAddr)).judges;
    await kit.vote(caseAddr, actorOf(round1[0] as Address), true);
    await at((await kit.readCase(c, caseAddr)).deliberationDeadline);
    await kit.vote(caseAddr, actorOf(round1[1] as Address), true);
    await at((await kit.readCase(c, caseAddr)).appealDeadline);
    await kit.appeal(caseAddr, defendant, params.appealBond);
    await at((await kit.readCase(c, caseAddr)).deliberationDeadline);
    await kit.drawJudges(c, caseAddr, keeper);
    const last = (await kit.readCase(c, caseAddr)).deliberationDeadline;
    await kit.expectRevert(
      (async () => {
        await at(last);
        return kit.resolveAfterDeadline(caseAddr, keeper);
      })(),
      "DeadlineNotReached",
      [last],
    );
    await at(last + 1n);
    const r = await kit.resolveAfterDeadline(caseAddr, keeper);
    expect((await arbKit.readDispute(c, disputeId)).ruling).toBe(1);
    expect((await timeOf(r)) - filedAt).toBe(maxDuration);
  });
});

describe("issue #31, also found (ii): a raised minimum stake never leaves the draw short", () => {
  it("the owner raises a court's minimum over 40 judges staked at the old one: the draw still seats its panel", async () => {
    // On c92071b the judges below the new minimum kept their weight in the court's tree while the
    // draw skipped them as ineligible, and after 32 skipped points it reverted NotEnoughJudges.
    const court = await createCourt("Raised minimum");
    const light = await freshActors(40);
    for (const j of light) await stakeIn(j, court);
    const [heavy, plaintiff, defendant] = (await freshActors(3)) as [Actor, Actor, Actor];
    await heavy.write({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "stakeAsJudge",
      args: [court],
      value: params.minJudgeStake * 3n,
    });
    const raised: CourtParams = { ...params, minJudgeStake: params.minJudgeStake * 2n };
    await c.owner.write({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "setCourt",
      args: [court, "Raised minimum", "bafkreiraisedminimum", courtConfig(raised)],
    });
    const { caseAddr } = await kit.fileCase(c, plaintiff, defendant.address, { court });
    await kit.respond(caseAddr, defendant);
    await kit.drawJudges(c, caseAddr, c.owner);
    const v = await kit.readCase(c, caseAddr);
    expect(v.state).toBe(kit.State.Deliberating);
    expect(v.judges).toHaveLength(3);
    // The draw and the tree agree: a judge staked before the raise counts until its stake in the court
    // next changes, and a new stake must reach the new minimum.
    const eligible = (who: Actor) =>
      c.reader.readContract({
        address: c.registry,
        abi: kit.courtRegistryAbi,
        functionName: "isEligibleJudgeIn",
        args: [who.address, court],
      });
    expect(await eligible(light[0] as Actor)).toBe(true);
    const [late] = (await freshActors(1)) as [Actor];
    await kit.expectRevert(stakeIn(late, court), "StakeBelowMinimum", [raised.minJudgeStake, params.minJudgeStake]);
  });
});
