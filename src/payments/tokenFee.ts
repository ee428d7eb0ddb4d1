import type { PaymentPayload } from "@x402/core/types";
import { type Address, type Hex, isAddress, isAddressEqual, recoverTypedDataAddress, zeroAddress } from "viem";
import { DocketError, type ErrorCode } from "../errors/errors.js";
import type { Authorization, Facilitator } from "./x402v2.js";

/**
 * Judging a filing fee paid in the court's token (x402 "exact": an EIP-3009 authorization of the
 * fee to the case factory) before docket answers with the filing that carries it: against the court
 * (payer, recipient, amount, never filed with), then what the token will check when the filing
 * submits it (nonce unused, window, balance, signature), then a facilitator's `/verify` if any.
 * Each check answers a refusal, or `undefined` when it holds. Nothing here settles anything: the
 * filing transaction does (docs/payments.md, "Token fees").
 */

/** Why a token payment is refused: the code, and what the answer says. */
export type Refusal = { code: ErrorCode; message: string; details: Record<string, unknown> };

/**
 * Judges an EIP-3009 authorization against the court's token fee: signed by the plaintiff, to the
 * factory (in the authorization and in the requirements the client accepted), at least the fee.
 * The first check that fails is the answer; `undefined` means it holds.
 */
export function judgeAuthorization(
  a: Authorization,
  acceptedPayTo: string,
  expected: { payer: Address; payTo: Address; fee: bigint },
): { code: ErrorCode; message: string; details: Record<string, unknown> } | undefined {
  if (!isAddressEqual(a.from, expected.payer)) {
    return {
      code: "PAYMENT_WRONG_PAYER",
      message: `the authorization is ${a.from}'s, not the plaintiff's`,
      details: { expected: expected.payer, got: a.from },
    };
  }
  const to = [a.to, acceptedPayTo].find((x) => !isAddress(x, { strict: false }) || !isAddressEqual(x, expected.payTo));
  if (to !== undefined) {
    return {
      code: "PAYMENT_WRONG_RECIPIENT",
      message: `the authorization pays ${to}, not the court's factory`,
      details: { expected: expected.payTo, got: to },
    };
  }
  if (a.value < expected.fee) {
    return {
      code: "PAYMENT_INSUFFICIENT",
      message: `the authorization moves ${a.value}, less than the filing fee ${expected.fee}`,
      details: { required: expected.fee.toString(), paid: a.value.toString() },
    };
  }
  return undefined;
}

/** How a token fee settles, said in PAYMENT-RESPONSE's `extra`: by the filing, not by a facilitator. */
export const SETTLED_IN_FILING = {
  settlement: "in-filing-transaction",
  function: "fileCaseWithAuthorization",
  note: "Not settled yet: the case factory submits this authorization to the token in the fileCase transaction the plaintiff signs and sends (paid and filed together, or neither); no facilitator settles it.",
} as const;

/** Seconds an authorization must still be valid for when docket answers: time to sign and mine the filing. */
export const FILING_MARGIN_SECONDS = 60;

/** What the chain says about an authorization before the filing submits it. */
export interface AuthorizationFacts {
  token: Address;
  chainId: number;
  domain: { name: string; version: string };
  /** The token has the nonce used or cancelled. */
  used: boolean;
  balance: bigint;
  /** What the case factory holds of the token (a fee someone submitted to the token before the filing). */
  held: bigint;
  chainTime: number;
}

/**
 * Checks locally what the token will check when the filing submits the authorization: an unused
 * nonce, a validity window open now and for FILING_MARGIN_SECONDS more, the payer's balance, and a
 * 65-byte signature by `from` over EIP-3009's TransferWithAuthorization in the token's domain (the
 * factory hands the token v, r, s, so only such a signature can pay). A nonce the token has used
 * already still files when its fee is in the factory (someone submitted the authorization to the
 * token first): the factory checks the signature itself and forwards what it holds, once (issue
 * #31). `undefined` means it holds.
 */
export async function checkAuthorization(
  a: Authorization,
  signature: Hex,
  f: AuthorizationFacts,
): Promise<Refusal | undefined> {
  if (f.used) {
    if (f.held >= a.value && (await signedBy(a, signature, f))) return undefined;
    return {
      code: "PAYMENT_ALREADY_USED",
      message:
        "the token has this authorization's nonce used or cancelled, and the case factory does not hold its fee: sign a new authorization",
      details: { paymentRef: a.nonce, token: f.token },
    };
  }
  const invalid = (reason: string, message: string, details: Record<string, unknown> = {}): Refusal => ({
    code: "PAYMENT_INVALID",
    message: `the authorization would not go through: ${message}`,
    details: { reason, ...details },
  });
  const now = BigInt(f.chainTime);
  if (a.validAfter >= now)
    return invalid("not_yet_valid", `valid only after ${a.validAfter}`, { chainTime: f.chainTime });
  if (a.validBefore <= now + BigInt(FILING_MARGIN_SECONDS)) {
    return invalid("expired", `valid before ${a.validBefore}, too soon to file with`, {
      chainTime: f.chainTime,
      marginSeconds: FILING_MARGIN_SECONDS,
    });
  }
  if (f.balance < a.value) {
    return invalid("insufficient_funds", `the payer holds ${f.balance}, less than ${a.value}`, {
      balance: f.balance.toString(),
    });
  }
  if ((signature.length - 2) / 2 !== 65) return invalid("invalid_signature", "the signature is not 65 bytes (r, s, v)");
  if (!(await signedBy(a, signature, f))) {
    return invalid(
      "invalid_signature",
      "the signature is not the payer's over this authorization in the token's domain",
    );
  }
  return undefined;
}

/** Whether `signature` is `a.from`'s over the TransferWithAuthorization `a` in the token's domain. */
async function signedBy(a: Authorization, signature: Hex, f: AuthorizationFacts): Promise<boolean> {
  if ((signature.length - 2) / 2 !== 65) return false;
  const signer = await recoverTypedDataAddress({
    domain: { name: f.domain.name, version: f.domain.version, chainId: f.chainId, verifyingContract: f.token },
    types: TRANSFER_WITH_AUTHORIZATION,
    primaryType: "TransferWithAuthorization",
    message: a,
    signature,
  }).catch(() => undefined);
  return signer !== undefined && isAddressEqual(signer, a.from);
}

/** EIP-3009's EIP-712 type for `transferWithAuthorization`: what x402 "exact" signs. */
export const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** The reference already filed a case: the same authorization files no other. */
export function usedToFile(usedBy: Address, nonce: Hex): Refusal | undefined {
  if (isAddressEqual(usedBy, zeroAddress)) return undefined;
  return {
    code: "PAYMENT_ALREADY_USED",
    message: `this authorization already filed case ${usedBy}`,
    details: { paymentRef: nonce, usedBy },
  };
}

/** The facilitator's `/verify`, when one is configured: its refusal is the payment's. Never `/settle`. */
export async function verifyThrough(f: Facilitator, payload: PaymentPayload): Promise<Refusal | undefined> {
  // The client's own `accepted`: checked against the court above (asset, payTo, amount), and exactly
  // what it signed for (its maxTimeoutSeconds was ours at the 402).
  let verified: Awaited<ReturnType<Facilitator["verify"]>>;
  try {
    verified = await f.verify(payload, payload.accepted);
  } catch (err) {
    throw new DocketError("RPC_ERROR", `the x402 facilitator at ${f.url} did not answer: ${(err as Error).message}`, {
      facilitator: f.url,
    });
  }
  if (verified.isValid) return undefined;
  const reason = verified.invalidReason ?? "invalid";
  return {
    code: /already_used/i.test(reason) ? "PAYMENT_ALREADY_USED" : "PAYMENT_INVALID",
    message: `the facilitator refused the authorization: ${reason}`,
    details: { reason, facilitatorMessage: verified.invalidMessage },
  };
}
