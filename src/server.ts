import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Cache, type CacheStore } from "./cache/cache.js";
import { LruStore } from "./cache/lru.js";
import { SharedRateLimitStore } from "./cache/rateLimit.js";
import { RedisStore } from "./cache/redis.js";
import { type Court, connectCourt } from "./chain/court.js";
import { type Follower, followCourt } from "./chain/follower.js";
import type { Config } from "./config.js";
import { createApp } from "./http/app.js";
import { type Logger, makeLogger } from "./log.js";
import { type McpHttp, mountMcp } from "./mcp/http.js";
import type { Ctx } from "./operations/operation.js";
import { operations } from "./operations/registry.js";

export interface Docket {
  url: string;
  ctx: Ctx;
  server: Server;
  close(): Promise<void>;
}

/** The cache store the config asks for: Redis shared by replicas, or the bounded in-process LRU. */
function makeStore(config: Config, log: Logger): CacheStore {
  if (!config.REDIS_URL) return new LruStore(config.CACHE_MAX_ENTRIES);
  return new RedisStore(config.REDIS_URL, log);
}

/** Builds the shared context: chain (the dev chain unless RPC_URL is set), cache, logger. */
export async function createContext(config: Config, opts: { court?: Court; log?: Logger } = {}): Promise<Ctx> {
  const log = opts.log ?? makeLogger(config.LOG_LEVEL);
  const court = opts.court ?? (await connectCourt(config));
  const store = makeStore(config, log);
  if (store instanceof RedisStore && !(await store.ready())) {
    log.warn("redis is not reachable yet: reads are uncached until it is");
  }
  const cache = new Cache(store, {
    holdMs: config.CACHE_HOLD_SECONDS * 1000,
    staleMs: config.STALE_MAX_SECONDS * 1000,
  });
  return { court, cache, log };
}

/** HTTP API + docs + MCP over HTTP on one port, and the event follower that keeps the cache fresh. */
export async function startServer(
  config: Config,
  opts: { court?: Court; log?: Logger /** How long close() waits for in-flight requests. */; graceMs?: number } = {},
): Promise<Docket> {
  const ctx = await createContext(config, opts);
  const store = ctx.cache.store;
  let mcp: McpHttp | undefined;
  let app: ReturnType<typeof createApp>;
  try {
    app = createApp(ctx, operations, {
      rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
      corsOrigins: config.CORS_ORIGINS,
      // Replicas behind one balancer share one budget per client.
      ...(store instanceof RedisStore ? { rateLimitStore: new SharedRateLimitStore(store) } : {}),
      mount: (a) => {
        mcp = mountMcp(a, ctx, { host: config.HOST, tools: config.DOCKET_TOOLS });
      },
    });
  } catch (err) {
    // A bad DOCKET_TOOLS: do not leave the dev chain running behind the error.
    await ctx.cache.close();
    if (!opts.court) await ctx.court.close();
    throw err;
  }
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once("error", reject);
  });
  const follower: Follower | undefined =
    config.EVENT_POLL_MS > 0
      ? followCourt(ctx.court, ctx.cache, ctx.log, { intervalMs: config.EVENT_POLL_MS })
      : undefined;
  const { port } = server.address() as AddressInfo;
  const host = config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST;
  return {
    url: `http://${host}:${port}`,
    ctx,
    server,
    close: async () => {
      follower?.stop();
      // Open SSE streams would keep server.close() waiting forever.
      await mcp?.close();
      // Stop accepting, let in-flight requests finish (bounded), drop idle keep-alive sockets at once.
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      await Promise.race([closed, new Promise((r) => setTimeout(r, opts.graceMs ?? 10_000).unref())]);
      server.closeAllConnections();
      await ctx.cache.close();
      if (!opts.court) await ctx.court.close();
    },
  };
}
