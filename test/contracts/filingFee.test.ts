/**
 * The filing fee is enforced on chain: paid into the factory under a reference the payer picks,
 * forwarded to the fee recipient at once, and required (paid by the caller, unused) by fileCase.
 * Someone who goes to the chain directly cannot file for free, on someone else's payment, or twice
 * on one payment.
 */
import { type Address, getAddress, type Hex, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";
import { compileRefuser, refuserAbi } from "./refuser.js";

let c: kit.CourtDeployment;

const { party } = kit.courtOfFile(async (court) => {
  c = court;
});

function feePayment(ref: Hex, payer: Address) {
  return kit.readView(c, c.factory, kit.caseFactoryAbi, "feePayment", [ref, payer]);
}

/** fileCase sent as is: no fee paid on the caller's behalf. */
function fileRaw(who: Actor, defendant: Address, ref: Hex) {
  const args = [0n, defendant, "Unpaid invoice", "bafy-fee", ref] as const;
  return kit.callAs(who, c.factory, kit.caseFactoryAbi, "fileCase", args, kit.P.minPartyStake);
}

function setFiling(recipient: Address, fee: bigint) {
  return c.owner.write({
    address: c.factory,
    abi: kit.caseFactoryAbi,
    functionName: "setFiling",
    args: [recipient, fee],
  });
}

describe("filing fee", () => {
  it("payFilingFee forwards the fee to the fee recipient at once and records it per reference and payer", async () => {
    const payer = party(1);
    const ref = kit.freshRef();
    const [recipientBefore, payerBefore] = await Promise.all([
      kit.balance(c, c.owner.address),
      kit.balance(c, payer.address),
    ]);
    const r = await kit.payFee(c, payer, ref);
    const [ev] = parseEventLogs({ abi: kit.caseFactoryAbi, eventName: "FilingFeePaid", logs: r.logs });
    expect(ev?.args).toEqual({ payer: payer.address, paymentRef: ref, amount: kit.P.filingFee });
    expect(await kit.balance(c, c.owner.address)).toBe(recipientBefore + kit.P.filingFee);
    expect(await kit.balance(c, payer.address)).toBe(payerBefore - kit.P.filingFee - kit.gasCost(r));
    // The factory keeps nothing.
    expect(await kit.balance(c, c.factory)).toBe(0n);
    expect(await feePayment(ref, payer.address)).toEqual([true, kit.P.filingFee, kit.ZERO]);
    // The record is the payer's: the same reference is unpaid for anyone else.
    expect(await feePayment(ref, party(2).address)).toEqual([false, 0n, kit.ZERO]);

    // Paying more than the fee is allowed; all of it is forwarded and recorded.
    const generous = kit.freshRef();
    const before = await kit.balance(c, c.owner.address);
    await kit.payFee(c, payer, generous, kit.P.filingFee * 3n + 1n);
    expect(await kit.balance(c, c.owner.address)).toBe(before + kit.P.filingFee * 3n + 1n);
    expect(await feePayment(generous, payer.address)).toEqual([true, kit.P.filingFee * 3n + 1n, kit.ZERO]);
  });

  it("payFilingFee refuses a zero reference, less than the fee, and a second payment under one reference", async () => {
    const payer = party(2);
    const ref = kit.freshRef();
    await kit.expectRevert(kit.payFee(c, payer, `0x${"0".repeat(64)}`), "PaymentRefRequired");
    await kit.expectRevert(kit.payFee(c, payer, ref, kit.P.filingFee - 1n), "FilingFeeTooLow", [
      kit.P.filingFee,
      kit.P.filingFee - 1n,
    ]);
    await kit.expectRevert(kit.payFee(c, payer, ref, 0n), "FilingFeeTooLow", [kit.P.filingFee, 0n]);
    expect(await feePayment(ref, payer.address)).toEqual([false, 0n, kit.ZERO]);
    await kit.payFee(c, payer, ref);
    await kit.expectRevert(kit.payFee(c, payer, ref), "FilingFeeAlreadyPaid", [ref]);
    // Another payer may use the same reference for its own payment.
    await kit.payFee(c, party(3), ref);
    expect((await feePayment(ref, party(3).address))[0]).toBe(true);
  });

  it("fileCase takes only a fee the caller paid and has not used: unpaid, someone else's and replays are refused", async () => {
    const [p, other, d] = [party(4), party(5), party(6)];
    // Straight to the chain without paying.
    const unpaid = kit.freshRef();
    await kit.expectRevert(fileRaw(p, d.address, unpaid), "FilingFeeNotPaid", [unpaid, p.address]);

    // Someone else paid under this reference: that does not pay for p.
    const theirs = kit.freshRef();
    await kit.payFee(c, other, theirs);
    await kit.expectRevert(fileRaw(p, d.address, theirs), "FilingFeeNotPaid", [theirs, p.address]);
    expect(await feePayment(theirs, other.address)).toEqual([true, kit.P.filingFee, kit.ZERO]);

    // Its own payment files exactly one case, which the record then names.
    const mine = kit.freshRef();
    await kit.payFee(c, p, mine);
    const { caseAddr } = await kit.fileCase(c, p, d.address, { paymentRef: mine, pay: false });
    expect(await feePayment(mine, p.address)).toEqual([true, kit.P.filingFee, caseAddr]);
    await kit.expectRevert(fileRaw(p, d.address, mine), "PaymentRefUsed", [mine, caseAddr]);
    // Paying again under a used reference is refused too, so the record cannot be reset.
    await kit.expectRevert(kit.payFee(c, p, mine), "FilingFeeAlreadyPaid", [mine]);
    // The one who paid `theirs` can still file with it.
    const { caseAddr: second } = await kit.fileCase(c, other, d.address, { paymentRef: theirs, pay: false });
    expect((await feePayment(theirs, other.address))[2]).toBe(second);
  });

  it("the fee is the one in force when paid: a fee rise applies to later payments only", async () => {
    const p = party(1);
    const early = kit.freshRef();
    await kit.payFee(c, p, early);
    await setFiling(c.owner.address, kit.P.filingFee * 2n);
    try {
      await kit.expectRevert(kit.payFee(c, p, kit.freshRef()), "FilingFeeTooLow", [
        kit.P.filingFee * 2n,
        kit.P.filingFee,
      ]);
      const { caseAddr } = await kit.fileCase(c, p, party(2).address, { paymentRef: early, pay: false });
      expect((await feePayment(early, p.address))[2]).toBe(caseAddr);
      // A zero fee still needs a (zero-value) payment on record before filing.
      await setFiling(c.owner.address, 0n);
      const free = kit.freshRef();
      await kit.expectRevert(fileRaw(p, party(2).address, free), "FilingFeeNotPaid", [free, p.address]);
      await kit.payFee(c, p, free, 0n);
      await kit.fileCase(c, p, party(2).address, { paymentRef: free, pay: false });
    } finally {
      await setFiling(c.owner.address, kit.P.filingFee);
    }
  });

  it("a fee recipient that refuses ETH makes payFilingFee revert, recording nothing; once it accepts, it is paid", async () => {
    const compiled = compileRefuser();
    const operator = party(3);
    const deployed = await operator.mined(
      await operator.wallet.deployContract({ abi: compiled.abi, bytecode: compiled.bytecode, args: [] }),
    );
    const recipient = getAddress(deployed.contractAddress as Address);
    await setFiling(recipient, kit.P.filingFee);
    try {
      const ref = kit.freshRef();
      await kit.expectRevert(kit.payFee(c, party(1), ref), "FeeTransferFailed");
      expect(await feePayment(ref, party(1).address)).toEqual([false, 0n, kit.ZERO]);
      await kit.expectRevert(fileRaw(party(1), party(2).address, ref), "FilingFeeNotPaid", [ref, party(1).address]);
      await operator.write({ address: recipient, abi: refuserAbi, functionName: "setAccepting", args: [true] });
      await kit.payFee(c, party(1), ref);
      expect(await kit.balance(c, recipient)).toBe(kit.P.filingFee);
      expect(await kit.balance(c, c.factory)).toBe(0n);
    } finally {
      await setFiling(c.owner.address, kit.P.filingFee);
    }
  });
});
