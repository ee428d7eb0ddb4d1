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

/** The groups tools are offered in (DOCKET_TOOLS names them); every operation belongs to one. */
export const TOOLSETS = ["cases", "judges", "agents", "payments", "system"] as const;
export type Toolset = (typeof TOOLSETS)[number];

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
   * Seconds a read's answer may be reused (interface.md 8.2), decided with the value in hand (an
   * active case lives 60 s, a resolved one 300 s). A cached read's answer without one is not stored.
   */
  ttl?: number;
  /** Cache keys a write makes stale (built in keys.ts; a trailing `*` matches a prefix). */
  invalidate?: string[];
}

/**
 * A handler's answer when the body is not all it has to say: a status or headers (both front ends
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
  http: { method: "GET" | "POST"; path: string };
  input: I;
  output: O;
  cache?: CachePolicy<z.output<I>>;
  handler: (input: z.output<I>, ctx: Ctx, req: RequestInfo) => Promise<z.output<O> | Answer<z.output<O>>>;
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
