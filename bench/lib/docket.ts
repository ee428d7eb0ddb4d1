import type { Address } from "viem";
import { loadConfig } from "../../src/config.js";
import { type Docket, startServer } from "../../src/server.js";
import { chainEnv } from "../../test/support/index.js";

/** The environment of a docket pointed at a chain it did not start (the bench's dev chain or the proxy). */
export function docketEnv(rpcUrl: string, d: { factory: Address; registry: Address }): Record<string, string> {
  return {
    PORT: "0",
    HOST: "127.0.0.1",
    ...chainEnv({ rpcUrl, deployment: d }),
    RATE_LIMIT_PER_MINUTE: "0",
    LOG_LEVEL: "silent",
  };
}

/**
 * docket in this process, for the items that count JSON-RPC requests: the event follower is off
 * (EVENT_POLL_MS=0), or its polls would be counted with the requests being measured.
 */
export async function startInProcess(rpcUrl: string, d: { factory: Address; registry: Address }): Promise<Docket> {
  return startServer(loadConfig({ ...docketEnv(rpcUrl, d), EVENT_POLL_MS: "0" }));
}

/** Empties docket's cache (no write hold), so the next read of anything is a miss. */
export async function clearCache(docket: Docket): Promise<void> {
  await docket.ctx.cache.invalidate(["*"], { hold: false });
}
