import type { z } from "zod";
import type { Cache } from "../../cache/cache.js";
import type { ChainAccess } from "../../chain/access.js";
import type { ChainStatus } from "../../chain/status.js";
import type { ErrorCode } from "../../errors/errors.js";
import type { EvidenceStore } from "../../evidence/store.js";
import type { IndexAccess } from "../../index/access.js";
import type { Logger } from "../../log.js";
import type { PaymentOutcome } from "../../payments/filing.js";
import type { PaymentTerms } from "../../payments/x402.js";
import type { Facilitator } from "../../payments/x402v2.js";

/** What every handler gets: the chain, the cache and a logger. Nothing else is shared. */
export interface Ctx {
  chain: ChainAccess;
  cache: Cache;
  log: Logger;
  /** An x402 facilitator whose `/verify` checks token fees too (X402_FACILITATOR_URL, or the dev chain's own). */
  facilitator?: Facilitator;
  /** Whether the node still serves docket's chain (kept by the follower); unchecked when absent. */
  chainStatus?: ChainStatus;
  /** Evidence content: docket's store, read through the gateways (src/evidence/). */
  evidence: EvidenceStore;
  /** The index (src/index/, docs/index.md): every court event, the case tables; absent where docket runs without it. */
  index?: IndexAccess;
  /** Webhook settings (docs/webhooks.md); the defaults of a public chain when absent. */
  webhooks?: WebhookSettings;
}

/** What the webhook operations are told by the operator. */
export interface WebhookSettings {
  /** The EIP-4361 domain sign-in messages must name (WEBHOOKS_DOMAIN); else the request's host. */
  domain?: string;
  /** Plain http URLs taken: on the embedded dev chain only. */
  allowHttp: boolean;
  /** Loopback, private and link-local addresses taken (WEBHOOKS_ALLOW_PRIVATE=true). */
  allowPrivate: boolean;
  /** Sign-in nonces one address may take per hour (WEBHOOKS_SIGNINS_PER_HOUR): registration's rate limit. */
  signInsPerHour?: number;
  /** DNS servers endpoints are resolved with (WEBHOOKS_DNS_SERVERS); the system's resolver when absent. */
  dnsServers?: readonly string[];
}

/**
 * The groups tools are offered in (DOCKET_TOOLS names them), each with what it holds: every operation
 * belongs to one, and the OpenAPI document tags its operations with it.
 */
export const TOOLSET_DESCRIPTIONS = {
  cases: "Disputes and their lifecycle: filing, answering, evidence, votes, appeals, courts",
  judges: "Judge pool, stakes and validator statistics",
  agents: "Agent registration, discovery and inboxes",
  jobs: "ERC-8183 jobs judged by a court: escrow, submission, dispute, ruling",
  payments: "Payment-required filing and transaction verification",
  system: "Health and statistics",
} as const;
export type Toolset = keyof typeof TOOLSET_DESCRIPTIONS;
export const TOOLSETS = Object.keys(TOOLSET_DESCRIPTIONS) as Toolset[];

/** How a read is cached: the key its input is stored under (built in keys.ts). Its TTL comes with each answer. */
export interface CachePolicy<I> {
  key: (input: I) => string;
}

/** What an answer says beyond its body. */
export interface AnswerOptions {
  /** HTTP status (health's 503, payment's 402); 200 when absent. */
  status?: number;
  headers?: Record<string, string>;
  /**
   * Seconds a read's answer may be reused (the service interface, section 8.2), decided with the value in hand (an
   * active case lives 60 s, a resolved one 300 s). A cached read's answer without one is not stored.
   */
  ttl?: number;
  /** Cache keys a write makes stale (built in keys.ts; a trailing `*` matches a prefix). */
  invalidate?: string[];
  /** Over HTTP, for an operation with `http.raw`: the bytes sent instead of the JSON body. */
  raw?: { bytes: Uint8Array; contentType: string };
  /** x402: what happened to the payment the answer is about; HTTP says it in headers, MCP in `_meta`. */
  payment?: PaymentOutcome;
}

/**
 * A handler's answer when the body is not all it has to say: a status or headers (every door
 * use them: MCP reads the status to tell an error result), a TTL, the keys a write makes stale.
 * A handler with nothing more to say returns the bare body.
 */
export class Answer<O> {
  constructor(
    readonly body: O,
    readonly opts: AnswerOptions = {},
  ) {}
}

/**
 * One docket operation, defined once. The HTTP routes, MCP tools, OpenAPI document and docs are
 * all generated from these.
 */
export interface Operation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  /** MCP tool name, snake_case. */
  name: string;
  title: string;
  /** For LLMs and humans alike: when to use it, what comes back, what to do next. */
  description: string;
  kind: "read" | "write";
  toolset: Toolset;
  http: {
    method: "GET" | "POST";
    path: string;
    /**
     * A POST whose body may be a file: a body that is not JSON is read as bytes (up to
     * EVIDENCE_MAX_BYTES) into `bytesField` (base64) with its Content-Type in `typeField`; a
     * multipart/form-data body's file part likewise, its other parts as fields.
     */
    upload?: { bytesField: string; typeField: string; types: readonly string[] };
    /**
     * A GET answered with the content itself (its `Answer` carries `raw`) rather than JSON; the
     * headers it answers with, declared for OpenAPI. MCP gets the JSON body.
     */
    raw?: { description: string; headers: Readonly<Record<string, string>> };
  };
  input: I;
  output: O;
  cache?: CachePolicy<z.output<I>>;
  handler: (input: z.output<I>, ctx: Ctx, req: RequestInfo) => Promise<z.output<O> | Answer<z.output<O>>>;
  /** What its 200 is, in the OpenAPI document (default: a write's unsigned transaction, a read's "OK"). */
  okDescription?: string;
  /** Example input for the docs. */
  example?: Partial<z.input<I>>;
  /** Answers even while the node serves the wrong chain (health, which reports it); all else refuses. */
  servesOnWrongChain?: boolean;
  /**
   * The error codes its handler raises; by default the chain's (`chainErrors`). Those of the input's
   * validation, the transport, the rate limit, CHAIN_MISMATCH and `payment` are derived by the front
   * end. The OpenAPI document declares the statuses of these codes and no others.
   */
  errors?: readonly ErrorCode[];
  /** Statuses besides 200 that the handler answers with its own output, and what they mean (health's 503). */
  answers?: Readonly<Record<number, string>>;
  /** The payment it takes, if any: the headers its proof comes in and goes out with, its 402. */
  payment?: PaymentTerms;
}

/**
 * What any handler may meet on the chain: a node that cannot be read; for a write, a contract that
 * refuses the call it simulates (a read's refusal is a node fault, see run.ts).
 */
export function chainErrors(kind: Operation["kind"]): ErrorCode[] {
  return kind === "write" ? ["RPC_ERROR", "CONTRACT_REVERT"] : ["RPC_ERROR"];
}

/** What a door knows about the caller's request, beyond the validated input. */
export interface RequestInfo {
  transport: "http" | "mcp";
  headers: Record<string, string | undefined>;
  /** Absolute URL of the resource, for payment requirements. */
  resourceUrl?: string;
  /** Over MCP: the x402 PaymentPayload the call carries in `_meta["x402/payment"]` (the MCP binding). */
  payment?: unknown;
}

export function defineOperation<I extends z.ZodObject, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> {
  return op;
}
