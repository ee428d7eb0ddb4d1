import { type Address, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import { wrapChainError } from "../../src/errors/chain.js";
import { DocketError } from "../../src/errors/errors.js";
import { fileCase } from "../../src/operations/fileCase.js";
import { runOperation } from "../../src/operations/run.js";
import { decodePaymentResponse, NATIVE_ASSET, paymentRequiredSchema } from "../../src/payments/x402.js";
import { TestDocket } from "../support/docket.js";
import { filing, payAsTold, send, xPayment } from "./helpers.js";

/**
 * Payment-required filing (x402 v1) driven over HTTP with real wallets: 402, pay as told, retry with
 * the proof, sign the filing, and read the new case back through the API.
 */
describe("file_case: pay, prove, file", () => {
  let t: TestDocket;
  const PLAINTIFF = 15;
  const DEFENDANT = 19;
  let fee: string;
  let minStake: string;
  let firstProof: Hex;
  let firstCase: Address;

  const params = () =>
    t.court.reader.readContract({ address: t.court.factory, abi: caseFactoryAbi, functionName: "getParams" });

  /** Signs an answered fileCase transaction as `signer`; returns the new case from its CaseFiled event. */
  async function signFiling(body: { unsigned_tx: { to: Address; value: string; data: Hex } }, signer: number) {
    const receipt = await t.actor(signer).send(body.unsigned_tx);
    const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
    if (!filed) throw new Error("no CaseFiled");
    return filed.args;
  }

  beforeAll(async () => {
    t = await TestDocket.start();
    const p = await params();
    fee = p.filingFee.toString();
    minStake = p.terms.minPartyStake.toString();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("without a proof: 402 with the error envelope and x402 v1 requirements whose extra pays the fee", async () => {
    const body = filing(t, PLAINTIFF, DEFENDANT);
    const r = await t.post("/cases", body);
    expect(r.status).toBe(402);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body.x402Version).toBe(1);
    expect(r.body.error).toMatchObject({ code: "PAYMENT_REQUIRED" });
    expect(r.body.accepts).toHaveLength(1);
    const [req] = r.body.accepts;
    const feeRecipient = (await params()).feeRecipient;
    expect(req).toMatchObject({
      scheme: "exact",
      network: "eip155:31337",
      maxAmountRequired: fee,
      payTo: feeRecipient,
      asset: NATIVE_ASSET,
      resource: `${t.url}/cases`,
      mimeType: "application/json",
    });
    expect(req.maxTimeoutSeconds).toBeGreaterThan(0);
    expect(req.extra.unsigned_tx).toEqual({ to: feeRecipient, value: fee, data: "0x", chainId: 31337 });
    expect(req.extra).toMatchObject({ chainId: 31337, payer: t.address(PLAINTIFF), stake: minStake });
    expect(req.extra.instructions).toContain(t.address(PLAINTIFF));
    expect(req.extra.instructions).toContain("X-PAYMENT");
    expect(paymentRequiredSchema.safeParse(r.body).success).toBe(true);
    expect(fileCase.output.safeParse(r.body).success).toBe(true);
  });

  it("402 -> pay as told -> retry with X-PAYMENT -> 200 + X-PAYMENT-RESPONSE -> sign -> a Summoned case", async () => {
    // Cache the page and the stats first: the new case must show anyway.
    const before = await t.get("/cases?limit=100");
    expect((await t.get("/cases?limit=100")).headers.get("x-cache")).toBe("HIT");
    const statsBefore = await t.get("/stats/overview");
    expect((await t.get("/stats/overview")).headers.get("x-cache")).toBe("HIT");

    const body = filing(t, PLAINTIFF, DEFENDANT);
    const r402 = await t.post("/cases", body);
    expect(r402.status).toBe(402);
    firstProof = await payAsTold(t, r402, PLAINTIFF);

    const r = await t.post("/cases", body, xPayment(firstProof));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(fileCase.output.safeParse(r.body).success).toBe(true);
    expect(r.body.unsigned_tx).toMatchObject({ to: t.court.factory, value: minStake, chainId: 31337 });
    expect(r.body.instructions).toContain(t.address(PLAINTIFF));
    expect(r.body.payment).toEqual({ txHash: firstProof, payer: t.address(PLAINTIFF), amount: fee });
    const header = r.headers.get("x-payment-response");
    expect(header).toBeTruthy();
    expect(decodePaymentResponse(header as string)).toEqual({
      success: true,
      transaction: firstProof,
      network: "eip155:31337",
      payer: t.address(PLAINTIFF),
    });

    const filed = await signFiling(r.body, PLAINTIFF);
    firstCase = filed.caseAddr;
    expect(filed).toMatchObject({ plaintiff: t.address(PLAINTIFF), defendant: t.address(DEFENDANT) });
    expect(filed.paymentRef).toBe(firstProof);

    const after = await t.get("/cases?limit=100");
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.body.total).toBe(before.body.total + 1);
    expect(after.body.cases).toContain(firstCase);
    const stats = await t.get("/stats/overview");
    expect(stats.body.totalCases).toBe(statsBefore.body.totalCases + 1);

    const c = await t.get(`/cases/${firstCase}`);
    expect(c.status).toBe(200);
    expect(c.body.case).toMatchObject({
      address: firstCase,
      state: "Summoned",
      stateIndex: 1,
      plaintiff: t.address(PLAINTIFF),
      defendant: t.address(DEFENDANT),
      claimDescription: body.claimDescription,
      evidenceIpfsHash: body.evidenceIpfsHash,
      plaintiffStake: minStake,
      defendantStake: "0",
      judges: [],
      outcome: null,
      resolvedAt: null,
    });
  });

  it("a used proof is refused: 409 PAYMENT_ALREADY_USED naming the case that used it", async () => {
    const r = await t.post("/cases", filing(t, PLAINTIFF, DEFENDANT), xPayment(firstProof));
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({
      code: "PAYMENT_ALREADY_USED",
      details: { txHash: firstProof, caseAddress: firstCase },
    });
    expect(r.body.x402Version).toBeUndefined();
  });

  it("two concurrent requests with one proof both get a transaction; exactly one mines, the other reverts PaymentRefUsed", async () => {
    const plaintiff = 16;
    const stake = (BigInt(minStake) * 2n).toString();
    const a = filing(t, plaintiff, DEFENDANT, { stake });
    const b = filing(t, plaintiff, 18, { stake });
    const proof = await payAsTold(t, await t.post("/cases", a), plaintiff);
    const [ra, rb] = await Promise.all([t.post("/cases", a, xPayment(proof)), t.post("/cases", b, xPayment(proof))]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(ra.body.unsigned_tx.value).toBe(stake);

    // Both are signed and broadcast; the gas is fixed so that the second is broadcast even though it must fail.
    const gas = await t.court.reader.estimateGas({
      account: t.address(plaintiff),
      to: ra.body.unsigned_tx.to,
      data: ra.body.unsigned_tx.data,
      value: BigInt(stake),
    });
    const receipts = [];
    for (const r of [ra, rb]) receipts.push(await send(t, plaintiff, { ...r.body.unsigned_tx, gas: gas * 2n }));
    expect(receipts.map((x) => x.status).sort()).toEqual(["reverted", "success"]);

    const won = receipts.find((x) => x.status === "success");
    const lost = receipts.find((x) => x.status === "reverted");
    const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: won?.logs ?? [] });
    const usedBy = await t.court.reader.readContract({
      address: t.court.factory,
      abi: caseFactoryAbi,
      functionName: "paymentRefUsedBy",
      args: [proof, t.address(plaintiff)],
    });
    expect(usedBy).toBe(filed?.args.caseAddr);
    // Why the other failed: replay its call on the state of its own block.
    const lostTx = await t.court.reader.getTransaction({ hash: lost?.transactionHash as Hex });
    const reason = await t.court.reader
      .call({
        account: lostTx.from,
        to: lostTx.to,
        data: lostTx.input,
        value: lostTx.value,
        blockNumber: lostTx.blockNumber,
      })
      .then(
        () => "did not revert",
        (err) => wrapChainError(err).details?.reason,
      );
    expect(reason).toBe("PaymentRefUsed");
    // And docket now refuses the proof.
    expect((await t.post("/cases", b, xPayment(proof))).status).toBe(409);
  });

  it("works through runOperation for MCP: requirements without a proof, the transaction with payment_tx_hash", async () => {
    const plaintiff = 17;
    const mcp = { transport: "mcp" as const, headers: {} };
    const body = filing(t, plaintiff, DEFENDANT);
    const required = await runOperation(fileCase, body, t.docket.ctx, mcp);
    expect(required.status).toBe(402);
    const req = (required.body as { accepts: { resource: string }[] }).accepts[0];
    expect(req?.resource).toBe("mcp://tool/file_case");
    const proof = await payAsTold(t, { status: 402, headers: new Headers(), body: required.body }, plaintiff);
    const ok = await runOperation(fileCase, { ...body, payment_tx_hash: proof }, t.docket.ctx, mcp);
    expect(ok.status).toBe(200);
    expect(ok.headers["X-PAYMENT-RESPONSE"]).toBeTruthy();
    const filed = await signFiling(ok.body as never, plaintiff);
    expect(filed.paymentRef).toBe(proof);
    const again = runOperation(fileCase, { ...body, payment_tx_hash: proof }, t.docket.ctx, mcp);
    await expect(again).rejects.toBeInstanceOf(DocketError);
    await expect(again).rejects.toMatchObject({ code: "PAYMENT_ALREADY_USED" });
  });

  it("over HTTP the X-PAYMENT header wins over payment_tx_hash", async () => {
    const plaintiff = 18;
    const body = filing(t, plaintiff, DEFENDANT);
    const proof = await payAsTold(t, await t.post("/cases", body), plaintiff);
    const unknown = `0x${"12".repeat(32)}`;
    const headerWins = await t.post("/cases", { ...body, payment_tx_hash: unknown }, xPayment(proof));
    expect(headerWins.status).toBe(200);
    expect(headerWins.body.payment.txHash).toBe(proof);
    const badHeader = await t.post("/cases", { ...body, payment_tx_hash: proof }, { "X-PAYMENT": "%%%" });
    expect(badHeader.status).toBe(400);
    expect(badHeader.body.error.code).toBe("PAYMENT_MALFORMED");
    const argOnly = await t.post("/cases", { ...body, payment_tx_hash: proof });
    expect(argOnly.status).toBe(200);
  });
});
