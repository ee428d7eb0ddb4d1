import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Cache } from "./cache/cache.js";
import { LruStore } from "./cache/lru.js";
import { type Court, connectCourt } from "./chain/court.js";
import type { Config } from "./config.js";
import { createApp } from "./http/app.js";
import { type Logger, makeLogger } from "./log.js";
import type { Ctx } from "./operations/operation.js";
import { operations } from "./operations/registry.js";

export interface Docket {
  url: string;
  ctx: Ctx;
  server: Server;
  close(): Promise<void>;
}

/** Builds the shared context: chain (the dev chain unless RPC_URL is set), cache, logger. */
export async function createContext(config: Config, opts: { court?: Court; log?: Logger } = {}): Promise<Ctx> {
  const log = opts.log ?? makeLogger(config.LOG_LEVEL);
  const court = opts.court ?? (await connectCourt(config));
  const cache = new Cache(new LruStore(config.CACHE_MAX_ENTRIES), { holdMs: 120_000 });
  return { court, cache, log };
}

/** HTTP API + docs (+ MCP over HTTP) on one port. */
export async function startServer(config: Config, opts: { court?: Court; log?: Logger } = {}): Promise<Docket> {
  const ctx = await createContext(config, opts);
  const app = createApp(ctx, operations);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST;
  return {
    url: `http://${host}:${port}`,
    ctx,
    server,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections?.();
      await ctx.cache.close();
      if (!opts.court) await ctx.court.close();
    },
  };
}
