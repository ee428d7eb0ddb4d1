import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Address } from "viem";
import { Cache, type CacheStore } from "./cache/cache.js";
import { LruStore } from "./cache/lru.js";
import { SharedRateLimitStore } from "./cache/rateLimit.js";
import { RedisStore, redisOptions } from "./cache/redis.js";
import type { Court } from "./chain/access.js";
import { connectCourt } from "./chain/connect.js";
import { type CourtLog, type Follower, followCourt, type PollMeta } from "./chain/follower.js";
import { readJobParties } from "./chain/jobs.js";
import { readParticipants } from "./chain/reads/cases.js";
import { ChainStatus } from "./chain/status.js";
import { type Config, gatewaysOf } from "./config.js";
import { type Devnet, startDevnet } from "./devnet/devnet.js";
import { startDevFacilitator } from "./devnet/facilitator.js";
import { selectOperations } from "./doors/select.js";
import { eventFromChange, eventsFromLogs } from "./events/fromLogs.js";
import { EventHub } from "./events/hub.js";
import { RedisEventBridge } from "./events/redisBridge.js";
import { type EvidencePublisher, EvidenceStore } from "./evidence/store.js";
import { everyKey } from "./freshness/keys.js";
import { keysForEvent } from "./freshness/stale.js";
import { createApp } from "./http/app.js";
import { EventStreams } from "./http/events.js";
import { type Logger, makeLogger } from "./log.js";
import { type McpHttp, mountMcp } from "./mcp/http.js";
import type { Ctx } from "./operations/kernel/operation.js";
import { operations } from "./operations/registry.js";
import { httpFacilitator } from "./payments/x402v2.js";
import { mountExplorer } from "./web/explorer.js";

export interface Docket {
  url: string;
  ctx: Ctx;
  server: Server;
  /** The embedded dev chain this docket booted (RPC_URL unset). */
  dev?: DevChain;
  /** The event follower, when EVENT_POLL_MS > 0 (tests poll it at once). */
  follower?: Follower;
  /**
   * The court events this replica sees: its follower's, and with REDIS_URL every replica's. `GET
   * /events` streams them; MCP subscribes to them.
   */
  events: EventHub;
  /** Open legacy SSE sessions. */
  readonly sseSessions: number;
  /** Open `GET /events` streams. */
  readonly eventStreams: number;
  /** Open Streamable HTTP sessions (/mcp/session). */
  readonly httpSessions: number;
  close(): Promise<void>;
}

/** The cache store the config asks for: Redis shared by replicas, or the bounded in-process LRU. */
function makeStore(config: Config, log: Logger): CacheStore {
  if (!config.REDIS_URL) return new LruStore(config.CACHE_MAX_ENTRIES);
  return new RedisStore(config.REDIS_URL, log);
}

/**
 * The events hub of a replica: bounded by EVENTS_BUFFER and, with REDIS_URL, bridged to the other
 * replicas' hubs (a replica without a follower streams what the others follow).
 */
export function makeEventHub(config: Config, log: Logger): EventHub {
  const hub = new EventHub(config.EVENTS_BUFFER);
  if (config.REDIS_URL) hub.connect(new RedisEventBridge(config.REDIS_URL, log, redisOptions));
  return hub;
}

/**
 * What the follower hands on, as events: a reorg or reset first, then the logs, each case event
 * addressed to its case's parties and panel (read once per poll for all its cases).
 */
function publishFollowed(ctx: Ctx, hub: EventHub) {
  return async (logs: CourtLog[], meta: PollMeta) => {
    const events = await eventsFromLogs(logs, {
      participantsOf: (cases) => readParticipants(ctx.court, cases),
      jobPartiesOf: (ids) => {
        const a = ctx.court.arbitration;
        return a ? readJobParties(ctx.court, a, ids) : Promise.resolve(new Map());
      },
      onLookupError: (err) =>
        ctx.log.warn({ err: (err as Error).message.split("\n")[0] }, "events: could not read the cases' participants"),
    });
    hub.publish(meta.change ? [eventFromChange(meta.change), ...events] : events);
  };
}

/** What the composition root boots when RPC_URL is unset: the seeded dev chain and its x402 facilitator. */
export interface DevChain {
  devnet: Devnet;
  /** The dev chain's own x402 facilitator (a process of its own), unless another is named or DEV_FACILITATOR=off. */
  facilitator?: { url: string; address: Address };
}

/**
 * The court docket serves: on the chain RPC_URL names, or, when it is unset, on the embedded dev
 * chain, booted and seeded here (its evidence published to `evidence`) with its facilitator, or on
 * `booted`, a dev chain booted already (a test run's shared one). Closing the court stops the
 * facilitator and the dev chain (`booted`'s `stop`).
 */
export async function openCourt(
  config: Config,
  evidence: EvidencePublisher,
  booted?: Devnet,
): Promise<{ court: Court; dev?: DevChain }> {
  if (config.RPC_URL) return { court: await connectCourt(config) };
  // The dev world: the General court (public votes) and Agentic Commerce below it (hidden votes).
  const devnet = booted ?? (await startDevnet({ evidence }));
  try {
    const court = await connectCourt(config, devnet);
    const facilitator =
      config.X402_FACILITATOR_URL || config.DEV_FACILITATOR === "off"
        ? undefined
        : await startDevFacilitator(devnet.rpcUrl, devnet.chainId);
    const close = async () => {
      await facilitator?.stop();
      await devnet.stop();
    };
    const dev = { devnet, facilitator: facilitator && { url: facilitator.url, address: facilitator.address } };
    return { court: { ...court, close }, dev };
  } catch (err) {
    await devnet.stop();
    throw err;
  }
}

/** Builds the shared context: chain (the dev chain unless RPC_URL is set), cache, logger. */
export async function createContext(
  config: Config,
  opts: {
    court?: Court;
    /** A dev chain booted already, served as if docket had booted it (see openCourt). */
    devnet?: Devnet;
    log?: Logger /** An event follower will keep `ctx.chain` (startServer with EVENT_POLL_MS > 0). */;
    followed?: boolean;
  } = {},
): Promise<{ ctx: Ctx; dev?: DevChain }> {
  const log = opts.log ?? makeLogger(config.LOG_LEVEL);
  const evidence = await openEvidence(config, log);
  const { court, dev } = opts.court
    ? { court: opts.court, dev: undefined }
    : await openCourt(config, evidence, opts.devnet);
  const store = makeStore(config, log);
  if (store instanceof RedisStore && !(await store.ready())) {
    log.warn("redis is not reachable yet: reads are uncached until it is");
  }
  const cache = new Cache(store, {
    holdMs: config.CACHE_HOLD_SECONDS * 1000,
    staleMs: config.STALE_MAX_SECONDS * 1000,
  });
  // Without a follower (EVENT_POLL_MS=0, or MCP over stdio), a wrong chain id found at start is
  // asked again by the requests it refuses.
  const probe = opts.followed ? undefined : () => court.reader.getChainId();
  const chain = new ChainStatus(court.chainId, probe);
  await checkChainId(court, chain, log);
  const facilitatorUrl = config.X402_FACILITATOR_URL ?? dev?.facilitator?.url;
  const facilitator = facilitatorUrl ? httpFacilitator(facilitatorUrl) : undefined;
  return { ctx: { court, cache, log, chain, facilitator, evidence }, dev };
}

/** The evidence store the config asks for: on disk under EVIDENCE_DIR, read through IPFS_GATEWAYS. */
export function openEvidence(config: Config, log?: Logger): Promise<EvidenceStore> {
  return EvidenceStore.open({
    dir: config.EVIDENCE_DIR,
    maxBytes: config.EVIDENCE_MAX_BYTES,
    cacheBytes: config.EVIDENCE_CACHE_BYTES,
    gateways: gatewaysOf(config),
    pinning:
      config.IPFS_PINNING_URL && config.IPFS_PINNING_TOKEN
        ? { url: config.IPFS_PINNING_URL, token: config.IPFS_PINNING_TOKEN }
        : undefined,
    timeoutMs: config.RPC_TIMEOUT_MS,
    log,
  });
}

/**
 * The chain id check at start (one eth_chainId). A node on another chain does not stop docket: it
 * starts degraded (health 503, operations CHAIN_MISMATCH) and the follower clears it when the node is
 * right again. Without a follower (EVENT_POLL_MS=0) this is the only check.
 */
async function checkChainId(court: Court, chain: ChainStatus, log: Logger): Promise<void> {
  try {
    if (chain.observeChainId(await court.reader.getChainId()) === "mismatch") log.error(chain.problem);
  } catch (err) {
    log.warn({ err: (err as Error).message.split("\n")[0] }, "cannot read the node's chain id at start");
  }
}

/**
 * The event follower that keeps the cache fresh (a change made straight on chain shows within one
 * poll) and hands what it sees to the hub as events, when EVENT_POLL_MS > 0; shared by `docket
 * start` and `docket mcp`.
 */
export function followChain(ctx: Ctx, config: Config, hub: EventHub): Follower | undefined {
  if (config.EVENT_POLL_MS <= 0) return undefined;
  return followCourt(ctx.court, ctx.log, {
    intervalMs: config.EVENT_POLL_MS,
    keysFor: keysForEvent,
    // What was mined needs no write hold; "all" when the follower cannot tell what changed.
    invalidate: (keys) => ctx.cache.invalidate(keys === "all" ? [everyKey.all] : keys, { hold: false }),
    confirmations: config.CONFIRMATIONS,
    status: ctx.chain,
    maxLagSeconds: config.FOLLOWER_MAX_LAG_SECONDS,
    onEvents: publishFollowed(ctx, hub),
  });
}

/** HTTP API + docs + MCP over HTTP on one port, and the event follower that keeps the cache fresh. */
export async function startServer(
  config: Config,
  opts: {
    court?: Court;
    /** A dev chain booted already (a test run's shared one), served and stopped as one docket booted. */
    devnet?: Devnet;
    log?: Logger /** How long close() waits for in-flight requests. */;
    graceMs?: number;
  } = {},
): Promise<Docket> {
  // The composition root: every operation over HTTP, the DOCKET_TOOLS selection as MCP tools. A bad
  // DOCKET_TOOLS fails here, before the dev chain boots.
  const tools = selectOperations(operations, config.DOCKET_TOOLS);
  const { ctx, dev } = await createContext(config, { ...opts, followed: config.EVENT_POLL_MS > 0 });
  const store = ctx.cache.store;
  const hub = makeEventHub(config, ctx.log);
  const streams = new EventStreams(hub, ctx.log, {
    maxStreams: config.EVENTS_MAX_STREAMS,
    maxQueuedBytes: config.EVENTS_MAX_QUEUED_BYTES,
    pingMs: config.EVENTS_PING_MS,
  });
  let mcp: McpHttp | undefined;
  let explorer: { close(): void } | undefined;
  let app: ReturnType<typeof createApp>;
  try {
    app = createApp(ctx, operations, {
      rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
      uploadMaxBytes: config.EVIDENCE_MAX_BYTES,
      uploadsPerMinute: config.EVIDENCE_UPLOADS_PER_MINUTE,
      corsOrigins: config.CORS_ORIGINS,
      trustProxy: config.TRUST_PROXY,
      jsonMaxDepth: config.JSON_MAX_DEPTH,
      responseTimeoutMs: config.RESPONSE_TIMEOUT_MS,
      // Replicas behind one balancer share one budget per client.
      ...(store instanceof RedisStore ? { rateLimitStore: new SharedRateLimitStore(store) } : {}),
      events: streams,
      mount: (a, security, front) => {
        mcp = mountMcp(a, ctx, {
          security,
          front,
          host: config.HOST,
          operations,
          tools,
          corsOrigins: config.CORS_ORIGINS,
          sse: { maxSessions: config.MCP_SSE_MAX_SESSIONS, maxQueuedBytes: config.MCP_SSE_MAX_QUEUED_BYTES },
          sessions: {
            maxSessions: config.MCP_HTTP_MAX_SESSIONS,
            idleMs: config.MCP_HTTP_SESSION_IDLE_SECONDS * 1000,
          },
          events: hub,
          resourcePageSize: config.MCP_RESOURCE_PAGE_SIZE,
          json: { maxBytes: config.MCP_MAX_BODY_BYTES, maxDepth: config.JSON_MAX_DEPTH },
        });
        explorer = mountExplorer(a, ctx, operations, { events: hub, security });
      },
    });
  } catch (err) {
    // Whatever refuses to build the app: do not leave the dev chain running behind the error.
    await hub.close();
    await ctx.cache.close();
    if (!opts.court) await ctx.court.close();
    throw err;
  }
  const follower = followChain(ctx, config, hub);
  // Anchor before serving, so nothing mined after start is missed (a node that is away: the timer retries).
  await follower?.poll().catch(() => {});
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(config.PORT, config.HOST, () => resolve(s));
      s.once("error", reject);
    });
  } catch (err) {
    follower?.stop();
    await hub.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST;
  return {
    url: `http://${host}:${port}`,
    ctx,
    server,
    dev,
    follower,
    events: hub,
    get sseSessions() {
      return mcp?.sseSessions ?? 0;
    },
    get httpSessions() {
      return mcp?.httpSessions ?? 0;
    },
    get eventStreams() {
      return streams.size;
    },
    close: async () => {
      follower?.stop();
      explorer?.close();
      // Open streams (/events, MCP's SSE and sessions) would keep server.close() waiting forever.
      streams.close();
      // Stop accepting, let in-flight requests finish (bounded), drop idle keep-alive sockets at once.
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      const grace = opts.graceMs ?? 10_000;
      // MCP ends its streams at once and its stateless handlers once their in-flight calls are answered.
      await mcp?.close(grace);
      // The sockets of the streams MCP just ended are idle now: drop them too.
      server.closeIdleConnections();
      await Promise.race([closed, new Promise((r) => setTimeout(r, grace).unref())]);
      server.closeAllConnections();
      await hub.close();
      await ctx.cache.close();
      await ctx.evidence.close();
      if (!opts.court) await ctx.court.close();
    },
  };
}
