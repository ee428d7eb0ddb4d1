import type { Address, Hex, TransactionReceipt } from "viem";
import { encodeBase64Json, encodePaymentHeader } from "../../src/payments/x402.js";
import type { Api, TestDocket } from "../support/docket.js";

/** Free dev accounts (no seeded role): plaintiffs and strangers for these tests. */
export const FREE = [15, 16, 17, 18, 19] as const;

/** A filing body for POST /cases, with a unique claim. */
export function filing(t: TestDocket, plaintiff: number, defendant: number, extra: Record<string, unknown> = {}) {
  const claim = `undelivered goods ${Date.now()} ${Math.random()}`;
  return {
    plaintiff: t.address(plaintiff),
    defendant: t.address(defendant),
    claimDescription: claim,
    evidenceIpfsHash: `bafy${Math.random().toString(36).slice(2, 14)}`,
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
  return t.court.reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

/** Pays the fee exactly as a 402 says: signs and broadcasts `accepts[0].extra.unsigned_tx`. */
export async function payAsTold(t: TestDocket, r402: Api, signer: number): Promise<Hex> {
  const tx = r402.body.accepts[0].extra.unsigned_tx as { to: Address; value: string; data: Hex; chainId: number };
  if (tx.chainId !== t.court.chainId) throw new Error("payment is for another chain");
  const receipt = await send(t, signer, tx);
  if (receipt.status !== "success") throw new Error("fee payment reverted");
  return receipt.transactionHash;
}
