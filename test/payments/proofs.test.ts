import { type Address, decodeFunctionData, encodeFunctionData, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import type { ErrorCode } from "../../src/errors/errors.js";
import { decodePaymentResponse, v1ErrorReason } from "../../src/payments/x402.js";
import { type Api, TestDocket } from "../support/index.js";
import * as fees from "./helpers.js";

/**
 * Every way a filing-fee proof can be wrong, each with its own code; plus the input checks done
 * before anyone pays (stake, defendant). Payments are real transactions signed by dev wallets. The
 * test that raises the fee (PAYMENT_INSUFFICIENT) runs last and puts the fee back.
 */
describe("file_case: refused proofs and inputs", () => {
  let t: TestDocket;
  const PLAINTIFF = 15;
  const STRANGER = 16;
  const DEFENDANT = 19;
  let fee: bigint;
  let feeRecipient: Hex;
  let minStake: bigint;

  /**
   * A 402 refusing a proof: the code, the x402 fields to retry with (a fresh payFilingFee on the
   * factory at the current fee), and a failed X-PAYMENT-RESPONSE.
   */
  function expectRefused(r: Api, code: string, currentFee = fee) {
    expect(r.status, JSON.stringify(r.body)).toBe(402);
    expect(r.body.docketError.code).toBe(code);
    // x402 v1's schema: `error` one of v1's error reasons, docket's code in its envelope beside it.
    expect(r.body.error).toBe(v1ErrorReason(code as ErrorCode, r.body.docketError.details));
    expect(r.body.x402Version).toBe(1);
    expect(r.body.accepts[0]).toMatchObject({ maxAmountRequired: currentFee.toString(), payTo: t.chain.factory });
    expect(r.body.accepts[0].extra.unsigned_tx).toMatchObject({ to: t.chain.factory, value: currentFee.toString() });
    expect(decodeFunctionData({ abi: caseFactoryAbi, data: r.body.accepts[0].extra.unsigned_tx.data })).toEqual({
      functionName: "payFilingFee",
      args: [fees.feeRefOf(r)],
    });
    const settlement = decodePaymentResponse(r.headers.get("x-payment-response") as string);
    // The same reason, and the refused payment's own hash (v1's SettleResponseSchema wants a transaction).
    expect(settlement).toMatchObject({ success: false, errorReason: r.body.error });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
  }

  /** Signs an answered fileCase transaction as `signer`; returns the new case from its CaseFiled event. */
  async function signFiling(body: { unsigned_tx: { to: Address; value: string; data: Hex } }, signer: number) {
    const receipt = await t.actor(signer).send(body.unsigned_tx);
    const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
    if (!filed) throw new Error("no CaseFiled");
    return filed.args.caseAddr;
  }

  beforeAll(async () => {
    t = await TestDocket.shared();
    const p = await t.chain.reader.readContract({
      address: t.chain.factory,
      abi: caseFactoryAbi,
      functionName: "getParams",
    });
    fee = p.filingFee;
    feeRecipient = p.feeRecipient;
    minStake = p.terms.minPartyStake;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("missing: 402 PAYMENT_REQUIRED", async () => {
    const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT));
    expect(r.status).toBe(402);
    expect(r.body.docketError.code).toBe("PAYMENT_REQUIRED");
    expect(r.body.accepts).toHaveLength(1);
  });

  it("malformed X-PAYMENT: 400 PAYMENT_MALFORMED for not base64, not JSON, and every wrong shape", async () => {
    const hash = `0x${"ab".repeat(32)}`;
    const good = { x402Version: 1, scheme: "exact", network: "eip155:31337", payload: { txHash: hash } };
    const cases: [string, Record<string, string>, RegExp][] = [
      ["not base64", { "X-PAYMENT": "this is not base64!" }, /not base64/],
      ["empty", { "X-PAYMENT": "" }, /not base64/],
      ["not JSON", { "X-PAYMENT": Buffer.from("hello, world").toString("base64") }, /not JSON/],
      ["a JSON string", fees.xPaymentJson("0xabc"), /payload/],
      ["no payload", fees.xPaymentJson({ ...good, payload: undefined }), /payload/],
      ["bad txHash", fees.xPaymentJson({ ...good, payload: { txHash: "0x1234" } }), /txHash/],
      ["x402Version 2", fees.xPaymentJson({ ...good, x402Version: 2 }), /x402Version/],
      ["other scheme", fees.xPaymentJson({ ...good, scheme: "upto" }), /scheme/],
      ["other network", fees.xPaymentJson({ ...good, network: "base" }), /network "base"/],
    ];
    for (const [what, headers, message] of cases) {
      const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT), headers);
      expect(r.status, what).toBe(400);
      expect(r.body.error.code, what).toBe("PAYMENT_MALFORMED");
      expect(r.body.error.message, what).toMatch(message);
      expect(r.body.error.details.expected, what).toContain("base64");
    }
  });

  it("unknown hash: 402 PAYMENT_NOT_FOUND", async () => {
    const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT), fees.xPayment(`0x${"77".repeat(32)}`));
    expectRefused(r, "PAYMENT_NOT_FOUND");
    expect(r.body.docketError.details).toMatchObject({ found: false, mined: false });
  });

  it("a reverted payment: 402 PAYMENT_FAILED", async () => {
    // The factory takes no plain coin: a transfer to it reverts (gas fixed so the wallet broadcasts it anyway).
    const receipt = await fees.send(t, PLAINTIFF, { to: t.chain.factory, value: fee, gas: 100_000n });
    expect(receipt.status).toBe("reverted");
    const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT), fees.xPayment(receipt.transactionHash));
    expectRefused(r, "PAYMENT_FAILED");
  });

  it("paid by someone else, under their own reference, proven for the plaintiff: 402 PAYMENT_WRONG_PAYER", async () => {
    const ref = fees.testRef("stranger");
    const receipt = await fees.payFee(t, STRANGER, ref, fee);
    expect(receipt.status).toBe("success");
    const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT), fees.xPayment(receipt.transactionHash));
    expectRefused(r, "PAYMENT_WRONG_PAYER");
    expect(r.body.docketError.details).toMatchObject({ expected: t.address(PLAINTIFF), actual: t.address(STRANGER) });
    // The chain agrees: the reference is paid for the stranger only.
    expect((await fees.feePayment(t, ref, t.address(STRANGER))).paid).toBe(true);
    expect((await fees.feePayment(t, ref, t.address(PLAINTIFF))).paid).toBe(false);

    // For its own payer the same proof holds; the filing it answers is theirs to sign.
    const own = fees.filing(t, STRANGER, DEFENDANT);
    const ok = await t.post("/cases", own, fees.xPayment(receipt.transactionHash));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.payment).toMatchObject({ payer: t.address(STRANGER), paymentRef: ref, amount: fee.toString() });
    const c = await signFiling(ok.body, STRANGER);
    const read = await t.get(`/cases/${c}`);
    expect(read.body.case).toMatchObject({ plaintiff: t.address(STRANGER), claimDescription: own.claimDescription });
  });

  it("paid to the wrong address: 402 PAYMENT_WRONG_RECIPIENT", async () => {
    const receipt = await fees.send(t, PLAINTIFF, { to: t.address(17), value: fee });
    const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT), fees.xPayment(receipt.transactionHash));
    expectRefused(r, "PAYMENT_WRONG_RECIPIENT");
    expect(r.body.docketError.details).toMatchObject({ expected: t.chain.factory, actual: t.address(17) });
  });

  it("the old way, a plain transfer of the fee to the fee recipient: 402 PAYMENT_WRONG_RECIPIENT", async () => {
    const receipt = await fees.send(t, PLAINTIFF, { to: feeRecipient, value: fee });
    expect(receipt.status).toBe("success");
    const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT), fees.xPayment(receipt.transactionHash));
    expectRefused(r, "PAYMENT_WRONG_RECIPIENT");
    expect(r.body.docketError.details).toMatchObject({
      txHash: receipt.transactionHash,
      expected: t.chain.factory,
      actual: feeRecipient,
    });
    expect(r.body.docketError.message).toMatch(/payFilingFee/);
  });

  it("a successful call to the factory that pays no fee: 402 PAYMENT_WRONG_RECIPIENT", async () => {
    // getParams sent as a transaction: mined, succeeds, emits nothing.
    const data = encodeFunctionData({ abi: caseFactoryAbi, functionName: "getParams" });
    const receipt = await fees.send(t, PLAINTIFF, { to: t.chain.factory, data });
    expect(receipt.status).toBe("success");
    const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT), fees.xPayment(receipt.transactionHash));
    expectRefused(r, "PAYMENT_WRONG_RECIPIENT");
    expect(r.body.docketError.details).toMatchObject({ expected: t.chain.factory, actual: t.chain.factory });
  });

  it("below the fee: payFilingFee reverts on chain, so the proof is 402 PAYMENT_FAILED; more than the fee is fine", async () => {
    const small = await fees.payFee(t, PLAINTIFF, fees.testRef("small"), fee - 1n, 200_000n);
    expect(small.status).toBe("reverted");
    expect(await fees.revertOf(t, small.transactionHash)).toMatchObject({
      reason: "FilingFeeTooLow",
      args: { required: fee.toString(), sent: (fee - 1n).toString() },
    });
    const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT), fees.xPayment(small.transactionHash));
    expectRefused(r, "PAYMENT_FAILED");
    expect(r.body.docketError.details).toMatchObject({ txHash: small.transactionHash });

    const ref = fees.testRef("big");
    const big = await fees.payFee(t, PLAINTIFF, ref, fee + 1n);
    expect(big.status).toBe("success");
    const body = fees.filing(t, PLAINTIFF, DEFENDANT);
    const ok = await t.post("/cases", body, fees.xPayment(big.transactionHash));
    expect(ok.status).toBe(200);
    expect(ok.body.payment.amount).toBe((fee + 1n).toString());
    expect(ok.body.payment.paymentRef).toBe(ref);
    const c = await signFiling(ok.body, PLAINTIFF);
    expect((await t.get(`/cases/${c}`)).body.case).toMatchObject({ claimDescription: body.claimDescription });
    expect(await fees.feePayment(t, ref, t.address(PLAINTIFF))).toEqual({ paid: true, amount: fee + 1n, usedBy: c });
  });

  it("a stake below the minimum: 422 STAKE_BELOW_MINIMUM, before paying and with a proof", async () => {
    const low = (minStake - 1n).toString();
    const before = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT, { stake: low }));
    expect(before.status).toBe(422);
    expect(before.body.error).toMatchObject({
      code: "STAKE_BELOW_MINIMUM",
      details: { minimum: minStake.toString(), given: low },
    });
    const paid = await fees.payAsTold(t, await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT)), PLAINTIFF);
    const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT, { stake: "0" }), fees.xPayment(paid));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("STAKE_BELOW_MINIMUM");
  });

  it("bad input: 422 VALIDATION_ERROR for suing yourself or a too long claim; 400 for missing or malformed fields", async () => {
    const self = await t.post("/cases", fees.filing(t, PLAINTIFF, PLAINTIFF));
    expect(self.status).toBe(422);
    expect(self.body.error).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(self.body.error.message).toMatch(/defendant/);
    const zero = await t.post("/cases", {
      ...fees.filing(t, PLAINTIFF, DEFENDANT),
      defendant: "0x0000000000000000000000000000000000000000",
    });
    expect(zero.status).toBe(422);
    // 1000 characters, 3000 bytes: the contract counts bytes.
    const wide = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT, { claimDescription: "€".repeat(1000) }));
    expect(wide.status).toBe(422);
    expect(wide.body.error.message).toMatch(/claimDescription/);
    const { plaintiff: _, ...noPlaintiff } = fees.filing(t, PLAINTIFF, DEFENDANT);
    const missing = await t.post("/cases", noPlaintiff);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("MISSING_FIELD");
    const badHash = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT, { payment_tx_hash: "0x12" }));
    expect(badHash.status).toBe(400);
    expect(badHash.body.error.code).toBe("INVALID_INPUT");
  });

  // Last: it changes the court's fee for a while (and puts it back).
  it("the owner raised the fee after the payment: 402 PAYMENT_INSUFFICIENT at the new fee; fine again once restored", async () => {
    const OWNER = 0;
    const p = await t.chain.reader.readContract({
      address: t.chain.factory,
      abi: caseFactoryAbi,
      functionName: "getParams",
    });
    expect(p.owner).toBe(t.address(OWNER));
    const body = fees.filing(t, PLAINTIFF, DEFENDANT);
    const r402 = await t.post("/cases", body);
    const ref = fees.feeRefOf(r402);
    const proof = await fees.payAsTold(t, r402, PLAINTIFF);
    const raised = fee * 2n;
    const setFee = (value: bigint) =>
      t.actor(OWNER).write({
        address: t.chain.factory,
        abi: caseFactoryAbi,
        functionName: "setFiling",
        args: [feeRecipient, value],
      });
    await setFee(raised);
    try {
      const r = await t.post("/cases", body, fees.xPayment(proof));
      expectRefused(r, "PAYMENT_INSUFFICIENT", raised);
      expect(r.body.docketError.details).toMatchObject({
        txHash: proof,
        required: raised.toString(),
        paid: fee.toString(),
      });
      // The record itself is untouched: paid, at the old fee, unused.
      expect(await fees.feePayment(t, ref, t.address(PLAINTIFF))).toMatchObject({ paid: true, amount: fee });
      // The chain itself is laxer: fileCase checks that the reference was paid, not at which fee, so the
      // plaintiff could still file with it directly (simulated here, not sent). docket's check is its own.
      const direct = await t.chain.reader.call({
        account: t.address(PLAINTIFF),
        to: t.chain.factory,
        value: p.terms.minPartyStake,
        data: encodeFunctionData({
          abi: caseFactoryAbi,
          functionName: "fileCase",
          args: [0n, body.defendant, body.claimDescription, body.evidenceIpfsHash, ref],
        }),
      });
      expect(direct.data).toMatch(/^0x[0-9a-f]{64}$/);
      // The refusal's requirements are the way on: pay them as told (at the new fee) and file.
      expect(fees.feeRefOf(r)).not.toBe(ref);
      const again = await fees.payAsTold(t, r, PLAINTIFF);
      const ok = await t.post("/cases", body, fees.xPayment(again));
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.payment).toMatchObject({ amount: raised.toString(), paymentRef: fees.feeRefOf(r) });
      const c = await signFiling(ok.body, PLAINTIFF);
      expect((await t.get(`/cases/${c}`)).body.case).toMatchObject({ claimDescription: body.claimDescription });
    } finally {
      await setFee(fee);
    }
    // At the restored fee the first payment covers it again.
    const restored = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT), fees.xPayment(proof));
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.payment).toMatchObject({ amount: fee.toString(), paymentRef: ref });
    const c = await signFiling(restored.body, PLAINTIFF);
    expect((await t.get(`/cases/${c}`)).body.case).toMatchObject({ plaintiff: t.address(PLAINTIFF) });
    expect((await fees.feePayment(t, ref, t.address(PLAINTIFF))).usedBy).toBe(c);
  });
});
