import { parsePaymentPayload } from "@x402/core/schemas";
import { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequired, PaymentRequirements, VerifyResponse } from "@x402/core/types";
import { type Address, getAddress, type Hex, isAddress, isHex } from "viem";
import { DocketError, type ErrorCode } from "../errors/errors.js";
import { TX_HASH_PATTERN } from "../formats.js";
import { NATIVE_ASSET, PAYMENT_TIMEOUT_SECONDS } from "./x402.js";

/**
 * x402 v2 as docket speaks it, with the x402 project's own types and schemas (`@x402/core`): the
 * PaymentRequired of a 402 (`PAYMENT-REQUIRED` header over HTTP, `structuredContent` over MCP),
 * the PaymentPayload a client pays with (`PAYMENT-SIGNATURE`, or MCP `_meta["x402/payment"]`) and
 * the SettleResponse of the answer (`PAYMENT-RESPONSE`, or `_meta["x402/payment-response"]`).
 *
 * Two ways to pay, two `accepts` entries:
 * - `exact` (first, when the court takes a token fee): x402's own scheme on EVM, an EIP-3009
 *   authorization of the token fee to the factory, signed by the plaintiff. docket checks it and
 *   answers the unsigned `fileCaseWithAuthorization` carrying it: the factory submits it to the token
 *   in the filing's own transaction, so nobody settles it before (no facilitator `/settle`).
 * - `native-tx`: docket's native-coin path, as in v1 (the payer broadcasts `payFilingFee` itself and
 *   hands in the hash as `payload.txHash`). Not x402's `exact`, so no stock client picks it by mistake.
 */

export const X402_V2 = 2;
/** docket's v2 scheme name for the native-coin fee paid by a transaction the payer sends itself. */
export const NATIVE_TX_SCHEME = "native-tx";

/** CAIP-2: what x402 v2 calls a chain. */
export function caip2(chainId: number): `eip155:${number}` {
  return `eip155:${chainId}`;
}

/** The court's token fee as x402 "exact" needs it: the token, its EIP-712 domain and the fee. */
export interface TokenFee {
  token: Address;
  fee: bigint;
  name: string;
  version: string;
}

export interface RequirementsV2Terms {
  chainId: number;
  /** The case factory: every fee is paid to it. */
  payTo: Address;
  /** Wei, for the native entry. */
  filingFee: bigint;
  token?: TokenFee;
  /**
   * How far chain time is ahead of the wall clock, in seconds: a stock client dates its authorization
   * by the wall clock (valid before now + maxTimeoutSeconds) while the token checks the block's time,
   * so on a chain that runs ahead (the dev chain after time travel) the window is widened by as much.
   */
  chainAheadSeconds: number;
  /** The native entry's ready-to-sign fee payment and reference, as v1's `extra` has them. */
  nativeExtra: Record<string, unknown>;
}

/** The v2 `accepts`: the token fee first (what a stock client pays), then the native-coin path. */
export function requirementsV2(t: RequirementsV2Terms): PaymentRequirements[] {
  const network = caip2(t.chainId);
  const accepts: PaymentRequirements[] = [];
  if (t.token) {
    accepts.push({
      scheme: "exact",
      network,
      asset: t.token.token,
      amount: t.token.fee.toString(),
      payTo: t.payTo,
      maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS + Math.max(0, t.chainAheadSeconds),
      extra: { name: t.token.name, version: t.token.version },
    });
  }
  accepts.push({
    scheme: NATIVE_TX_SCHEME,
    network,
    asset: NATIVE_ASSET,
    amount: t.filingFee.toString(),
    payTo: t.payTo,
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    extra: {
      ...t.nativeExtra,
      proof: `Once the payment is mined, retry with PAYMENT-SIGNATURE: base64 of {"x402Version":2,"accepted":<this entry>,"payload":{"txHash":"<the payment's hash>"}}`,
    },
  });
  return accepts;
}

/** The v2 PaymentRequired: `error` is the docket error code (x402 v2 has it a string); `extensions` Bazaar's declaration. */
export function paymentRequiredV2(
  accepts: PaymentRequirements[],
  resource: { url: string; description: string },
  code: ErrorCode,
  extensions?: Record<string, unknown>,
): PaymentRequired {
  return {
    x402Version: X402_V2,
    error: code,
    resource: { url: resource.url, description: resource.description, mimeType: "application/json" },
    accepts,
    ...(extensions ? { extensions } : {}),
  };
}

/** A decoded v2 proof: an EIP-3009 authorization (x402 "exact") or a native payment's hash. */
export type ProofV2 =
  | { kind: "authorization"; payload: PaymentPayload; authorization: Authorization; signature: Hex }
  | { kind: "tx"; payload: PaymentPayload; txHash: Hex };

export interface Authorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

function malformed(reason: string): DocketError {
  return new DocketError("PAYMENT_MALFORMED", `the x402 v2 payment is malformed: ${reason}`, {
    reason,
    expected:
      'a PaymentPayload {"x402Version":2,"accepted":<one of accepts>,"payload":{...}} (base64 JSON in PAYMENT-SIGNATURE over HTTP, an object in _meta["x402/payment"] over MCP)',
  });
}

/** Reads a PAYMENT-SIGNATURE header: base64 JSON of a v2 PaymentPayload. */
export function decodePaymentSignature(header: string, chainId: number): ProofV2 {
  const text = header.trim();
  if (text.length === 0 || text.length > 8192 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw malformed("not base64");
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, "base64").toString("utf8"));
  } catch {
    throw malformed("base64 of something that is not JSON");
  }
  return readProofV2(json, chainId);
}

/** Checks a v2 PaymentPayload (from a header or MCP `_meta`) with x402's own schema, then ours. */
export function readProofV2(value: unknown, chainId: number): ProofV2 {
  const parsed = parsePaymentPayload(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw malformed(`${issue?.path.join(".") || "(payload)"}: ${issue?.message ?? "wrong shape"}`);
  }
  // x402's schema checks what its type says, but types the network a plain string.
  const payload = parsed.data as unknown as PaymentPayload;
  if (payload.x402Version !== X402_V2) throw malformed(`x402Version ${payload.x402Version} (this is v2)`);
  const { accepted } = payload;
  if (accepted.network !== caip2(chainId)) {
    throw malformed(`network "${accepted.network}" is not this server's ("${caip2(chainId)}")`);
  }
  const inner = payload.payload as Record<string, unknown>;
  if (accepted.scheme === NATIVE_TX_SCHEME) {
    const txHash = inner.txHash;
    if (typeof txHash !== "string" || !new RegExp(TX_HASH_PATTERN).test(txHash)) {
      throw malformed("payload.txHash must be a 32-byte transaction hash");
    }
    return { kind: "tx", payload, txHash: txHash.toLowerCase() as Hex };
  }
  if (accepted.scheme !== "exact") throw malformed(`scheme "${accepted.scheme}" (exact or ${NATIVE_TX_SCHEME})`);
  const a = inner.authorization as Record<string, unknown> | undefined;
  const signature = inner.signature;
  if (!a || typeof a !== "object" || !isHex(signature)) {
    throw malformed("payload must hold an EIP-3009 authorization and its signature (x402 exact on EVM)");
  }
  const addr = (k: string) => {
    const v = a[k];
    if (typeof v !== "string" || !isAddress(v, { strict: false })) throw malformed(`payload.authorization.${k}`);
    return getAddress(v);
  };
  const uint = (k: string) => {
    const v = a[k];
    if (typeof v !== "string" || !/^\d{1,78}$/.test(v)) throw malformed(`payload.authorization.${k}`);
    return BigInt(v);
  };
  const nonce = a.nonce;
  if (typeof nonce !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(nonce)) throw malformed("payload.authorization.nonce");
  const authorization = {
    from: addr("from"),
    to: addr("to"),
    value: uint("value"),
    validAfter: uint("validAfter"),
    validBefore: uint("validBefore"),
    nonce: nonce.toLowerCase() as Hex,
  };
  return { kind: "authorization", payload, authorization, signature };
}

/**
 * docket's side of an x402 facilitator: its HTTP API, through `@x402/core`'s own client. Only
 * `/verify` is asked: the filing transaction settles the payment, so no facilitator ever does.
 */
export interface Facilitator {
  url: string;
  verify(p: PaymentPayload, r: PaymentRequirements): Promise<VerifyResponse>;
}

/** A facilitator reached over HTTP at `url` (`/verify`), as x402 resource servers do. */
export function httpFacilitator(url: string, timeoutMs = 30_000): Facilitator {
  const client = new HTTPFacilitatorClient({ url, timeoutMs });
  return { url: client.url, verify: (p, r) => client.verify(p, r) };
}
