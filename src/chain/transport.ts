import {
  BaseError,
  createTransport,
  type EIP1193RequestFn,
  fallback,
  HttpRequestError,
  http,
  RpcRequestError,
  TimeoutError,
  type Transport,
} from "viem";

/** How docket talks to a JSON-RPC provider that sets limits (see docs/chain-faults.md). */
export interface RpcLimits {
  /** RPC_TIMEOUT_MS: one HTTP round trip at most. */
  timeoutMs: number;
  /** RPC_BATCH_MAX: JSON-RPC requests per batch at most (a bigger batch is split). */
  batchMax: number;
  /** RPC_LOGS_RANGE_MAX: blocks per eth_getLogs at most. */
  logsRangeMax: number;
  /** RPC_RETRY_BUDGET_MS: how long a request may be retried (429, Retry-After, transient faults) before it fails. */
  retryBudgetMs: number;
}

export const DEFAULT_RPC_LIMITS: RpcLimits = {
  timeoutMs: 5_000,
  batchMax: 10,
  logsRangeMax: 500,
  retryBudgetMs: 5_000,
};

/** First retry after about this long; each next one waits twice as long (with jitter), up to MAX_DELAY_MS. */
const BASE_DELAY_MS = 100;
const MAX_DELAY_MS = 2_000;

/** JSON-RPC codes providers use for "too many requests" (429 in the body, -32005 Infura, -32007 QuickNode). */
const RATE_CODES = new Set([429, -32005, -32007]);
/** HTTP statuses worth another try: the provider is busy or briefly away, not refusing the request itself. */
const RETRY_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * Whether a failed request may succeed if sent again: the provider rate-limited it, timed out, or was
 * briefly unreachable. A revert or any other answer about the request itself is final. A -32005 to
 * eth_getLogs is the provider refusing the range (the follower shrinks it), not a reason to resend it.
 */
export function isTransient(err: unknown, method?: string): boolean {
  if (!(err instanceof BaseError)) return false;
  const rpc = err.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  if (rpc && RATE_CODES.has(rpc.code)) return !(method === "eth_getLogs" && rpc.code === -32005);
  const httpErr = err.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null;
  if (httpErr) return httpErr.status === undefined || RETRY_STATUSES.has(httpErr.status);
  return err.walk((e) => e instanceof TimeoutError) !== null;
}

/** The wait a provider asked for in `Retry-After` (seconds or an HTTP date), in ms. */
function retryAfterMs(err: unknown): number | undefined {
  if (!(err instanceof BaseError)) return undefined;
  const httpErr = err.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null;
  const v = httpErr?.headers?.get("retry-after");
  if (!v) return undefined;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The transport every docket client uses: viem's http transport per URL (several URLs: viem's fallback,
 * each request going to the first that answers), batches split at `batchMax`, and one retry policy
 * over it. A transient failure is retried with exponential backoff and full jitter; a `Retry-After`
 * is honoured by every request of this transport (they all wait until then, none hammers the provider
 * meanwhile). Nothing waits past `retryBudgetMs` from its first try: a request that cannot be served in
 * time fails with the provider's last error (an RPC_ERROR to the caller), so no queue grows without bound.
 */
export function strictTransport(urls: readonly string[], limits: RpcLimits, opts: { batch?: boolean } = {}): Transport {
  const one = (url: string) =>
    http(url, {
      retryCount: 0,
      timeout: limits.timeoutMs,
      ...(opts.batch ? { batch: { batchSize: limits.batchMax, wait: 0 } } : {}),
    });
  const inner: Transport = urls.length > 1 ? fallback(urls.map(one), { retryCount: 0 }) : one(urls[0] as string);
  /** Until when the provider asked everyone to wait (a 429's Retry-After), shared by this transport's requests. */
  let coolUntil = 0;
  return (params) => {
    const t = inner({ ...params, retryCount: 0 });
    return createTransport(
      {
        key: "strict",
        name: "docket JSON-RPC",
        type: "strict",
        retryCount: 0,
        timeout: limits.timeoutMs,
        // biome-ignore lint/suspicious/noExplicitAny: passes the inner transport's requests through untyped
        request: (async (args: any, options: any) => {
          const deadline = Date.now() + limits.retryBudgetMs;
          for (let attempt = 0; ; attempt++) {
            const wait = coolUntil - Date.now();
            if (wait > 0) {
              if (Date.now() + wait > deadline)
                throw new BaseError("the JSON-RPC provider asked to wait past the retry budget");
              await sleep(wait);
            }
            try {
              return await t.request(args, options);
            } catch (err) {
              if (!isTransient(err, args.method)) throw err;
              const asked = retryAfterMs(err);
              if (asked !== undefined) coolUntil = Math.max(coolUntil, Date.now() + asked);
              const backoff = Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
              const delay = Math.max(asked ?? 0, backoff);
              if (Date.now() + delay > deadline) throw err;
              await sleep(delay);
            }
          }
        }) as EIP1193RequestFn,
      },
      t.value,
    );
  };
}
