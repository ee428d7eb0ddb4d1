import { PaymentRequiredV1Schema } from "@x402/core/schemas";
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  parseEventLogs,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import { DocketError } from "../../src/errors/errors.js";
import { fileCase } from "../../src/operations/cases/fileCase.js";
import { runOperation } from "../../src/operations/kernel/run.js";
import { decodePaymentResponse, NATIVE_ASSET, paymentRequiredSchema } from "../../src/payments/x402.js";
import { TestDocket } from "../support/index.js";
import * as fees from "./helpers.js";

/**
 * Payment-required filing (x402 v1) driven over HTTP with real wallets: 402, pay as told (the fee goes
 * into the factory's payFilingFee under the 402's reference), retry with the proof, sign the filing,
 * and read the new case back through the API.
 */
describe("file_case: pay, prove, file", () => {
  let t: TestDocket;
  const PLAINTIFF = 15;
  const DEFENDANT = 19;
  let fee: string;
  let minStake: string;
  let firstProof: Hex;
  let firstRef: Hex;
  let firstCase: Address;

  const params = () =>
    t.chain.reader.readContract({ address: t.chain.factory, abi: caseFactoryAbi, functionName: "getParams" });

  /** Signs an answered fileCase transaction as `signer`; returns the new case from its CaseFiled event. */
  async function signFiling(body: { unsigned_tx: { to: Address; value: string; data: Hex } }, signer: number) {
    const receipt = await t.actor(signer).send(body.unsigned_tx);
    const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
    if (!filed) throw new Error("no CaseFiled");
    return filed.args;
  }

  beforeAll(async () => {
    t = await TestDocket.shared();
    const p = await params();
    fee = p.filingFee.toString();
    minStake = p.terms.minPartyStake.toString();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("without a proof: 402 in x402 v1's schema with docket's error envelope beside it and x402 v1 requirements whose extra pays the fee", async () => {
    const body = fees.filing(t, PLAINTIFF, DEFENDANT);
    const r = await t.post("/cases", body);
    expect(r.status).toBe(402);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body.x402Version).toBe(1);
    // x402 v1's own schema holds (no `error`: no proof was refused); docket's envelope is beside it.
    expect(PaymentRequiredV1Schema.safeParse(r.body).error).toBeUndefined();
    expect(r.body.error).toBeUndefined();
    expect(r.body.docketError).toMatchObject({ code: "PAYMENT_REQUIRED" });
    expect(r.body.accepts).toHaveLength(1);
    const [req] = r.body.accepts;
    expect(req).toMatchObject({
      scheme: "exact",
      network: "eip155:31337",
      maxAmountRequired: fee,
      payTo: t.chain.factory,
      asset: NATIVE_ASSET,
      resource: `${t.url}/cases`,
      mimeType: "application/json",
    });
    expect(req.maxTimeoutSeconds).toBeGreaterThan(0);
    // The fee transaction calls payFilingFee(extra.paymentRef) on the factory, carrying the fee.
    const ref = req.extra.paymentRef as Hex;
    expect(ref).toMatch(/^0x[0-9a-f]{64}$/);
    expect(BigInt(ref)).not.toBe(0n);
    expect(req.extra.unsigned_tx).toEqual({
      to: t.chain.factory,
      value: fee,
      data: encodeFunctionData({ abi: caseFactoryAbi, functionName: "payFilingFee", args: [ref] }),
      chainId: 31337,
    });
    expect(decodeFunctionData({ abi: caseFactoryAbi, data: req.extra.unsigned_tx.data })).toEqual({
      functionName: "payFilingFee",
      args: [ref],
    });
    expect(req.extra).toMatchObject({ chainId: 31337, payer: t.address(PLAINTIFF), stake: minStake });
    expect(req.extra.instructions).toContain(t.address(PLAINTIFF));
    expect(req.extra.instructions).toContain(t.chain.factory);
    expect(req.extra.instructions).toContain("X-PAYMENT");
    expect(paymentRequiredSchema.safeParse(r.body).success).toBe(true);
    expect(fileCase.output.safeParse(r.body).success).toBe(true);
    // Nothing is recorded under the reference until someone pays.
    expect(await fees.feePayment(t, ref, t.address(PLAINTIFF))).toEqual({
      paid: false,
      amount: 0n,
      usedBy: zeroAddress,
    });
  });

  it("every 402 carries a fresh reference, the same request's too", async () => {
    const body = fees.filing(t, PLAINTIFF, DEFENDANT);
    const refs = new Set<Hex>();
    for (let i = 0; i < 4; i++) {
      const r = await t.post("/cases", body);
      expect(r.status).toBe(402);
      const ref = fees.feeRefOf(r);
      const call = decodeFunctionData({ abi: caseFactoryAbi, data: fees.feeTxOf(r).data });
      expect(call).toEqual({ functionName: "payFilingFee", args: [ref] });
      refs.add(ref);
    }
    expect(refs.size).toBe(4);
  });

  it("402 -> pay as told -> retry with X-PAYMENT -> 200 + X-PAYMENT-RESPONSE -> sign -> a Summoned case", async () => {
    // Cache the page and the stats first: the new case must show anyway.
    const before = await t.get("/cases?limit=100");
    expect((await t.get("/cases?limit=100")).headers.get("x-cache")).toBe("HIT");
    const statsBefore = await t.get("/stats/overview");
    expect((await t.get("/stats/overview")).headers.get("x-cache")).toBe("HIT");

    const body = fees.filing(t, PLAINTIFF, DEFENDANT);
    const r402 = await t.post("/cases", body);
    expect(r402.status).toBe(402);
    firstRef = fees.feeRefOf(r402);
    const { feeRecipient } = await params();
    firstProof = await fees.payAsTold(t, r402, PLAINTIFF);

    // The payment is recorded for the plaintiff under the 402's reference, and the fee reached the recipient.
    const paid = await t.chain.reader.getTransactionReceipt({ hash: firstProof });
    const [feeLog] = parseEventLogs({ abi: caseFactoryAbi, eventName: "FilingFeePaid", logs: paid.logs });
    expect(isAddressEqual(feeLog?.address ?? zeroAddress, t.chain.factory)).toBe(true);
    expect(feeLog?.args).toEqual({ payer: t.address(PLAINTIFF), paymentRef: firstRef, amount: BigInt(fee) });
    const block = await t.chain.reader.getBlock({ blockNumber: paid.blockNumber });
    expect(isAddressEqual(block.miner, feeRecipient)).toBe(false);
    const balance = (blockNumber: bigint) => t.chain.reader.getBalance({ address: feeRecipient, blockNumber });
    expect((await balance(paid.blockNumber)) - (await balance(paid.blockNumber - 1n))).toBe(BigInt(fee));
    expect(await t.chain.reader.getBalance({ address: t.chain.factory })).toBe(0n);

    const r = await t.post("/cases", body, fees.xPayment(firstProof));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(fileCase.output.safeParse(r.body).success).toBe(true);
    expect(r.body.unsigned_tx).toMatchObject({ to: t.chain.factory, value: minStake, chainId: 31337 });
    expect(r.body.instructions).toContain(t.address(PLAINTIFF));
    expect(r.body.payment).toEqual({
      txHash: firstProof,
      payer: t.address(PLAINTIFF),
      amount: fee,
      paymentRef: firstRef,
    });
    expect(decodeFunctionData({ abi: caseFactoryAbi, data: r.body.unsigned_tx.data })).toEqual({
      functionName: "fileCase",
      args: [1n, t.address(DEFENDANT), body.claimDescription, body.evidenceIpfsHash, firstRef],
    });
    // Proving reads only: the payment is paid and still unused.
    expect(await fees.feePayment(t, firstRef, t.address(PLAINTIFF))).toEqual({
      paid: true,
      amount: BigInt(fee),
      usedBy: zeroAddress,
    });
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
    expect(filed.paymentRef).toBe(firstRef);
    // The filing used the payment: the record now names the case.
    expect(await fees.feePayment(t, firstRef, t.address(PLAINTIFF))).toEqual({
      paid: true,
      amount: BigInt(fee),
      usedBy: firstCase,
    });

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
    const r = await t.post("/cases", fees.filing(t, PLAINTIFF, DEFENDANT), fees.xPayment(firstProof));
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
    const a = fees.filing(t, plaintiff, DEFENDANT, { stake });
    const b = fees.filing(t, plaintiff, 18, { stake });
    const r402 = await t.post("/cases", a);
    const ref = fees.feeRefOf(r402);
    const proof = await fees.payAsTold(t, r402, plaintiff);
    const [ra, rb] = await Promise.all([
      t.post("/cases", a, fees.xPayment(proof)),
      t.post("/cases", b, fees.xPayment(proof)),
    ]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(ra.body.unsigned_tx.value).toBe(stake);
    expect([ra.body.payment.paymentRef, rb.body.payment.paymentRef]).toEqual([ref, ref]);

    // Both are signed and broadcast; the gas is fixed so that the second is broadcast even though it must fail.
    const gas = await t.chain.reader.estimateGas({
      account: t.address(plaintiff),
      to: ra.body.unsigned_tx.to,
      data: ra.body.unsigned_tx.data,
      value: BigInt(stake),
    });
    const receipts = [];
    for (const r of [ra, rb]) receipts.push(await fees.send(t, plaintiff, { ...r.body.unsigned_tx, gas: gas * 2n }));
    expect(receipts.map((x) => x.status).sort()).toEqual(["reverted", "success"]);

    const mined = receipts.find((x) => x.status === "success");
    const lost = receipts.find((x) => x.status === "reverted");
    const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: mined?.logs ?? [] });
    const usedBy = await t.chain.reader.readContract({
      address: t.chain.factory,
      abi: caseFactoryAbi,
      functionName: "paymentRefUsedBy",
      args: [ref, t.address(plaintiff)],
    });
    expect(usedBy).toBe(filed?.args.caseAddr);
    expect((await fees.feePayment(t, ref, t.address(plaintiff))).usedBy).toBe(filed?.args.caseAddr);
    // Why the other failed: replay its call on the state of its own block.
    expect(await fees.revertOf(t, lost?.transactionHash as Hex)).toMatchObject({
      reason: "PaymentRefUsed",
      args: { paymentRef: ref, caseAddr: filed?.args.caseAddr },
    });
    // The winner is a case docket serves, with the stake asked for.
    const won = await t.get(`/cases/${filed?.args.caseAddr}`);
    expect(won.status).toBe(200);
    expect(won.body.case).toMatchObject({ state: "Summoned", plaintiff: t.address(plaintiff), plaintiffStake: stake });
    // And docket now refuses the proof.
    expect((await t.post("/cases", b, fees.xPayment(proof))).status).toBe(409);
  });

  it("works through runOperation for MCP: v2 requirements without a proof, the transaction with payment_tx_hash", async () => {
    const plaintiff = 17;
    const mcp = { transport: "mcp" as const, headers: {} };
    const body = fees.filing(t, plaintiff, DEFENDANT);
    const required = await runOperation(fileCase, body, t.docket.ctx, mcp);
    expect(required.status).toBe(402);
    // The x402 MCP binding: the v2 PaymentRequired: the token fee (no facilitator needed: the filing
    // settles it), then the native-coin path, which this test pays.
    const v2 = required.body as { x402Version: number; error: string; resource: { url: string }; accepts: unknown[] };
    expect(v2).toMatchObject({ x402Version: 2, error: "PAYMENT_REQUIRED", resource: { url: "mcp://tool/file_case" } });
    expect(v2.accepts).toMatchObject([
      { scheme: "exact", network: "eip155:31337" },
      { scheme: "native-tx", network: "eip155:31337" },
    ]);
    const r402 = { status: 402, headers: new Headers(), body: { accepts: v2.accepts.slice(1) } };
    const ref = fees.feeRefOf(r402);
    expect(decodeFunctionData({ abi: caseFactoryAbi, data: fees.feeTxOf(r402).data }).functionName).toBe(
      "payFilingFee",
    );
    const proof = await fees.payAsTold(t, r402, plaintiff);
    const ok = await runOperation(fileCase, { ...body, payment_tx_hash: proof }, t.docket.ctx, mcp);
    expect(ok.status).toBe(200);
    // What happened to the payment, for each front end to say its way (HTTP: X-PAYMENT-RESPONSE).
    expect(ok.payment?.settlement).toMatchObject({ x402Version: 1, response: { success: true, transaction: proof } });
    expect((ok.body as { payment: { paymentRef: Hex } }).payment.paymentRef).toBe(ref);
    const filed = await signFiling(ok.body as never, plaintiff);
    expect(filed.paymentRef).toBe(ref);
    const c = await t.get(`/cases/${filed.caseAddr}`);
    expect(c.body.case).toMatchObject({ state: "Summoned", plaintiff: t.address(plaintiff) });
    const again = runOperation(fileCase, { ...body, payment_tx_hash: proof }, t.docket.ctx, mcp);
    await expect(again).rejects.toBeInstanceOf(DocketError);
    await expect(again).rejects.toMatchObject({ code: "PAYMENT_ALREADY_USED" });
  });

  it("over HTTP the X-PAYMENT header wins over payment_tx_hash", async () => {
    const plaintiff = 18;
    const body = fees.filing(t, plaintiff, DEFENDANT);
    const proof = await fees.payAsTold(t, await t.post("/cases", body), plaintiff);
    const unknown = `0x${"12".repeat(32)}`;
    const headerWins = await t.post("/cases", { ...body, payment_tx_hash: unknown }, fees.xPayment(proof));
    expect(headerWins.status).toBe(200);
    expect(headerWins.body.payment.txHash).toBe(proof);
    const badHeader = await t.post("/cases", { ...body, payment_tx_hash: proof }, { "X-PAYMENT": "%%%" });
    expect(badHeader.status).toBe(400);
    expect(badHeader.body.error.code).toBe("PAYMENT_MALFORMED");
    const argOnly = await t.post("/cases", { ...body, payment_tx_hash: proof });
    expect(argOnly.status).toBe(200);
    // Both answers are the same filing: sign it once, and the case is there.
    expect(argOnly.body.unsigned_tx).toEqual(headerWins.body.unsigned_tx);
    const filed = await signFiling(argOnly.body, plaintiff);
    const c = await t.get(`/cases/${filed.caseAddr}`);
    expect(c.body.case).toMatchObject({ state: "Summoned", claimDescription: body.claimDescription });
  });

  it("on chain, fileCase refuses a reference its caller did not pay: FilingFeeNotPaid", async () => {
    const plaintiff = 17;
    const stranger = 18;
    const p = await params();
    const count = () =>
      t.chain.reader.readContract({ address: t.chain.factory, abi: caseFactoryAbi, functionName: "caseCount" });
    const before = await count();
    const fileWith = (ref: Hex) =>
      encodeFunctionData({
        abi: caseFactoryAbi,
        functionName: "fileCase",
        args: [0n, t.address(DEFENDANT), `unpaid ${ref}`, "bafy-unpaid", ref],
      });

    // Nobody paid this reference. Signed and broadcast anyway (gas fixed): it is mined and reverts.
    const unpaid = fees.testRef("unpaid");
    const tx = { to: t.chain.factory, data: fileWith(unpaid), value: p.terms.minPartyStake, gas: 1_000_000n };
    const receipt = await fees.send(t, plaintiff, tx);
    expect(receipt.status).toBe("reverted");
    expect(await fees.revertOf(t, receipt.transactionHash)).toMatchObject({
      reason: "FilingFeeNotPaid",
      args: { paymentRef: unpaid, plaintiff: t.address(plaintiff) },
    });
    const verified = await t.post("/cases/verify-tx", { txHash: receipt.transactionHash });
    expect(verified.body).toMatchObject({ found: true, mined: true, success: false, allExpectationsMet: false });

    // Paid, but by someone else under their own key: still not the plaintiff's to use.
    const theirs = fees.testRef("theirs");
    expect((await fees.payFee(t, stranger, theirs, p.filingFee)).status).toBe("success");
    expect((await fees.feePayment(t, theirs, t.address(stranger))).paid).toBe(true);
    expect((await fees.feePayment(t, theirs, t.address(plaintiff))).paid).toBe(false);
    const borrowed = await fees.send(t, plaintiff, { ...tx, data: fileWith(theirs) });
    expect(borrowed.status).toBe("reverted");
    expect(await fees.revertOf(t, borrowed.transactionHash)).toMatchObject({
      reason: "FilingFeeNotPaid",
      args: { paymentRef: theirs, plaintiff: t.address(plaintiff) },
    });

    // No case came of either, on chain or as docket reads it fresh.
    expect(await count()).toBe(before);
    const list = await t.get("/cases?limit=3");
    expect(list.headers.get("x-cache")).toBe("MISS");
    expect(list.body.total).toBe(Number(before));
  });
});
