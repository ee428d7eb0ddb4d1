import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Address, Hex } from "viem";
import { Cache, type CacheStore } from "./cache/cache.js";
import { LruStore } from "./cache/lru.js";
import { SharedRateLimitStore } from "./cache/rateLimit.js";
import { RedisStore, redisOptions } from "./cache/redis.js";
import type { ChainAccess } from "./chain/access.js";
import { connectChain } from "./chain/connect.js";
import { type CourtLog, type Follower, followCourt, type PollMeta } from "./chain/follower.js";
import { readJobParties } from "./chain/jobs.js";
import { readParticipants } from "./chain/reads/cases.js";
import { ChainStatus } from "./chain/status.js";
import { type Config, gatewaysOf } from "./config.js";
import { type Devnet, startDevnet } from "./devnet/devnet.js";
import { startDevFacilitator } from "./devnet/facilitator.js";
import { mountDiscovery } from "./discovery/http.js";
import { selectOperations } from "./doors/select.js";
import { eventFromChange, eventsFromLogs } from "./events/fromLogs.js";
import { EventHub } from "./events/hub.js";
import { RedisEventBridge } from "./events/redisBridge.js";
import { type EvidencePublisher, EvidenceStore } from "./evidence/store.js";
import { everyKey } from "./freshness/keys.js";
import { keysForEvent } from "./freshness/stale.js";
import { createApp } from "./http/app.js";
import { EventStreams } from "./http/events.js";
import { type IndexAccess, readIndex } from "./index/access.js";
import { latestEvents, storedHistory } from "./index/queries/events.js";
import { startIndex } from "./index/start.js";
import { Lifecycle } from "./lifecycle.js";
import { type Logger, makeLogger } from "./log.js";
import { type McpHttp, mountMcp } from "./mcp/http.js";
import type { Ctx, Operation } from "./operations/kernel/operation.js";
import { operations } from "./operations/registry.js";
import { webhooksMayUseHttp } from "./operations/webhooks/webhook.js";
import { WebhookWorker } from "./operations/webhooks/worker.js";
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
  /** The webhook deliveries, where this docket follows the chain (only the index's writer delivers). */
  webhooks?: WebhookWorker;
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
  /** Its parts, in the order they started (they close in reverse): see startServer. */
  parts: readonly string[];
  /** Closes every part, latest first (src/lifecycle.ts); the same promise however often it is called. */
  close(): Promise<void>;
}

/** The cache store the config asks for: Redis shared by replicas, or the bounded in-process LRU. */
function makeStore(config: Config, log: Logger): CacheStore {
  if (!config.REDIS_URL) return new LruStore(config.CACHE_MAX_ENTRIES);
  return new RedisStore(config.REDIS_URL, log);
}

/** The cache over the store the config asks for (a Redis not reachable yet is said, not fatal). */
async function makeCache(config: Config, log: Logger): Promise<Cache> {
  const store = makeStore(config, log);
  if (store instanceof RedisStore && !(await store.ready())) {
    log.warn("redis is not reachable yet: reads are uncached until it is");
  }
  return new Cache(store, {
    holdMs: config.CACHE_HOLD_SECONDS * 1000,
    staleMs: config.STALE_MAX_SECONDS * 1000,
  });
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
    // A backfill's steps are history: clients read them from the index (GET /events resumes from it).
    if (meta.catchingUp && !meta.change) return;
    const events = await eventsFromLogs(logs, {
      participantsOf: (cases) => readParticipants(ctx.chain, cases),
      jobPartiesOf: (ids) => {
        const a = ctx.chain.arbitration;
        return a ? readJobParties(ctx.chain, a, ids) : Promise.resolve(new Map());
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

/** What the parts every command starts may be handed instead of started. */
export interface PartOptions {
  /** A court connected already: served, never closed (the caller's). */
  chain?: ChainAccess;
  /** A dev chain booted already (a test run's shared one), served and stopped as one docket booted. */
  devnet?: Devnet;
  log?: Logger;
  /** An event follower will keep `ctx.chain` (EVENT_POLL_MS > 0): no probe per refused request. */
  followed?: boolean;
}

/**
 * The court docket serves, as parts of `life`: on the chain RPC_URL names ("chain connection"), or,
 * when it is unset, on the embedded dev chain ("dev chain", booted and seeded here with its evidence
 * published to `evidence`, or `opts.devnet`), its connection and its x402 facilitator ("dev
 * facilitator"). A court handed in (`opts.court`) is not a part: its owner closes it.
 */
async function openChain(
  config: Config,
  life: Lifecycle,
  evidence: EvidencePublisher,
  opts: PartOptions,
): Promise<{ chain: ChainAccess; dev?: DevChain }> {
  if (opts.chain) return { chain: opts.chain };
  if (config.RPC_URL)
    return {
      chain: await life.start(
        "chain connection",
        () => connectChain(config),
        (c) => c.close(),
      ),
    };
  // The dev world: the General court (public votes) and Agentic Commerce below it (hidden votes).
  const booted = opts.devnet;
  const devnet = await life.start(
    "dev chain",
    () => booted ?? startDevnet({ evidence }),
    (d) => d.stop(),
  );
  const access = await life.start(
    "chain connection",
    () => connectChain(config, devnet),
    (c) => c.close(),
  );
  const facilitator =
    config.X402_FACILITATOR_URL || config.DEV_FACILITATOR === "off"
      ? undefined
      : await life.start(
          "dev facilitator",
          () => startDevFacilitator(devnet.rpcUrl, devnet.chainId),
          (f) => f.stop(),
        );
  return {
    chain: access,
    dev: { devnet, facilitator: facilitator && { url: facilitator.url, address: facilitator.address } },
  };
}

/**
 * The parts every command starts first, in this order, on `life`: the evidence store, the chain
 * (see openChain), the cache, the index's store (INDEX=off: none). Returns the shared context (chain, cache, logger, evidence, the x402
 * facilitator) every door's operations run with.
 */
export async function startParts(
  config: Config,
  life: Lifecycle,
  opts: PartOptions = {},
): Promise<{ ctx: Ctx; dev?: DevChain }> {
  const log = opts.log ?? makeLogger(config.LOG_LEVEL);
  const evidence = await life.start(
    "evidence store",
    () => openEvidence(config, log),
    (e) => e.close(),
  );
  const { chain: access, dev } = await openChain(config, life, evidence, opts);
  const cache = await life.start(
    "cache",
    () => makeCache(config, log),
    (c) => c.close(),
  );
  // Without a follower (EVENT_POLL_MS=0, or MCP over stdio), a wrong chain id found at start is
  // asked again by the requests it refuses.
  const probe = opts.followed ? undefined : () => access.reader.getChainId();
  const chain = new ChainStatus(access.chainId, probe);
  await checkChainId(access, chain, log);
  const facilitatorUrl = config.X402_FACILITATOR_URL ?? dev?.facilitator?.url;
  const facilitator = facilitatorUrl ? httpFacilitator(facilitatorUrl) : undefined;
  const index = await startIndex(config, life, access, log, dev !== undefined);
  const webhooks = {
    domain: config.WEBHOOKS_DOMAIN,
    allowHttp: webhooksMayUseHttp(dev !== undefined, Number(access.chainId)),
    allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE === "true",
    signInsPerHour: config.WEBHOOKS_SIGNINS_PER_HOUR,
    dnsServers: config.WEBHOOKS_DNS_SERVERS?.split(","),
  };
  return { ctx: { chain: access, cache, log, chainStatus: chain, facilitator, evidence, index, webhooks }, dev };
}

/** `startParts` on a lifecycle of its own, for a caller that wants the context alone (closed by `life.close()`). */
export async function createContext(
  config: Config,
  opts: PartOptions = {},
): Promise<{ ctx: Ctx; dev?: DevChain; life: Lifecycle }> {
  const life = new Lifecycle(opts.log);
  return { ...(await startParts(config, life, opts)), life };
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
async function checkChainId(access: ChainAccess, chain: ChainStatus, log: Logger): Promise<void> {
  try {
    if (chain.observeChainId(await access.reader.getChainId()) === "mismatch") log.error(chain.problem);
  } catch (err) {
    log.warn({ err: (err as Error).message.split("\n")[0] }, "cannot read the node's chain id at start");
  }
}

/**
 * The event follower that keeps the cache fresh (a change made straight on chain shows within one
 * poll) and hands what it sees to the hub as events, when EVENT_POLL_MS > 0.
 */
export function followChain(ctx: Ctx, config: Config, hub: EventHub): Follower | undefined {
  if (config.EVENT_POLL_MS <= 0) return undefined;
  return followCourt(ctx.chain, ctx.log, {
    intervalMs: config.EVENT_POLL_MS,
    keysFor: keysForEvent,
    // What was mined needs no write hold; "all" when the follower cannot tell what changed.
    invalidate: (keys) => ctx.cache.invalidate(keys === "all" ? [everyKey.all] : keys, { hold: false }),
    confirmations: config.CONFIRMATIONS,
    status: ctx.chainStatus,
    maxLagSeconds: config.FOLLOWER_MAX_LAG_SECONDS,
    onEvents: publishFollowed(ctx, hub),
    // The index's writer, while this replica is it (docs/replicas.md): where to start (its cursor) and
    // each step stored before the cursor moves. A reader follows from the head, storing nothing.
    ...(ctx.index ? writerHooks(ctx.index) : {}),
  });
}

/** The follower's anchor and persist, handed to the index's writer while this replica is it. */
function writerHooks(index: IndexAccess) {
  return {
    anchor: (at: { genesis: Hex; head: bigint; target: bigint }) =>
      index.writer ? index.writer.anchor(at) : Promise.resolve(undefined),
    persist: (logs: CourtLog[], meta: PollMeta) =>
      index.writer ? index.writer.persist(logs, meta) : Promise.resolve(),
  };
}

/** The event hub as a part: what `GET /events` streams and MCP's subscriptions listen to. */
export function startHub(config: Config, life: Lifecycle, log: Logger): Promise<EventHub> {
  return life.start(
    "event hub",
    () => makeEventHub(config, log),
    (h) => h.close(),
  );
}

/**
 * The event follower as a part, when EVENT_POLL_MS > 0: anchored before it is handed on, so nothing
 * mined after start is missed (a node that is away: its timer retries).
 */
export async function startFollower(
  config: Config,
  life: Lifecycle,
  ctx: Ctx,
  hub: EventHub,
): Promise<Follower | undefined> {
  const follower = followChain(ctx, config, hub);
  if (!follower) return undefined;
  return life.start(
    "event follower",
    async () => {
      await follower.poll().catch(() => {});
      // Anchored: a backfill from the index's cursor starts now rather than at the first tick.
      if (ctx.index?.writer) void follower.poll().catch(() => {});
      // A reader tries to become the writer every other poll; when it does, its follower anchors
      // again on the stored cursor and reads on from there (the old writer's last step stored).
      ctx.index?.keepRole(config.EVENT_POLL_MS * 2, () => {
        follower.reanchor();
        void follower.poll().catch(() => {});
      });
      return follower;
    },
    (f) => f.stop(),
  );
}

/**
 * The webhook worker as a part, beside the follower that fills the index it delivers from (a docket
 * without one, like `docket mcp` over stdio, delivers nothing: the `docket start` beside it does).
 */
async function startWebhooks(
  config: Config,
  life: Lifecycle,
  ctx: Ctx,
  follower: Follower | undefined,
  log: Logger,
): Promise<WebhookWorker | undefined> {
  if (!follower || !ctx.index || config.WEBHOOKS_POLL_MS === 0) return undefined;
  return life.start(
    "webhook deliveries",
    async () => {
      const worker = new WebhookWorker(
        ctx,
        {
          pollMs: config.WEBHOOKS_POLL_MS,
          timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
          concurrency: config.WEBHOOKS_CONCURRENCY,
          perSecond: config.WEBHOOKS_PER_SECOND,
          retryForMs: config.WEBHOOKS_RETRY_HOURS * 3_600_000,
          allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE === "true",
          dnsServers: config.WEBHOOKS_DNS_SERVERS?.split(","),
        },
        log,
      );
      worker.start();
      return worker;
    },
    (w) => w.close(),
  );
}

/** The doors on one express app: HTTP routes, MCP over HTTP, the explorer, `GET /events`. */
interface Doors {
  app: ReturnType<typeof createApp>;
  streams: EventStreams;
  mcp?: McpHttp;
  explorer?: { close(): void };
}

/** Every operation over HTTP, the DOCKET_TOOLS selection as MCP tools, the explorer, on one app. */
function buildDoors(config: Config, ctx: Ctx, hub: EventHub, tools: Operation[]): Doors {
  const store = ctx.cache.store;
  const history = ctx.index ? storedHistory(ctx.index.db) : undefined;
  const streams = new EventStreams(
    hub,
    ctx.log,
    {
      maxStreams: config.EVENTS_MAX_STREAMS,
      maxQueuedBytes: config.EVENTS_MAX_QUEUED_BYTES,
      pingMs: config.EVENTS_PING_MS,
    },
    history,
  );
  const doors: Omit<Doors, "app"> = { streams };
  const app = createApp(ctx, operations, {
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
      doors.mcp = mountMcp(a, ctx, {
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
        history,
        resourcePageSize: config.MCP_RESOURCE_PAGE_SIZE,
        json: { maxBytes: config.MCP_MAX_BODY_BYTES, maxDepth: config.JSON_MAX_DEPTH },
      });
      mountDiscovery(a, { operations, tools, security });
      doors.explorer = mountExplorer(a, ctx, operations, {
        events: hub,
        security,
        stored: (n) => readIndex(ctx, (index) => latestEvents(index.db, n)),
      });
    },
  });
  return { ...doors, app };
}

/**
 * The HTTP server on PORT and HOST, once it listens. Express 5 calls back on a failure to listen
 * too (a port in use), so the callback asks the server whether it listens.
 */
function listen(app: Doors["app"], config: Config): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, (err?: Error) => {
      if (s.listening) resolve(s);
      else reject(err ?? new Error(`cannot listen on ${config.HOST}:${config.PORT}`));
    });
    s.once("error", reject);
  });
}

/**
 * Closing the HTTP server: the streams end at once (open ones would keep `server.close()` waiting
 * forever), in-flight requests finish within `graceMs`, idle keep-alive sockets drop at once.
 */
async function closeServer(server: Server, doors: Doors, graceMs: number): Promise<void> {
  doors.streams.close();
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeIdleConnections();
  // MCP ends its streams at once and its stateless handlers once their in-flight calls are answered.
  await doors.mcp?.close(graceMs);
  // The sockets of the streams MCP just ended are idle now: drop them too.
  server.closeIdleConnections();
  await Promise.race([closed, new Promise((r) => setTimeout(r, graceMs).unref())]);
  server.closeAllConnections();
}

/**
 * `docket start`: the HTTP API, docs, explorer and MCP over HTTP on one port. Its parts, started in
 * this order on one lifecycle and closed in reverse by `close()`: the evidence store, the chain (dev
 * chain, chain connection, dev facilitator), the cache, the event hub, the doors (built, not yet
 * serving), the event follower (anchored), the HTTP server. A part that fails to start closes those before it.
 */
export async function startServer(
  config: Config,
  opts: {
    chain?: ChainAccess;
    /** A dev chain booted already (a test run's shared one), served and stopped as one docket booted. */
    devnet?: Devnet;
    log?: Logger /** How long close() waits for in-flight requests. */;
    graceMs?: number;
    /** The lifecycle its parts start on (default: one of its own); `close()` closes it. */
    life?: Lifecycle;
  } = {},
): Promise<Docket> {
  // A bad DOCKET_TOOLS fails here, before the dev chain boots.
  const tools = selectOperations(operations, config.DOCKET_TOOLS);
  const log = opts.log ?? makeLogger(config.LOG_LEVEL);
  const life = opts.life ?? new Lifecycle(log);
  const { ctx, dev } = await startParts(config, life, { ...opts, log, followed: config.EVENT_POLL_MS > 0 });
  const hub = await startHub(config, life, log);
  const doors = await life.start(
    "doors",
    () => buildDoors(config, ctx, hub, tools),
    (d) => {
      d.explorer?.close();
      d.streams.close();
    },
  );
  const follower = await startFollower(config, life, ctx, hub);
  const webhooks = await startWebhooks(config, life, ctx, follower, log);
  const graceMs = opts.graceMs ?? 10_000;
  const server = await life.start(
    "http server",
    () => listen(doors.app, config),
    (s) => closeServer(s, doors, graceMs),
  );
  const { port } = server.address() as AddressInfo;
  const host = config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST;
  return {
    url: `http://${host}:${port}`,
    ctx,
    server,
    dev,
    follower,
    webhooks,
    events: hub,
    parts: life.parts,
    get sseSessions() {
      return doors.mcp?.sseSessions ?? 0;
    },
    get httpSessions() {
      return doors.mcp?.httpSessions ?? 0;
    },
    get eventStreams() {
      return doors.streams.size;
    },
    close: () => life.close(),
  };
}
