import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyTransaction } from "../../src/operations/payments/verifyTransaction.js";
import { TestDocket } from "../support/index.js";
import { send } from "./helpers.js";

/** POST /cases/verify-tx against real transactions on the dev chain. */
describe("verify_transaction", () => {
  let t: TestDocket;
  const PAYER = 15;
  const PAYEE = 16;
  const VALUE = "1234567890";
  let hash: string;
  let block: number;

  beforeAll(async () => {
    t = await TestDocket.shared();
    const receipt = await send(t, PAYER, { to: t.address(PAYEE), value: VALUE });
    hash = receipt.transactionHash;
    block = Number(receipt.blockNumber);
    // One more block on top, so confirmations count it.
    await send(t, PAYEE, { to: t.address(PAYER), value: "1" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a mined payment with every expectation met", async () => {
    const r = await t.post("/cases/verify-tx", {
      txHash: hash,
      expectedFrom: t.address(PAYER),
      expectedTo: t.address(PAYEE).toLowerCase(),
      expectedValue: VALUE,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.headers.get("x-cache")).toBeNull();
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toEqual({
      txHash: hash,
      found: true,
      mined: true,
      success: true,
      blockNumber: block,
      confirmations: 2,
      from: t.address(PAYER),
      to: t.address(PAYEE),
      value: VALUE,
      expectations: { from: true, to: true, value: true },
      allExpectationsMet: true,
    });
    expect(verifyTransaction.output.safeParse(r.body).success).toBe(true);
  });

  it("a wrong expectation is reported as false; value is compared for equality", async () => {
    const r = await t.post("/cases/verify-tx", {
      txHash: hash,
      expectedFrom: t.address(PAYEE),
      expectedValue: (BigInt(VALUE) - 1n).toString(),
    });
    expect(r.status).toBe(200);
    expect(r.body.expectations).toEqual({ from: false, value: false });
    expect(r.body.allExpectationsMet).toBe(false);
    const onlyTo = await t.post("/cases/verify-tx", { txHash: hash, expectedTo: t.address(PAYEE) });
    expect(onlyTo.body.expectations).toEqual({ to: true });
    expect(onlyTo.body.allExpectationsMet).toBe(true);
  });

  it("a reverted transaction: success false, never allExpectationsMet", async () => {
    const receipt = await send(t, PAYER, { to: t.chain.factory, value: VALUE, gas: 100_000n });
    const r = await t.post("/cases/verify-tx", { txHash: receipt.transactionHash, expectedValue: VALUE });
    expect(r.body).toMatchObject({ found: true, mined: true, success: false, expectations: { value: true } });
    expect(r.body.allExpectationsMet).toBe(false);
  });

  it("an unknown hash: 200 with found: false", async () => {
    const unknown = `0x${"5a".repeat(32)}`;
    const r = await t.post("/cases/verify-tx", { txHash: unknown, expectedFrom: t.address(PAYER) });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      txHash: unknown,
      found: false,
      mined: false,
      success: null,
      blockNumber: null,
      confirmations: 0,
      from: null,
      to: null,
      value: null,
      expectations: { from: false },
      allExpectationsMet: false,
    });
  });

  it("a malformed hash: 400 INVALID_INPUT; a missing one 400 MISSING_FIELD", async () => {
    for (const bad of ["0x1234", "hello", `0x${"zz".repeat(32)}`, `${"ab".repeat(32)}`]) {
      const r = await t.post("/cases/verify-tx", { txHash: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.error.code, bad).toBe("INVALID_INPUT");
    }
    const missing = await t.post("/cases/verify-tx", {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("MISSING_FIELD");
  });

  it("is routed as a literal path: GET /cases/{address} and the case writes are unaffected", async () => {
    const list = await t.get("/cases?limit=1");
    const addr = list.body.cases[0];
    expect((await t.get(`/cases/${addr}`)).status).toBe(200);
    const respond = await t.post(`/cases/${addr}/respond`, {});
    expect(respond.status).not.toBe(404);
  });
});
