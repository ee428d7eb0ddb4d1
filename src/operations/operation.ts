import type { z } from "zod";
import type { Cache } from "../cache/cache.js";
import type { Court } from "../chain/court.js";
import type { ChainStatus } from "../chain/status.js";
import type { Logger } from "../log.js";

/** What every handler gets: the chain, the cache and a logger. Nothing else is shared. */
export interface Ctx {
  court: Court;
  cache: Cache;
  log: Logger;
  /** Whether the node still serves docket's chain (kept by the follower); unchecked when absent. */
  chain?: ChainStatus;
}

export type Toolset = "cases" | "judges" | "agents" | "payments" | "system";

export interface CachePolicy<I, O> {
  key: (input: I) => string;
  /** Seconds; may depend on the value (an active case lives 60 s, a resolved one 300 s). */
  ttl: (output: O) => number;
}

/**
 * A body with more to say than the body: an HTTP status or headers of its own (health's 503,
 * payment's 402), a TTL decided by the handler, or cache keys a write makes stale. Most handlers
 * return the bare body.
 */
export class HttpResult<O> {
  constructor(
    readonly body: O,
    readonly opts: { status?: number; headers?: Record<string, string>; ttl?: number; invalidate?: string[] } = {},
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
  http: { method: "GET" | "POST"; path: string };
  input: I;
  output: O;
  cache?: CachePolicy<z.output<I>, z.output<O>>;
  /** Cache keys a write makes stale (a trailing `*` matches a prefix). */
  invalidates?: (input: z.output<I>, output: z.output<O>) => string[];
  handler: (input: z.output<I>, ctx: Ctx, req: RequestInfo) => Promise<z.output<O> | HttpResult<z.output<O>>>;
  /** Example input for the docs. */
  example?: Partial<z.input<I>>;
  /** Answers even while the node serves the wrong chain (health, which reports it); all else refuses. */
  servesOnWrongChain?: boolean;
}

/** What a front end knows about the caller's request, beyond the validated input. */
export interface RequestInfo {
  transport: "http" | "mcp";
  headers: Record<string, string | undefined>;
  /** Absolute URL of the resource, for payment requirements. */
  resourceUrl?: string;
}

export function defineOperation<I extends z.ZodObject, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> {
  return op;
}
