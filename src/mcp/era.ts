import type { OperationResult } from "../operations/kernel/run.js";

/**
 * The two protocol eras one docket serves: `legacy` (2025-11-25 and before: initialize, sessions,
 * resources/subscribe) and `modern` (2026-07-28: per-request `_meta`, subscriptions/listen,
 * `ttlMs`/`cacheScope`). A server is built for one (src/mcp/server.ts's `era`).
 */
export type Era = "legacy" | "modern";

/**
 * A 2026-07-28 result's cache fields for an operation's answer: what is left of its TTL (the
 * `max-age` HTTP sends), shared-cacheable like the HTTP answer, since a read of the chain is the
 * same for everyone. Nothing for the 2025 era, whose results have no such fields.
 */
export function cacheFields(result: OperationResult, era: Era): { ttlMs?: number; cacheScope?: "public" } {
  if (era !== "modern") return {};
  return { ttlMs: Math.max(0, Math.round((result.cache?.maxAge ?? 0) * 1000)), cacheScope: "public" };
}
