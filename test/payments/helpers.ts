import {
  type Address,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseSignature,
  type TransactionReceipt,
  toHex,
} from "viem";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import { wrapChainError } from "../../src/errors/chain.js";
import { rawCid } from "../../src/evidence/cid.js";
import { encodeBase64Json, encodePaymentHeader } from "../../src/payments/x402.js";
import type { Api, TestDocket } from "../support/index.js";

/** Free dev accounts (no seeded role): plaintiffs and strangers for these tests. */
export const FREE = [15, 16, 17, 18, 19] as const;

/** A filing body for POST /cases, with a unique claim. */
export function filing(t: TestDocket, plaintiff: number, defendant: number, extra: Record<string, unknown> = {}) {
  const claim = `undelivered goods ${Date.now()} ${Math.random()}`;
  return {
    plaintiff: t.address(plaintiff),
    defendant: t.address(defendant),
    claimDescription: claim,
    evidenceIpfsHash: rawCid(claim).toString(),
    ...extra,
  };
}

/** X-PAYMENT for a payment hash on the dev chain. */
export function xPayment(txHash: Hex): Record<string, string> {
  return { "X-PAYMENT": encodePaymentHeader(txHash, 31337) };
}

/** X-PAYMENT carrying any JSON, to try shapes docket must refuse. */
export function xPaymentJson(value: unknown): Record<string, string> {
  return { "X-PAYMENT": encodeBase64Json(value) };
}

/**
 * Signs and broadcasts as dev account `signer` and waits for the receipt, reverted or not. `gas` skips
 * the wallet's estimate, so a transaction bound to revert is still broadcast and mined.
 */
export async function send(
  t: TestDocket,
  signer: number,
  tx: { to: Address; value?: string | bigint; data?: Hex; gas?: bigint },
): Promise<TransactionReceipt> {
  const a = t.actor(signer);
  const hash = await a.wallet.sendTransaction({
    account: a.account,
    chain: a.chain,
    to: tx.to,
    value: tx.value === undefined ? undefined : BigInt(tx.value),
    data: tx.data,
    gas: tx.gas,
  });
  return t.chain.reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

/** The fee transaction a 402 asks for. */
export function feeTxOf(r402: Api): { to: Address; value: string; data: Hex; chainId: number } {
  return r402.body.accepts[0].extra.unsigned_tx;
}

/** The payment reference a 402's fee transaction pays under. */
export function feeRefOf(r402: Api): Hex {
  return r402.body.accepts[0].extra.paymentRef;
}

/** Pays the fee exactly as a 402 says: signs and broadcasts `accepts[0].extra.unsigned_tx`. */
export async function payAsTold(t: TestDocket, r402: Api, signer: number): Promise<Hex> {
  const tx = feeTxOf(r402);
  if (tx.chainId !== t.chain.chainId) throw new Error("payment is for another chain");
  const receipt = await send(t, signer, tx);
  if (receipt.status !== "success") throw new Error("fee payment reverted");
  return receipt.transactionHash;
}

let refs = 0;
/** A payment reference of the test's own (deterministic, unique within the run). */
export function testRef(label: string): Hex {
  refs += 1;
  return keccak256(toHex(`docket test ref ${label} ${refs}`));
}

/** Pays `payFilingFee(ref)` on the factory as `signer`, without docket; `gas` broadcasts one bound to revert. */
export function payFee(t: TestDocket, signer: number, ref: Hex, value: bigint, gas?: bigint) {
  const data = encodeFunctionData({ abi: caseFactoryAbi, functionName: "payFilingFee", args: [ref] });
  return send(t, signer, { to: t.chain.factory, value, data, gas });
}

/** The factory's record of the fee `payer` paid under `ref`. */
export async function feePayment(t: TestDocket, ref: Hex, payer: Address) {
  const [paid, amount, usedBy] = await t.chain.reader.readContract({
    address: t.chain.factory,
    abi: caseFactoryAbi,
    functionName: "feePayment",
    args: [ref, payer],
  });
  return { paid, amount, usedBy };
}

/**
 * Why a mined transaction reverted: its call replayed on the state of its own block, decoded as docket
 * decodes reverts (`{ reason, args }`), or "did not revert".
 */
export async function revertOf(t: TestDocket, hash: Hex): Promise<Record<string, unknown> | "did not revert"> {
  const tx = await t.chain.reader.getTransaction({ hash });
  return t.chain.reader
    .call({ account: tx.from, to: tx.to, data: tx.input, value: tx.value, blockNumber: tx.blockNumber })
    .then(
      () => "did not revert" as const,
      (err) => wrapChainError(err).details ?? {},
    );
}

/**
 * The arguments of the token's transferWithAuthorization for an x402 "exact" payload's signed
 * authorization: what a facilitator (or a front-runner) submits to the token.
 */
export function transferArgs(payload: Record<string, unknown>) {
  const a = payload.authorization as Record<string, string>;
  const { r, s, v, yParity } = parseSignature(payload.signature as Hex);
  return [
    a.from as Address,
    a.to as Address,
    BigInt(a.value as string),
    BigInt(a.validAfter as string),
    BigInt(a.validBefore as string),
    a.nonce as Hex,
    Number(v ?? BigInt(yParity + 27)),
    r,
    s,
  ] as const;
}
