import { type Address, encodeFunctionData, type Hex } from "viem";
import { z } from "zod";
import { caseFactoryAbi } from "../chain/abi/generated.js";
import type { ChainAccess } from "../chain/access.js";
import { DocketError, type ErrorCode } from "../errors/errors.js";
import { TX_HASH_PATTERN } from "../formats.js";

/**
 * x402 v1 as docket speaks it: the payment requirements of a 402, the `X-PAYMENT` header a client
 * retries with and the `X-PAYMENT-RESPONSE` header of the answer. The field names are x402 v1's;
 * the "exact" scheme here pays in the chain's native coin with an ordinary transaction that the
 * payer signs and broadcasts itself: `CaseFactory.payFilingFee(paymentRef)`, which records the
 * payment on chain so that `fileCase` can refuse an unpaid reference. The proof is that transaction's
 * hash (not x402's EIP-3009 signature: docket holds no key and settles nothing). Checking a proof on
 * chain is in verify.ts.
 */

export const X402_VERSION = 1;
/** x402's `asset` for the chain's native coin: the zero address. */
export const NATIVE_ASSET = "0x0000000000000000000000000000000000000000";
/** How long a client may take to pay and retry; the proof itself does not expire (it is single-use). */
export const PAYMENT_TIMEOUT_SECONDS = 600;
/** Beyond this an X-PAYMENT header is refused unread. */
const MAX_HEADER_LENGTH = 4096;

/** x402 v1's names for the chains it knows; any other chain is named by CAIP-2. */
const NETWORK_NAMES: Record<number, string> = {
  8453: "base",
  84532: "base-sepolia",
  43114: "avalanche",
  43113: "avalanche-fuji",
  137: "polygon",
  80002: "polygon-amoy",
  4689: "iotex",
  1329: "sei",
  1328: "sei-testnet",
};

/** The x402 `network` of a chain: its x402 v1 name when it has one, else CAIP-2 `eip155:<chainId>`. */
export function networkOf(chainId: number): string {
  return NETWORK_NAMES[chainId] ?? `eip155:${chainId}`;
}

const unsignedTxSchema = z.object({
  to: z.string(),
  value: z.string().describe("Wei, decimal string"),
  data: z.string(),
  chainId: z.number().int(),
});

/** One entry of `accepts`: x402 v1 PaymentRequirements, with docket's ready-to-sign payment in `extra`. */
export const paymentRequirementsV1Schema = z.object({
  scheme: z.literal("exact"),
  network: z.string().describe('x402 network: "eip155:<chainId>" for the dev chain and chains x402 v1 does not name'),
  maxAmountRequired: z.string().describe("The filing fee in wei, decimal string (pay at least this)"),
  payTo: z
    .string()
    .describe("The court's case factory: payFilingFee records the payment and forwards it to the fee recipient"),
  asset: z.literal(NATIVE_ASSET).describe("The zero address: the chain's native coin"),
  resource: z.string(),
  description: z.string(),
  mimeType: z.string(),
  outputSchema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("x402 Bazaar discovery (v1): the route's method, JSON body fields and an example answer"),
  maxTimeoutSeconds: z.number().int(),
  extra: z.object({
    unsigned_tx: unsignedTxSchema.describe("The fee payment, ready to sign as the payer"),
    instructions: z.string(),
    chainId: z.number().int(),
    payer: z.string().describe("The account that must sign the payment (the plaintiff)"),
    paymentRef: z.string().describe("The reference the payment is recorded under; the filing uses it"),
    stake: z.string().describe("The stake the filing transaction will carry, wei"),
    proof: z.string().describe("How to hand back the payment"),
  }),
});
/** x402 v1 PaymentRequirements (x402 v2's are `@x402/core`'s `PaymentRequirements`). */
export type PaymentRequirementsV1 = z.infer<typeof paymentRequirementsV1Schema>;

/**
 * x402 v1's error reasons (its `ErrorReasons`: the only values v1's `x402ResponseSchema` takes for
 * `error`, and its `SettleResponseSchema` for `errorReason`) that docket's refusals map to.
 */
export const V1_ERROR_REASONS = [
  "invalid_transaction_state",
  "invalid_payment",
  "invalid_exact_evm_payload_recipient_mismatch",
  "invalid_exact_evm_payload_authorization_value",
  "invalid_exact_evm_payload_authorization_valid_after",
  "invalid_exact_evm_payload_signature",
  "payment_expired",
  "insufficient_funds",
] as const;
export type V1ErrorReason = (typeof V1_ERROR_REASONS)[number];

/** Why a v2 authorization was refused (PAYMENT_INVALID's `details.reason`), in v1's words. */
const INVALID_REASONS: Record<string, V1ErrorReason> = {
  expired: "payment_expired",
  not_yet_valid: "invalid_exact_evm_payload_authorization_valid_after",
  insufficient_funds: "insufficient_funds",
  invalid_signature: "invalid_exact_evm_payload_signature",
};

/**
 * A refusal in x402 v1's words: the payment is not a mined, successful transaction
 * (`invalid_transaction_state`), it went elsewhere (`..._recipient_mismatch`), it was too small
 * (`..._authorization_value`), an authorization failed a check (`payment_expired`...), or anything
 * else about it (`invalid_payment`). PAYMENT_REQUIRED (no proof at all) has no reason: undefined.
 */
export function v1ErrorReason(code: ErrorCode, details?: Record<string, unknown>): V1ErrorReason | undefined {
  switch (code) {
    case "PAYMENT_REQUIRED":
      return undefined;
    case "PAYMENT_NOT_FOUND":
    case "PAYMENT_FAILED":
      return "invalid_transaction_state";
    case "PAYMENT_WRONG_RECIPIENT":
      return "invalid_exact_evm_payload_recipient_mismatch";
    case "PAYMENT_INSUFFICIENT":
      return "invalid_exact_evm_payload_authorization_value";
    case "PAYMENT_INVALID":
      return INVALID_REASONS[String(details?.reason)] ?? "invalid_payment";
    default:
      return "invalid_payment";
  }
}

/**
 * docket's 402 body: x402 v1's PaymentRequired (`x402Version`, `error` one of v1's error reasons when
 * a proof was refused, `accepts`: it parses with v1's `x402ResponseSchema` on a chain v1 names) and,
 * beside it, docket's error envelope in `docketError` (`{ code, message, details? }`) with docket's own
 * code (PAYMENT_REQUIRED, or why a proof was refused), as the v2 PAYMENT-REQUIRED's `error` has it.
 */
export const paymentRequiredSchema = z
  .object({
    x402Version: z.literal(X402_VERSION),
    error: z
      .enum(V1_ERROR_REASONS)
      .optional()
      .describe(
        "Why the proof given was refused, as one of x402 v1's error reasons; absent when none was given (docketError.code has docket's own code)",
      ),
    accepts: z.array(paymentRequirementsV1Schema),
    docketError: z
      .object({
        code: z.string().describe("PAYMENT_REQUIRED, or why the proof given was refused (PAYMENT_NOT_FOUND...)"),
        message: z.string(),
        details: z.record(z.string(), z.unknown()).optional(),
      })
      .describe("docket's error envelope: the code, a message and the facts behind a refusal"),
  })
  .describe("Payment required: pay the filing fee as accepts[0] says, then retry with the proof");
export type PaymentRequiredBody = z.infer<typeof paymentRequiredSchema>;

/** The v2 PaymentRequired as a result schema (over MCP it is the `structuredContent` of a 402). */
export const paymentRequiredV2Schema = z
  .object({
    x402Version: z.literal(2),
    error: z.string().describe("Why: PAYMENT_REQUIRED, or the code a proof was refused with"),
    resource: z.object({ url: z.string(), description: z.string(), mimeType: z.string() }),
    accepts: z.array(
      z.object({
        scheme: z.string().describe('"exact" (EIP-3009 token, what a stock x402 client pays) or "native-tx"'),
        network: z.string().describe("CAIP-2, eip155:<chainId>"),
        asset: z.string(),
        amount: z.string().describe("Atomic units of the asset"),
        payTo: z.string().describe("The court's case factory"),
        maxTimeoutSeconds: z.number().int(),
        extra: z.record(z.string(), z.unknown()),
      }),
    ),
    extensions: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("x402 extensions: `bazaar`, the discovery declaration of this tool (its input and output schemas)"),
  })
  .describe("x402 v2 payment required (the MCP binding's isError result): pay one of accepts and call again");

/** A header of the payment protocol, as the API description declares it. */
export interface PaymentHeader {
  name: string;
  description: string;
}

/** A header docket answers with, and on which statuses. */
export interface PaymentResponseHeader extends PaymentHeader {
  statuses: readonly number[];
}

/**
 * What an operation that takes a payment declares, for the doors to describe and allow: the
 * headers a proof comes in, the headers of the answer, the 402's body, and every code a proof can be
 * refused with. Another header of the protocol (x402 v2's PAYMENT-SIGNATURE, PAYMENT-REQUIRED,
 * PAYMENT-RESPONSE) is one more entry here; OpenAPI and CORS follow.
 */
export interface PaymentTerms {
  requestHeaders: readonly PaymentHeader[];
  responseHeaders: readonly PaymentResponseHeader[];
  /** The body of the 402 (payment required, or the proof given does not hold). */
  required: z.ZodType;
  /** The 402 over MCP, the x402 MCP binding's isError result: the v2 PaymentRequired. */
  mcpRequired: z.ZodType;
  refusals: readonly ErrorCode[];
}

/**
 * x402 as docket takes it: v2 (the proof in PAYMENT-SIGNATURE, the requirements in PAYMENT-REQUIRED,
 * the settlement in PAYMENT-RESPONSE; x402v2.ts) and v1 (X-PAYMENT, the 402 body, X-PAYMENT-RESPONSE).
 */
export const x402Terms: PaymentTerms = {
  requestHeaders: [
    {
      name: "PAYMENT-SIGNATURE",
      description:
        'x402 v2 payment: base64 of a PaymentPayload {"x402Version":2,"accepted":<one of PAYMENT-REQUIRED\'s accepts>,"payload":{...}}: for "exact", the EIP-3009 authorization and signature a stock x402 client makes (the fileCaseWithAuthorization transaction docket answers submits it: paid in the filing); for "native-tx", {"txHash":"0x<the mined payFilingFee>"}. Wins over X-PAYMENT.',
    },
    {
      name: "X-PAYMENT",
      description:
        'x402 v1 payment proof: base64 of {"x402Version":1,"scheme":"exact","network":"<accepts[0].network>","payload":{"txHash":"0x<the mined payment\'s hash>"}}. Omit it to get the 402 with the payment requirements.',
    },
  ],
  responseHeaders: [
    {
      name: "PAYMENT-REQUIRED",
      statuses: [402],
      description:
        "x402 v2 PaymentRequired, base64 JSON: x402Version 2, resource, accepts (first the token fee, scheme exact with an EIP-3009 token when the court takes one; then native-tx), error (the code).",
    },
    {
      name: "PAYMENT-RESPONSE",
      statuses: [200, 402],
      description:
        "x402 v2 SettleResponse, base64 JSON {success, errorReason?, transaction, network, payer}: answered to a PAYMENT-SIGNATURE proof.",
    },
    {
      name: "X-PAYMENT-RESPONSE",
      statuses: [200, 402],
      description:
        "x402 v1 settlement: base64 of {success, errorReason?, transaction, network, payer}. On a 402 only when a proof was given and refused.",
    },
  ],
  required: paymentRequiredSchema,
  mcpRequired: paymentRequiredV2Schema,
  refusals: [
    "PAYMENT_MALFORMED",
    "PAYMENT_REQUIRED",
    "PAYMENT_NOT_FOUND",
    "PAYMENT_FAILED",
    "PAYMENT_WRONG_PAYER",
    "PAYMENT_WRONG_RECIPIENT",
    "PAYMENT_INSUFFICIENT",
    "PAYMENT_INVALID",
    "PAYMENT_ALREADY_USED",
  ],
};

/** What the filing fee payment must be, and for what. */
export interface FeeTerms {
  /** Bazaar discovery for v1 (`bazaarOutputSchemaV1`), when the route declares it. */
  outputSchema?: Record<string, unknown>;
  /** The case factory, whose payFilingFee takes the fee. */
  payTo: Address;
  /** A fresh reference for this payment (random: one per 402). */
  paymentRef: Hex;
  filingFee: bigint;
  payer: Address;
  stake: bigint;
  resource: string;
  description: string;
}

/** The requirements of the filing fee on `court`'s chain, with the payment transaction ready to sign. */
export function buildRequirements(chain: ChainAccess, t: FeeTerms): PaymentRequirementsV1 {
  const network = networkOf(chain.chainId);
  const rpc = chain.publicRpcUrl ? ` (JSON-RPC ${chain.publicRpcUrl})` : "";
  const proof =
    `Once it is mined, repeat the request with header X-PAYMENT: base64 of ` +
    `{"x402Version":1,"scheme":"exact","network":"${network}","payload":{"txHash":"<the payment's hash>"}}` +
    " (over MCP: the payment_tx_hash argument).";
  return {
    scheme: "exact",
    network,
    maxAmountRequired: t.filingFee.toString(),
    payTo: t.payTo,
    asset: NATIVE_ASSET,
    resource: t.resource,
    description: t.description,
    mimeType: "application/json",
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
    maxTimeoutSeconds: PAYMENT_TIMEOUT_SECONDS,
    extra: {
      unsigned_tx: {
        to: t.payTo,
        value: t.filingFee.toString(),
        data: encodeFunctionData({ abi: caseFactoryAbi, functionName: "payFilingFee", args: [t.paymentRef] }),
        chainId: chain.chainId,
      },
      instructions:
        `Pays the filing fee of ${t.filingFee} wei into the court (payFilingFee at ${t.payTo}, which forwards it to the fee recipient). Sign it with the wallet of ${t.payer} ` +
        `(the payment must come from the plaintiff) and broadcast it to chain ${chain.chainId}${rpc}. ${proof}`,
      chainId: chain.chainId,
      payer: t.payer,
      paymentRef: t.paymentRef,
      stake: t.stake.toString(),
      proof,
    },
  };
}

/** The 402 body: why (`code`), and the requirements to pay and retry. */
export function paymentRequiredBody(
  requirements: PaymentRequirementsV1,
  why: { code: ErrorCode; message: string; details?: Record<string, unknown> },
): PaymentRequiredBody {
  const docketError = { code: why.code, message: why.message, ...(why.details ? { details: why.details } : {}) };
  const error = v1ErrorReason(why.code, why.details);
  return { x402Version: X402_VERSION, ...(error ? { error } : {}), accepts: [requirements], docketError };
}

const paymentPayloadV1Schema = z.object({
  x402Version: z.literal(X402_VERSION),
  scheme: z.literal("exact"),
  network: z.string(),
  payload: z.object({ txHash: z.string().regex(new RegExp(TX_HASH_PATTERN)) }),
});
/** The decoded `X-PAYMENT` header: `{ x402Version: 1, scheme: "exact", network, payload: { txHash } }`. */
export type PaymentPayloadV1 = z.infer<typeof paymentPayloadV1Schema>;

/** Base64 of JSON, as x402 headers carry it. */
export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

/** `X-PAYMENT` for a fee payment: what a client sends back once its payment is mined. */
export function encodePaymentHeader(txHash: Hex, chainId: number): string {
  return encodeBase64Json({
    x402Version: X402_VERSION,
    scheme: "exact",
    network: networkOf(chainId),
    payload: { txHash },
  });
}

function malformed(reason: string): DocketError {
  const example = { x402Version: 1, scheme: "exact", network: "<accepts[0].network>", payload: { txHash: "0x…" } };
  return new DocketError("PAYMENT_MALFORMED", `the X-PAYMENT header is malformed: ${reason}`, {
    reason,
    expected: `base64 of JSON ${JSON.stringify(example)}`,
  });
}

/**
 * Reads an `X-PAYMENT` header: base64 (standard or URL-safe) of the JSON payload, for this chain's
 * network (its x402 name or `eip155:<chainId>`). Anything else is 400 PAYMENT_MALFORMED.
 */
export function decodePaymentHeader(header: string, chainId: number): { txHash: Hex; network: string } {
  const text = header.trim();
  if (text.length === 0 || text.length > MAX_HEADER_LENGTH || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    throw malformed("not base64");
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, "base64").toString("utf8"));
  } catch {
    throw malformed("base64 of something that is not JSON");
  }
  const parsed = paymentPayloadV1Schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw malformed(`${issue?.path.join(".") || "(payload)"}: ${issue?.message ?? "wrong shape"}`);
  }
  const accepted = [networkOf(chainId), `eip155:${chainId}`];
  if (!accepted.includes(parsed.data.network)) {
    throw malformed(`network "${parsed.data.network}" is not this server's ("${accepted[0]}")`);
  }
  return { txHash: parsed.data.payload.txHash.toLowerCase() as Hex, network: parsed.data.network };
}

/** x402 v1 SettleResponse, carried base64 in `X-PAYMENT-RESPONSE` (v2's is `@x402/core`'s `SettleResponse`). */
export interface SettleResponseV1 {
  success: boolean;
  errorReason?: string;
  /** The payment's hash; "" when it was refused, as x402 has it. */
  transaction: string;
  network: string;
  payer: string;
}

/** The `X-PAYMENT-RESPONSE` header value. */
export function encodePaymentResponse(s: SettleResponseV1): string {
  return encodeBase64Json(s);
}

/** Reads an `X-PAYMENT-RESPONSE` header (for clients and tests). */
export function decodePaymentResponse(header: string): SettleResponseV1 {
  return JSON.parse(Buffer.from(header, "base64").toString("utf8")) as SettleResponseV1;
}
