import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { LRUCache } from "lru-cache";
import { type Address, getAddress, type Hex, isAddress, isAddressEqual, zeroAddress } from "viem";
import type { ChainAccess } from "../chain/access.js";
import type { CourtParamsView } from "../chain/reads/courts.js";
import { readTokenDomain, readTokenPayment } from "../chain/reads/payments.js";
import { randomBytes32 } from "../chain/votes.js";
import { DocketError, type ErrorCode } from "../errors/errors.js";
import { bazaarExtensions, bazaarOutputSchemaV1, type PaidRoute } from "./bazaar.js";
import { checkAuthorization, judgeAuthorization, SETTLED_IN_FILING, usedToFile, verifyThrough } from "./tokenFee.js";
import { judgePayment, readPayment } from "./verify.js";
import {
  buildRequirements,
  decodePaymentHeader,
  networkOf,
  type PaymentRequiredBody,
  paymentRequiredBody,
  type SettleResponseV1,
  v1ErrorReason,
} from "./x402.js";
import {
  type Authorization,
  caip2,
  decodePaymentSignature,
  type Facilitator,
  type ProofV2,
  paymentRequiredV2,
  readProofV2,
  requirementsV2,
  type TokenFee,
} from "./x402v2.js";

/**
 * The x402 flow of a filing fee, whatever the door: read the proof a request carries, judge it
 * against the court, and say what happened: the fee is still to pay (the terms of a 402, with what
 * became of a refused proof), or it is paid (by a mined payment, or by an EIP-3009 authorization the
 * filing itself submits) with its settlement. Nothing here knows a header or a `_meta`: HTTP and MCP
 * each say a `PaymentOutcome` their own way (docs/payments.md).
 */

/** What became of a payment proof, as x402 reports it, in the version the proof came in. */
export type Settlement = { x402Version: 1; response: SettleResponseV1 } | { x402Version: 2; response: SettleResponse };

/** What an answer says about a payment, for each door to say its way. */
export interface PaymentOutcome {
  /** The settlement of the proof the request carried (refused or accepted). */
  settlement?: Settlement;
  /** A 402's terms: x402 v1 with docket's error envelope, and v2. */
  required?: { v1: PaymentRequiredBody; v2: PaymentRequired };
}

/** Who files against whom, and the resource the payment is for. */
export interface Filing {
  plaintiff: Address;
  defendant: string;
  resource: string;
  /** The paid route as x402's Bazaar lists it, declared in every 402 (over MCP: as the tool). */
  discovery?: { route: PaidRoute; door: "http" | "mcp" };
}

/** What the flow asks of the operation, each when it needs it (so the checks keep their order). */
export interface FilingReads {
  /** The court's parameters (fees, fee token). */
  params(): Promise<CourtParamsView>;
  /** The stake the filing carries; throws when it is below the court's minimum. */
  stake(): Promise<bigint>;
}

/** The fee payment a filing uses, as its answer reports it. */
export interface FeeReceipt {
  txHash: string;
  payer: string;
  amount: string;
  paymentRef: string;
  asset?: string;
}

/** The filing fee as the flow found it: still to pay, or paid by a mined payment or by an authorization. */
export type FilingFee =
  | { paid: false; body: PaymentRequired; payment: PaymentOutcome }
  | {
      paid: true;
      stake: bigint;
      receipt: FeeReceipt;
      payment: PaymentOutcome;
      /** A mined payFilingFee: the filing names its reference. An authorization: the filing carries it. */
      by:
        | { kind: "tx"; paymentRef: Hex }
        | { kind: "authorization"; authorization: Authorization; signature: Hex; token: Address };
    };

type AuthorizationProof = Extract<ProofV2, { kind: "authorization" }>;

/** A proof of payment: a transaction's hash (v1, or v2's native-tx), or a v2 EIP-3009 authorization. */
export type Proof = { kind: "tx"; v: 1 | 2; txHash: Hex } | AuthorizationProof;

/**
 * The proof a request carries, if any, in order of precedence: PAYMENT-SIGNATURE (x402 v2), MCP
 * `_meta["x402/payment"]` (the v2 PaymentPayload as an object), X-PAYMENT (v1), then the
 * `payment_tx_hash` argument.
 */
export function paymentProof(
  arg: string | undefined,
  req: { headers: Record<string, string | undefined>; payment?: unknown },
  chainId: number,
): Proof | undefined {
  const v2 = req.headers["payment-signature"];
  if (v2 !== undefined || req.payment !== undefined) {
    const p = v2 !== undefined ? decodePaymentSignature(v2, chainId) : readProofV2(req.payment, chainId);
    return p.kind === "tx" ? { kind: "tx", v: 2, txHash: p.txHash } : p;
  }
  const header = req.headers["x-payment"];
  if (header !== undefined) return { kind: "tx", v: 1, txHash: decodePaymentHeader(header, chainId).txHash };
  return arg === undefined ? undefined : { kind: "tx", v: 1, txHash: arg.toLowerCase() as Hex };
}

/**
 * Settles a filing fee's proof: none is a 402 with fresh terms; a refused one a 402 with its
 * settlement (PAYMENT_ALREADY_USED is thrown: 409); an accepted one is the fee the filing uses.
 */
export async function settleFilingFee(
  chain: ChainAccess,
  facilitator: Facilitator | undefined,
  filing: Filing,
  proof: Proof | undefined,
  reads: FilingReads,
): Promise<FilingFee> {
  if (!proof) {
    const params = await reads.params();
    const message = "filing a case requires paying the filing fee first: see accepts";
    const stake = await reads.stake();
    return required(chain, { ...filing, params, stake }, { code: "PAYMENT_REQUIRED", message });
  }
  if (proof.kind === "authorization") return settleAuthorization(chain, facilitator, filing, proof, reads);
  const facts = await readPayment(chain, proof.txHash, filing.plaintiff);
  const stake = await reads.stake();
  const failure = judgePayment(facts, filing.plaintiff);
  if (failure?.code === "PAYMENT_ALREADY_USED") throw new DocketError(failure.code, failure.message, failure.details);
  if (failure) {
    const payer = facts.fee?.payer ?? (facts.tx ? getAddress(facts.tx.from) : filing.plaintiff);
    const errorReason =
      proof.v === 1 ? (v1ErrorReason(failure.code, failure.details) as string) : failure.code.toLowerCase();
    // v1's SettleResponseSchema wants a transaction: the refused payment's own hash (v2 says "").
    const refused = { success: false, errorReason, transaction: proof.v === 1 ? proof.txHash : "", payer };
    return required(chain, { ...filing, params: facts.params, stake }, failure, settlement(proof.v, refused, chain));
  }
  const fee = facts.fee as NonNullable<typeof facts.fee>;
  const accepted = { success: true, transaction: proof.txHash, payer: filing.plaintiff };
  return {
    paid: true,
    stake,
    receipt: {
      txHash: proof.txHash,
      payer: filing.plaintiff,
      amount: fee.amount.toString(),
      paymentRef: fee.paymentRef,
    },
    payment: { settlement: settlement(proof.v, accepted, chain) },
    by: { kind: "tx", paymentRef: fee.paymentRef },
  };
}

/**
 * A token fee paid x402's way: the plaintiff's EIP-3009 authorization of the fee to the factory,
 * checked here (payer, recipient, amount, not used to file yet; then what the token will check:
 * nonce unused, validity window, balance, signature; and the facilitator's `/verify` when one is
 * configured; or, when someone submitted the authorization to the token first, that its fee is in
 * the factory, which then files with it). Nothing is settled here: the factory submits the authorization to the token inside
 * the filing, so a payment is never made without its case. A retry before the filing is mined gets
 * the same answer.
 */
async function settleAuthorization(
  chain: ChainAccess,
  facilitator: Facilitator | undefined,
  filing: Filing,
  proof: AuthorizationProof,
  reads: FilingReads,
): Promise<FilingFee> {
  const token = (await reads.params()).feeToken;
  if (isAddressEqual(token, zeroAddress)) {
    throw new DocketError("PAYMENT_MALFORMED", "this court takes no token payments: pay as accepts says", {
      reason: "no fee token",
    });
  }
  const { accepted } = proof.payload;
  const a = proof.authorization;
  if (!isAddress(accepted.asset, { strict: false }) || !isAddressEqual(accepted.asset, token)) {
    throw new DocketError("PAYMENT_MALFORMED", `accepted.asset is not the court's fee token ${token}`, {
      reason: "accepted.asset",
    });
  }
  const facts = await readTokenPayment(chain, token, a.nonce, filing.plaintiff);
  const stake = await reads.stake();
  const fee = facts.params.tokenFilingFee;
  const failure =
    judgeAuthorization(a, accepted.payTo, { payer: filing.plaintiff, payTo: chain.factory, fee }) ??
    usedToFile(facts.usedBy, a.nonce) ??
    (await checkAuthorization(a, proof.signature, { ...facts, token, chainId: chain.chainId })) ??
    // A nonce already used got here only with its fee held by the factory: settled, nothing left to verify.
    (facilitator && !facts.used ? await verifyThrough(facilitator, proof.payload) : undefined);
  if (failure?.code === "PAYMENT_ALREADY_USED") throw new DocketError(failure.code, failure.message, failure.details);
  if (failure) {
    const refused = { success: false, errorReason: failure.code.toLowerCase(), transaction: "", payer: a.from };
    return required(chain, { ...filing, params: facts.params, stake }, failure, settlement(2, refused, chain));
  }
  const amount = a.value.toString();
  const accepts = { success: true, transaction: "", payer: filing.plaintiff, amount, extra: SETTLED_IN_FILING };
  return {
    paid: true,
    stake,
    receipt: { txHash: "", payer: filing.plaintiff, amount, paymentRef: a.nonce, asset: token },
    payment: { settlement: settlement(2, accepts, chain) },
    by: { kind: "authorization", authorization: a, signature: proof.signature, token },
  };
}

/** A settlement in the version the proof came in (v1 has no `amount` nor `extra`). */
function settlement(
  v: 1 | 2,
  s: { success: boolean; errorReason?: string; transaction: string; payer: string; amount?: string; extra?: object },
  chain: ChainAccess,
): Settlement {
  if (v === 2) {
    return { x402Version: 2, response: { ...s, network: caip2(chain.chainId) } as SettleResponse };
  }
  const { amount: _amount, extra: _extra, ...v1 } = s;
  return { x402Version: 1, response: { ...v1, network: networkOf(chain.chainId) } };
}

/**
 * A 402: fresh requirements in both versions (v1 with docket's error envelope, v2 also the answer's
 * body), and the settlement of a refused proof.
 */
async function required(
  chain: ChainAccess,
  t: Filing & { params: CourtParamsView; stake: bigint },
  why: { code: ErrorCode; message: string; details?: Record<string, unknown> },
  refused?: Settlement,
): Promise<FilingFee> {
  const v1 = buildRequirements(chain, {
    payTo: chain.factory,
    paymentRef: randomBytes32(),
    filingFee: t.params.filingFee,
    payer: t.plaintiff,
    stake: t.stake,
    resource: t.resource,
    description: `Filing fee for a docket case by ${t.plaintiff} against ${t.defendant}`,
    ...(t.discovery ? { outputSchema: bazaarOutputSchemaV1(t.discovery.route) } : {}),
  });
  const token = await tokenFee(chain, t.params);
  const accepts = requirementsV2({
    chainId: chain.chainId,
    payTo: chain.factory,
    filingFee: t.params.filingFee,
    token: token?.fee,
    chainAheadSeconds: token ? token.chainTime - Math.floor(Date.now() / 1000) : 0,
    nativeExtra: v1.extra,
  });
  const extensions = t.discovery && bazaarExtensions(t.discovery.route, t.discovery.door);
  const v2 = paymentRequiredV2(accepts, { url: t.resource, description: v1.description }, why.code, extensions);
  const payment = { required: { v1: paymentRequiredBody(v1, why), v2 }, ...(refused ? { settlement: refused } : {}) };
  return { paid: false, body: v2, payment };
}

/**
 * A fee token's EIP-712 domain (name, version: fixed for a deployed token) and how far the chain's
 * clock is from the wall clock, read together and remembered for 30 s, so a 402 built
 * from cached court parameters costs no request, and a refused proof stays within the write budget.
 * The clock offset only widens `maxTimeoutSeconds`; half a minute of drift in it is harmless.
 */
const domains = new LRUCache<string, { name: string; version: string; offset: number }>({
  max: 100,
  ttl: 30_000,
});

/** The court's token fee, when it takes one, with the chain time. */
async function tokenFee(
  chain: ChainAccess,
  p: CourtParamsView,
): Promise<{ fee: TokenFee; chainTime: number } | undefined> {
  if (isAddressEqual(p.feeToken, zeroAddress)) return undefined;
  const key = `${chain.chainId}:${p.feeToken}`;
  const now = () => Math.floor(Date.now() / 1000);
  let d = domains.get(key);
  if (!d) {
    const read = await readTokenDomain(chain, p.feeToken);
    d = { name: read.name, version: read.version, offset: read.chainTime - now() };
    domains.set(key, d);
  }
  return {
    fee: { token: p.feeToken, fee: p.tokenFilingFee, name: d.name, version: d.version },
    chainTime: now() + d.offset,
  };
}
