/** Every machine-readable error code docket answers with, and its HTTP status. */
export const errorStatus = {
  INVALID_ADDRESS: 400,
  MISSING_FIELD: 400,
  INVALID_JSON: 400,
  INVALID_INPUT: 400,
  /** The X-PAYMENT header is not base64 JSON of the x402 v1 payload docket takes. */
  PAYMENT_MALFORMED: 400,
  PAYMENT_REQUIRED: 402,
  /** Payment proofs that do not hold (src/payments/verify.ts); each 402 carries the requirements again. */
  PAYMENT_NOT_FOUND: 402,
  PAYMENT_FAILED: 402,
  PAYMENT_WRONG_PAYER: 402,
  PAYMENT_WRONG_RECIPIENT: 402,
  PAYMENT_INSUFFICIENT: 402,
  /** The signed authorization would not go through (signature, validity window, balance): docket's check or the facilitator's. */
  PAYMENT_INVALID: 402,
  /**
   * A webhook request's signed sign-in message does not hold: not an EIP-4361 message for this docket
   * (domain, chain), expired or not yet valid, or its signature is not its address's (docs/webhooks.md).
   */
  SIGNATURE_INVALID: 401,
  /** The sign-in message's nonce is not one docket issued, was used already, or expired: ask get_webhook_nonce for another. */
  NONCE_INVALID: 401,
  /** A browser page on an origin docket does not allow tried an MCP HTTP transport. */
  ORIGIN_NOT_ALLOWED: 403,
  /** A signed webhook request for what another address owns: a nonce issued to it, or its webhook. */
  NOT_OWNER: 403,
  CASE_NOT_FOUND: 404,
  /** No court with that id (list_courts lists them). */
  COURT_NOT_FOUND: 404,
  AGENT_NOT_REGISTERED: 404,
  /** No ERC-8183 job with that id on the job contract docket serves (list_jobs lists them). */
  JOB_NOT_FOUND: 404,
  NOT_FOUND: 404,
  /** No evidence with this CID in docket's store nor on any configured gateway. */
  EVIDENCE_NOT_FOUND: 404,
  /** No webhook with that id (list_webhooks lists an address's). */
  WEBHOOK_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYMENT_ALREADY_USED: 409,
  /** The address has as many webhooks as one may (docs/webhooks.md#limits): delete one first. */
  WEBHOOK_LIMIT_REACHED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  STAKE_BELOW_MINIMUM: 422,
  /**
   * A job step refused before anything is built, by a rule of the job's evaluation (the dispute
   * window is over, only the client may dispute, the job would expire before a ruling): `details.rule` names it.
   */
  JOB_STEP_REFUSED: 422,
  /** A webhook URL docket will not deliver to: not https outside the dev chain, credentials in it, a private or loopback address. */
  WEBHOOK_URL_REFUSED: 422,
  RATE_LIMITED: 429,
  CONTRACT_REVERT: 500,
  RPC_ERROR: 500,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  /** The node answers another chain id than docket serves: nothing is read or built for it. */
  CHAIN_MISMATCH: 503,
  /** The index cannot answer: docket runs without it (INDEX=off) or its database is unreachable. */
  INDEX_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

/**
 * The one error type of docket. Everything that goes wrong becomes one of these, and is turned
 * into an HTTP response in one place (src/doors/httpErrors.ts) and an MCP tool error in one place
 * (src/mcp/errors.ts).
 */
export class DocketError extends Error {
  override name = "DocketError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get status(): number {
    return errorStatus[this.code];
  }

  toEnvelope(): ErrorEnvelope {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

/** Anything thrown becomes a DocketError; the unexpected becomes INTERNAL_ERROR without leaking internals. */
export function asDocketError(err: unknown): DocketError {
  if (err instanceof DocketError) return err;
  return new DocketError("INTERNAL_ERROR", "unexpected server error", undefined, { cause: err });
}
