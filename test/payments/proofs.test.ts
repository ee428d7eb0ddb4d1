import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import { decodePaymentResponse } from "../../src/payments/x402.js";
import type { Api } from "../support/docket.js";
import { TestDocket } from "../support/docket.js";
import { filing, send, xPayment, xPaymentJson } from "./helpers.js";

/**
 * Every way a filing-fee proof can be wrong, each with its own code; plus the input checks done
 * before anyone pays (stake, defendant). Payments are real transactions signed by dev wallets.
 */
describe("file_case: refused proofs and inputs", () => {
  let t: TestDocket;
  const PLAINTIFF = 15;
  const STRANGER = 16;
  const DEFENDANT = 19;
  let fee: bigint;
  let feeRecipient: Hex;
  let minStake: bigint;

  /** A 402 refusing a proof: the code, the x402 fields to retry with, and a failed X-PAYMENT-RESPONSE. */
  function expectRefused(r: Api, code: string) {
    expect(r.status, JSON.stringify(r.body)).toBe(402);
    expect(r.body.error.code).toBe(code);
    expect(r.body.x402Version).toBe(1);
    expect(r.body.accepts[0]).toMatchObject({ maxAmountRequired: fee.toString(), payTo: feeRecipient });
    const settlement = decodePaymentResponse(r.headers.get("x-payment-response") as string);
    expect(settlement).toMatchObject({ success: false, errorReason: code.toLowerCase(), transaction: "" });
  }

  beforeAll(async () => {
    t = await TestDocket.start();
    const p = await t.court.reader.readContract({
      address: t.court.factory,
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
    const r = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT));
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe("PAYMENT_REQUIRED");
    expect(r.body.accepts).toHaveLength(1);
  });

  it("malformed X-PAYMENT: 400 PAYMENT_MALFORMED for not base64, not JSON, and every wrong shape", async () => {
    const hash = `0x${"ab".repeat(32)}`;
    const good = { x402Version: 1, scheme: "exact", network: "eip155:31337", payload: { txHash: hash } };
    const cases: [string, Record<string, string>, RegExp][] = [
      ["not base64", { "X-PAYMENT": "this is not base64!" }, /not base64/],
      ["empty", { "X-PAYMENT": "" }, /not base64/],
      ["not JSON", { "X-PAYMENT": Buffer.from("hello, world").toString("base64") }, /not JSON/],
      ["a JSON string", xPaymentJson("0xabc"), /payload/],
      ["no payload", xPaymentJson({ ...good, payload: undefined }), /payload/],
      ["bad txHash", xPaymentJson({ ...good, payload: { txHash: "0x1234" } }), /txHash/],
      ["x402Version 2", xPaymentJson({ ...good, x402Version: 2 }), /x402Version/],
      ["other scheme", xPaymentJson({ ...good, scheme: "upto" }), /scheme/],
      ["other network", xPaymentJson({ ...good, network: "base" }), /network "base"/],
    ];
    for (const [what, headers, message] of cases) {
      const r = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT), headers);
      expect(r.status, what).toBe(400);
      expect(r.body.error.code, what).toBe("PAYMENT_MALFORMED");
      expect(r.body.error.message, what).toMatch(message);
      expect(r.body.error.details.expected, what).toContain("base64");
    }
  });

  it("unknown hash: 402 PAYMENT_NOT_FOUND", async () => {
    const r = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT), xPayment(`0x${"77".repeat(32)}`));
    expectRefused(r, "PAYMENT_NOT_FOUND");
    expect(r.body.error.details).toMatchObject({ found: false, mined: false });
  });

  it("a reverted payment: 402 PAYMENT_FAILED", async () => {
    // The factory takes no plain coin: a transfer to it reverts (gas fixed so the wallet broadcasts it anyway).
    const receipt = await send(t, PLAINTIFF, { to: t.court.factory, value: fee, gas: 100_000n });
    expect(receipt.status).toBe("reverted");
    const r = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT), xPayment(receipt.transactionHash));
    expectRefused(r, "PAYMENT_FAILED");
  });

  it("paid by someone else: 402 PAYMENT_WRONG_PAYER", async () => {
    const receipt = await send(t, STRANGER, { to: feeRecipient, value: fee });
    const r = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT), xPayment(receipt.transactionHash));
    expectRefused(r, "PAYMENT_WRONG_PAYER");
    expect(r.body.error.details).toMatchObject({ expected: t.address(PLAINTIFF), actual: t.address(STRANGER) });
  });

  it("paid to the wrong address: 402 PAYMENT_WRONG_RECIPIENT", async () => {
    const receipt = await send(t, PLAINTIFF, { to: t.address(17), value: fee });
    const r = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT), xPayment(receipt.transactionHash));
    expectRefused(r, "PAYMENT_WRONG_RECIPIENT");
    expect(r.body.error.details).toMatchObject({ expected: feeRecipient, actual: t.address(17) });
  });

  it("too small: 402 PAYMENT_INSUFFICIENT; more than the fee is fine", async () => {
    const small = await send(t, PLAINTIFF, { to: feeRecipient, value: fee - 1n });
    const r = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT), xPayment(small.transactionHash));
    expectRefused(r, "PAYMENT_INSUFFICIENT");
    expect(r.body.error.details).toMatchObject({ required: fee.toString(), paid: (fee - 1n).toString() });
    const big = await send(t, PLAINTIFF, { to: feeRecipient, value: fee + 1n });
    const ok = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT), xPayment(big.transactionHash));
    expect(ok.status).toBe(200);
    expect(ok.body.payment.amount).toBe((fee + 1n).toString());
  });

  it("a stake below the minimum: 422 STAKE_BELOW_MINIMUM, before paying and with a proof", async () => {
    const low = (minStake - 1n).toString();
    const before = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT, { stake: low }));
    expect(before.status).toBe(422);
    expect(before.body.error).toMatchObject({
      code: "STAKE_BELOW_MINIMUM",
      details: { minimum: minStake.toString(), given: low },
    });
    const paid = await send(t, PLAINTIFF, { to: feeRecipient, value: fee });
    const r = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT, { stake: "0" }), xPayment(paid.transactionHash));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("STAKE_BELOW_MINIMUM");
  });

  it("bad input: 422 VALIDATION_ERROR for suing yourself or a too long claim; 400 for missing or malformed fields", async () => {
    const self = await t.post("/cases", filing(t, PLAINTIFF, PLAINTIFF));
    expect(self.status).toBe(422);
    expect(self.body.error).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(self.body.error.message).toMatch(/defendant/);
    const zero = await t.post("/cases", {
      ...filing(t, PLAINTIFF, DEFENDANT),
      defendant: "0x0000000000000000000000000000000000000000",
    });
    expect(zero.status).toBe(422);
    // 1000 characters, 3000 bytes: the contract counts bytes.
    const wide = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT, { claimDescription: "€".repeat(1000) }));
    expect(wide.status).toBe(422);
    expect(wide.body.error.message).toMatch(/claimDescription/);
    const { plaintiff: _, ...noPlaintiff } = filing(t, PLAINTIFF, DEFENDANT);
    const missing = await t.post("/cases", noPlaintiff);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("MISSING_FIELD");
    const badHash = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT, { payment_tx_hash: "0x12" }));
    expect(badHash.status).toBe(400);
    expect(badHash.body.error.code).toBe("INVALID_INPUT");
  });
});
