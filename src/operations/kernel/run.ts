import type { z } from "zod";
import type { CacheStatus } from "../../cache/cache.js";
import { wrapChainError } from "../../errors/chain.js";
import { DocketError } from "../../errors/errors.js";
import type { PaymentOutcome } from "../../payments/filing.js";
import { Answer, type Ctx, type Operation, type RequestInfo } from "./operation.js";
import { validationError } from "./schemas.js";

/** What an operation answered, as every door sends it. */
export interface OperationResult {
  body: unknown;
  status: number;
  headers: Record<string, string>;
  cache?: { status: CacheStatus; maxAge: number };
  /** The content an HTTP answer sends instead of the JSON body (an operation with `http.raw`). */
  raw?: { bytes: Uint8Array; contentType: string };
  /** x402: what happened to a payment (src/payments/filing.ts); each door says it its way. */
  payment?: PaymentOutcome;
}

/**
 * A request's input, validated once, and for a read the cache key it is stored under. Inputs are
 * never mutated, so a door may keep one and reuse it for the same request (HTTP does, per GET URL).
 */
export interface Prepared {
  input: unknown;
  key?: string;
}

/** Validates raw input for `op` (throws docket's validation errors) and computes its cache key. */
export function prepare(op: Operation, raw: unknown): Prepared {
  const parsed = op.input.safeParse(raw ?? {});
  if (!parsed.success) throw validationError(parsed.error, raw);
  const input = parsed.data as z.output<typeof op.input>;
  return op.cache ? { input, key: op.cache.key(input) } : { input };
}

/**
 * Runs one operation for any door. A read fresh in the in-process cache is answered at once,
 * without awaiting anything (a cache hit is most of the traffic); everything else returns a promise:
 * read through the cache or call the handler, then invalidate what a write makes stale. Every
 * failure leaves as a DocketError.
 *
 * @example
 * const r = run(op, prepare(op, raw), ctx, req);
 * if (r instanceof Promise) r.then(send, fail); else send(r);
 */
export function run(
  op: Operation,
  prepared: Prepared,
  ctx: Ctx,
  req: RequestInfo,
): OperationResult | Promise<OperationResult> {
  return cachedAnswer(prepared, ctx) ?? execute(op, prepared, ctx, req);
}

/** `prepare` then `run`, always as a promise: for callers with raw input and no hurry. */
export async function runOperation(op: Operation, raw: unknown, ctx: Ctx, req: RequestInfo): Promise<OperationResult> {
  return run(op, prepare(op, raw), ctx, req);
}

/**
 * A read's answer when it is fresh in the in-process cache, computed synchronously. Undefined for a
 * write, a miss, a shared store, or while the node serves another chain (then `run` refuses).
 */
export function cachedAnswer(prepared: Prepared, ctx: Ctx): OperationResult | undefined {
  if (prepared.key === undefined || ctx.chainStatus?.mismatched) return undefined;
  const hit = ctx.cache.peek(prepared.key);
  if (!hit) return undefined;
  return { body: hit.value, status: 200, headers: {}, cache: { status: hit.status, maxAge: hit.maxAge } };
}

async function execute(op: Operation, prepared: Prepared, ctx: Ctx, req: RequestInfo): Promise<OperationResult> {
  const input = prepared.input as z.output<typeof op.input>;
  // No read of another chain, no transaction or payment requirements for a chain docket is not reading.
  if (!op.servesOnWrongChain && ctx.chainStatus?.mismatched) {
    await ctx.chainStatus.recheck();
    ctx.chainStatus.assertServing();
  }
  try {
    if (prepared.key !== undefined) {
      // The TTL comes with the answer; the loader that fills the entry is this call's, so is its TTL.
      let ttl = 0;
      const cached = await ctx.cache.wrap(
        prepared.key,
        () => ttl,
        async () => {
          const r = unwrap(await op.handler(input, ctx, req));
          ttl = r.ttl ?? 0;
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
    const { body, status = 200, headers = {}, invalidate, raw, payment } = unwrap(await op.handler(input, ctx, req));
    if (op.kind === "write" && status < 300 && invalidate) await ctx.cache.invalidate(invalidate);
    return { body, status, headers, ...(raw ? { raw } : {}), ...(payment ? { payment } : {}) };
  } catch (err) {
    throw classify(op, err);
  }
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

function unwrap(r: unknown): Answer<unknown>["opts"] & { body: unknown } {
  return r instanceof Answer ? { ...r.opts, body: r.body } : { body: r };
}
