import type { z } from "zod";
import type { CacheStatus } from "../cache/cache.js";
import { wrapChainError } from "../errors/chain.js";
import { DocketError } from "../errors/errors.js";
import { type Ctx, HttpResult, type Operation, type RequestInfo } from "./operation.js";
import { validationError } from "./schemas.js";

export interface OperationResult {
  body: unknown;
  status: number;
  headers: Record<string, string>;
  cache?: { status: CacheStatus; maxAge: number };
}

/**
 * Runs one operation for any front end: validate, read through the cache or call the handler,
 * invalidate what a write makes stale. Every failure leaves as a DocketError.
 */
export async function runOperation(op: Operation, raw: unknown, ctx: Ctx, req: RequestInfo): Promise<OperationResult> {
  const parsed = op.input.safeParse(raw ?? {});
  if (!parsed.success) throw validationError(parsed.error, raw);
  const input = parsed.data as z.output<typeof op.input>;
  // No read of another chain, no transaction or payment requirements for a chain docket is not reading.
  if (!op.servesOnWrongChain && ctx.chain?.mismatched) {
    await ctx.chain.recheck();
    ctx.chain.assertServing();
  }
  try {
    if (op.cache) {
      const policy = op.cache;
      let ttl: number | undefined;
      const cached = await ctx.cache.wrap(
        policy.key(input),
        (v) => ttl ?? policy.ttl(v),
        async () => {
          const r = unwrap(await op.handler(input, ctx, req));
          ttl = r.ttl;
          return r.body;
        },
        // Only the chain being unreachable justifies an old answer; a refusal or a 404 does not.
        (err) => classify(op, err).code === "RPC_ERROR",
      );
      return {
        body: cached.value,
        status: 200,
        headers: cached.age === undefined ? {} : { Age: String(cached.age) },
        cache: { status: cached.status, maxAge: cached.maxAge },
      };
    }
    const { body, status, headers, invalidate } = unwrap(await op.handler(input, ctx, req));
    if (op.kind === "write" && status < 300) {
      await ctx.cache.invalidate([...(op.invalidates?.(input, body) ?? []), ...invalidate]);
    }
    return { body, status, headers };
  } catch (err) {
    throw classify(op, err);
  }
}

/** The cache key a read's raw input validates to; undefined for a write or input that does not validate. */
export function cacheKeyOf(op: Operation, raw: unknown): string | undefined {
  if (!op.cache) return undefined;
  const parsed = op.input.safeParse(raw ?? {});
  return parsed.success ? op.cache.key(parsed.data as z.output<typeof op.input>) : undefined;
}

/**
 * A read's answer when it is fresh in the in-process cache, computed without awaiting anything (a
 * cache hit is most of the traffic). Undefined for anything else: a miss, a shared store; the
 * caller then goes through `runOperation`, which decides.
 */
export function cachedResult(key: string, ctx: Ctx): OperationResult | undefined {
  if (ctx.chain?.mismatched) return undefined;
  const hit = ctx.cache.peek(key);
  if (!hit) return undefined;
  return { body: hit.value, status: 200, headers: {}, cache: { status: hit.status, maxAge: hit.maxAge } };
}

/** A chain failure as a DocketError. Our views never refuse: a read that "reverts" ran out of gas or met a broken node. */
function classify(op: Operation, err: unknown): DocketError {
  const e = wrapChainError(err, { operation: op.name });
  if (op.kind === "read" && e.code === "CONTRACT_REVERT") {
    const message = "the chain could not complete the read (out of gas or a node fault)";
    return new DocketError("RPC_ERROR", message, e.details, { cause: err });
  }
  return e;
}

function unwrap(r: unknown) {
  if (r instanceof HttpResult) {
    const o = r.opts;
    return {
      body: r.body as unknown,
      status: o.status ?? 200,
      headers: o.headers ?? {},
      ttl: o.ttl,
      invalidate: o.invalidate ?? [],
    };
  }
  return { body: r, status: 200, headers: {} as Record<string, string>, ttl: undefined, invalidate: [] as string[] };
}
