/**
 * Payouts to a recipient that refuses ETH: the case must not be blocked; the money is kept in
 * `owed` and withdrawn later. The refusing party is a tiny test-only contract compiled here.
 */
import { type Address, encodeFunctionData, getAddress, type Hex, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";
import { type Compiled, compileRefuser } from "./refuser.js";

let c: kit.CourtDeployment;
let rejecting: Compiled;

const { party, judge } = kit.courtOfFile(async (court) => {
  rejecting = compileRefuser();
  c = court;
  await kit.stakeJudges(c, c.actors.slice(7, 15));
});

/** A deployed RejectingParty, driven by `operator`, that refuses ETH until told otherwise. */
class Refuser {
  private constructor(
    readonly address: Address,
    private operator: Actor,
  ) {}

  static async deploy(operator: Actor): Promise<Refuser> {
    const hash = await operator.wallet.deployContract({ abi: rejecting.abi, bytecode: rejecting.bytecode, args: [] });
    const r = await operator.mined(hash);
    return new Refuser(getAddress(r.contractAddress as Address), operator);
  }

  /** Calls `target` as this contract, forwarding `value`. */
  exec(target: Address, data: Hex, value = 0n) {
    return this.operator.write({
      address: this.address,
      abi: rejecting.abi,
      functionName: "exec",
      args: [target, data],
      value,
    });
  }

  setAccepting(on: boolean) {
    return this.operator.write({ address: this.address, abi: rejecting.abi, functionName: "setAccepting", args: [on] });
  }
}

const call = {
  payFilingFee: (ref: Hex) =>
    encodeFunctionData({ abi: kit.caseFactoryAbi, functionName: "payFilingFee", args: [ref] }),
  fileCase: (defendant: Address, ref: Hex) =>
    encodeFunctionData({
      abi: kit.caseFactoryAbi,
      functionName: "fileCase",
      args: [0n, defendant, "Refused delivery", "bafy-refuser", ref],
    }),
  respond: () => encodeFunctionData({ abi: kit.disputeCaseAbi, functionName: "respond" }),
  withdraw: () => encodeFunctionData({ abi: kit.disputeCaseAbi, functionName: "withdraw" }),
  stake: () => encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "stakeAsJudge", args: [0n] }),
  unstake: () => encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "unstake" }),
};

function owed(caseAddr: Address, who: Address): Promise<bigint> {
  return c.reader.readContract({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "owed", args: [who] });
}

async function fileAsRefuser(r: Refuser, defendant: Address, stake: bigint): Promise<Address> {
  // The contract pays its own filing fee (refusing ETH does not stop it from sending some).
  const ref = kit.freshRef();
  await r.exec(c.factory, call.payFilingFee(ref), kit.P.filingFee);
  const receipt = await r.exec(c.factory, call.fileCase(defendant, ref), stake);
  const [ev] = parseEventLogs({ abi: kit.caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
  expect(ev?.args.plaintiff).toBe(r.address);
  return ev?.args.caseAddr as Address;
}

describe("deferred payments", () => {
  it("a winning plaintiff that refuses ETH is owed its payout; settle still completes; it withdraws later", async () => {
    const r = await Refuser.deploy(party(1));
    const pStake = kit.P.minPartyStake + 101n;
    const dStake = kit.P.minPartyStake + 7n;
    const caseAddr = await fileAsRefuser(r, party(2).address, pStake);
    await kit.respond(caseAddr, party(2), dStake);
    await kit.seat(c, caseAddr, [judge(0), judge(1), judge(2)]);
    await kit.vote(caseAddr, judge(0), true);
    await kit.vote(caseAddr, judge(1), true);
    await kit.advance(c, kit.P.appealWindow + 1n);
    const settled = await kit.settle(caseAddr, party(3));

    const pot = pStake + dStake;
    const payout = pot - (pot * BigInt(kit.P.courtFeeBps)) / 10_000n;
    const deferred = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "PaymentDeferred", logs: settled.logs });
    expect(deferred.map((e) => e.args)).toEqual([{ to: r.address, amount: payout }]);
    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.settled]).toEqual([kit.State.Resolved, true]);
    expect(await owed(caseAddr, r.address)).toBe(payout);
    expect(await kit.balance(c, caseAddr)).toBe(payout);
    expect(await kit.balance(c, r.address)).toBe(0n);
    await kit.expectRegistryBalanced(c);

    // Still refusing: the withdrawal fails and nothing is lost.
    await kit.expectRevert(r.exec(caseAddr, call.withdraw()), "Error", ["DisputeCase: withdrawal transfer failed"]);
    expect(await owed(caseAddr, r.address)).toBe(payout);

    await r.setAccepting(true);
    const w = await r.exec(caseAddr, call.withdraw());
    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Withdrawn", logs: w.logs });
    expect(ev?.args).toEqual({ to: r.address, amount: payout });
    expect(await kit.balance(c, r.address)).toBe(payout);
    expect(await owed(caseAddr, r.address)).toBe(0n);
    expect(await kit.balance(c, caseAddr)).toBe(0n);
    await kit.expectRevert(r.exec(caseAddr, call.withdraw()), "NothingToWithdraw");
  });

  it("dismissal with a refusing defendant: its stake is owed, the plaintiff is still paid", async () => {
    const r = await Refuser.deploy(party(4));
    const p = party(3);
    const dStake = kit.P.minPartyStake * 2n + 3n;
    const { caseAddr } = await kit.fileCase(c, p, r.address);
    // The plaintiff sends nothing else: the dismissal gives back exactly what it staked.
    const refunded = (await kit.balance(c, p.address)) + kit.P.minPartyStake;
    await r.exec(caseAddr, call.respond(), dStake);
    await kit.seat(c, caseAddr, [judge(3), judge(4), judge(5)]);
    await kit.vote(caseAddr, judge(3), true);
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    const dismissed = await kit.resolveAfterDeadline(caseAddr, party(5));

    const deferred = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "PaymentDeferred", logs: dismissed.logs });
    expect(deferred.map((e) => e.args)).toEqual([{ to: r.address, amount: dStake }]);
    expect(await kit.balance(c, p.address)).toBe(refunded);
    expect(await owed(caseAddr, r.address)).toBe(dStake);
    expect(await kit.balance(c, caseAddr)).toBe(dStake);
    await r.setAccepting(true);
    await r.exec(caseAddr, call.withdraw());
    expect(await kit.balance(c, r.address)).toBe(dStake);
    expect(await kit.balance(c, caseAddr)).toBe(0n);
  });

  it("default with a refusing plaintiff: the refund is owed", async () => {
    const r = await Refuser.deploy(party(6));
    const caseAddr = await fileAsRefuser(r, party(1).address, kit.P.minPartyStake);
    await kit.advance(c, kit.P.responseWindow + 1n);
    await kit.triggerDefault(caseAddr, party(1));
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Defaulted);
    expect(await owed(caseAddr, r.address)).toBe(kit.P.minPartyStake);
    expect(await kit.balance(c, caseAddr)).toBe(kit.P.minPartyStake);
  });

  it("the registry refuses to lose money to a recipient that rejects it", async () => {
    const r = await Refuser.deploy(party(2));
    await r.exec(c.registry, call.stake(), kit.P.minJudgeStake);
    await kit.expectRevert(r.exec(c.registry, call.unstake()), "TransferFailed");
    const treasury = await c.reader.readContract({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "treasury",
    });
    expect(treasury).toBeGreaterThan(0n);
    await kit.expectRevert(
      c.owner.write({
        address: c.registry,
        abi: kit.courtRegistryAbi,
        functionName: "withdrawTreasury",
        args: [r.address, 1n],
      }),
      "TransferFailed",
    );
    await r.setAccepting(true);
    await r.exec(c.registry, call.unstake());
    expect(await kit.balance(c, r.address)).toBe(kit.P.minJudgeStake);
    await kit.expectRegistryBalanced(c);
  });
});
