import { z } from "zod";
import { ADDRESS_RE } from "./formats.js";

const address = z.string().regex(ADDRESS_RE, "must be a 0x-prefixed 20-byte hex address");
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** The environment docket reads, parsed once at start; docs/configuration.md lists them. */
export const configSchema = z.object({
  PORT: int(0, 65535).default(8787),
  HOST: z.string().min(1).default("127.0.0.1"),
  RPC_URL: z
    .string()
    .refine((v) => v.split(",").every((u) => /^https?:\/\/\S+$/.test(u.trim())), {
      error: "must be an http(s) URL, or several separated by commas (tried in order, with fallback)",
    })
    .optional(),
  /** More JSON-RPC URLs, tried in order after RPC_URL's when one fails (viem's fallback transport). */
  RPC_URLS: z
    .string()
    .refine((v) => v.split(",").every((u) => /^https?:\/\/\S+$/.test(u.trim())), {
      error: "must be http(s) URLs separated by commas",
    })
    .optional(),
  CHAIN_ID: int(1, Number.MAX_SAFE_INTEGER).optional(),
  /** What the chain is called in messages (default "chain <id>"; the embedded dev chain names itself). */
  CHAIN_NAME: z.string().min(1).max(100).optional(),
  FACTORY_ADDRESS: address.optional(),
  REGISTRY_ADDRESS: address.optional(),
  /** ERC-8004 Identity and Reputation registries (a real chain; the dev chain deploys its own). */
  ERC8004_IDENTITY_ADDRESS: address.optional(),
  ERC8004_REPUTATION_ADDRESS: address.optional(),
  /**
   * Arbitration (docs/arbitration.md) on a real chain: the arbitrator, the ERC-8183 job contract, its
   * payment token, and docket's evaluators as `court:address` pairs, comma separated (the dev chain deploys its own).
   */
  ARBITRATOR_ADDRESS: address.optional(),
  JOBS_ADDRESS: address.optional(),
  JOBS_TOKEN_ADDRESS: address.optional(),
  EVALUATORS: z
    .string()
    .regex(/^\s*\d+:0x[0-9a-fA-F]{40}\s*(,\s*\d+:0x[0-9a-fA-F]{40}\s*)*$/, {
      error: "must be court:address pairs separated by commas, e.g. 1:0xabc...,2:0xdef...",
    })
    .optional(),
  REDIS_URL: z.string().url().optional(),
  CACHE_MAX_ENTRIES: int(1, 10_000_000).default(10_000),
  RATE_LIMIT_PER_MINUTE: int(0, 10_000_000).default(600),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  CORS_ORIGINS: z.string().default("*"),
  /** Express "trust proxy": behind a load balancer, which hops to trust for the client's IP. */
  TRUST_PROXY: z
    .string()
    .regex(/^(false|true|\d+|loopback|linklocal|uniquelocal|[0-9a-fA-F.:/, ]+)$/, {
      error: "false, true, a hop count, loopback/linklocal/uniquelocal, or addresses/CIDRs",
    })
    .default("false"),
  DOCKET_TOOLS: z.string().optional(),
  RPC_TIMEOUT_MS: int(100, 120_000).default(5_000),
  /** A request with nothing sent after this long is answered 503 (the last resort against a hang; 0 = off). */
  RESPONSE_TIMEOUT_MS: int(0, 3_600_000).default(30_000),
  /** JSON-RPC requests per batch at most (hosted providers cap batches; a bigger one is split). */
  RPC_BATCH_MAX: int(1, 1_000).default(10),
  /** Blocks per eth_getLogs at most (the follower walks a longer range in steps, smaller ones if refused). */
  RPC_LOGS_RANGE_MAX: int(1, 1_000_000).default(500),
  /** How long a request may be retried on 429/Retry-After or a transient fault before it fails (RPC_ERROR). */
  RPC_RETRY_BUDGET_MS: int(0, 120_000).default(5_000),
  /** The event follower behind the chain head for longer than this: /health says degraded. */
  FOLLOWER_MAX_LAG_SECONDS: int(0, 86_400).default(60),
  STALE_MAX_SECONDS: int(0, 86_400).default(300),
  EVENT_POLL_MS: int(0, 3_600_000).default(2_000),
  /** Blocks on top of a block before the event follower acts on it (0: at once). */
  CONFIRMATIONS: int(0, 1_000).default(0),
  /** Open legacy SSE sessions at most; one more is refused with 503. */
  MCP_SSE_MAX_SESSIONS: int(1, 100_000).default(100),
  /** Bytes one SSE session may have queued unread; past it the session is closed. */
  MCP_SSE_MAX_QUEUED_BYTES: int(4_096, 1_073_741_824).default(1_048_576),
  /** Open Streamable HTTP sessions (/mcp/session) at most; one more initialize is refused with 503. */
  MCP_HTTP_MAX_SESSIONS: int(1, 100_000).default(100),
  /** A /mcp/session session with no request and no open stream for this long is closed. */
  MCP_HTTP_SESSION_IDLE_SECONDS: int(1, 86_400).default(600),
  /** Nesting of arrays and objects a JSON body may have at most (REST and MCP); deeper is refused with 400. */
  JSON_MAX_DEPTH: int(2, 10_000).default(64),
  /** Bytes a POSTed MCP message may have at most (/mcp, /mcp/session, /messages); more is refused with 413. */
  MCP_MAX_BODY_BYTES: int(1_024, 104_857_600).default(4_194_304),
  /** Cases per MCP resources/list page (the list is paged with cursors). */
  MCP_RESOURCE_PAGE_SIZE: int(1, 100).default(100),
  /** Open `GET /events` streams at most; one more is refused with 503. */
  EVENTS_MAX_STREAMS: int(1, 1_000_000).default(1_000),
  /** Bytes one event stream may have queued unread; past it the stream is cut off. */
  EVENTS_MAX_QUEUED_BYTES: int(4_096, 1_073_741_824).default(1_048_576),
  /** Recent events kept for streams resuming with Last-Event-ID. */
  EVENTS_BUFFER: int(1, 1_000_000).default(1_000),
  /** How often an idle event stream gets a `: ping` comment. */
  EVENTS_PING_MS: int(100, 3_600_000).default(15_000),
  CACHE_HOLD_SECONDS: int(0, 3_600).default(120),
  DEPLOYMENTS_DIR: z.string().default("deployments"),
  /**
   * An x402 facilitator whose `/verify` also checks filing fees paid in the court's token (x402
   * "exact", EIP-3009) before docket answers; never asked to settle (the filing transaction does).
   * Unset on the dev chain: docket starts its own (DEV_FACILITATOR).
   */
  X402_FACILITATOR_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, "must be an http(s) URL")
    .optional(),
  /** On the embedded dev chain without X402_FACILITATOR_URL: run the dev facilitator (a process of its own). */
  DEV_FACILITATOR: z.enum(["on", "off"]).default("on"),
  /**
   * The EIP-4361 domain webhook sign-in messages must name (docs/webhooks.md): set it to the host
   * users reach docket at. Unset: the host an HTTP request names, `localhost` over stdio.
   */
  WEBHOOKS_DOMAIN: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, "must be a host, optionally with :port")
    .optional(),
  /** Deliver webhooks to loopback, private and link-local addresses: for a receiver on the dev machine only. */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(["true", "false"]).default("false"),
  /** Webhook sign-ins (get_webhook_nonce) per address per hour: every create, list, change or delete takes one. */
  WEBHOOKS_SIGNINS_PER_HOUR: int(1, 100_000).default(30),
  /**
   * DNS servers (comma-separated `ip` or `ip:port`) webhook endpoints are resolved with, at
   * registration and at every connection; unset: the system's resolver.
   */
  WEBHOOKS_DNS_SERVERS: z
    .string()
    .regex(/^[0-9a-fA-F.:[\]]+(,[0-9a-fA-F.:[\]]+)*$/, "must be IP addresses (ip or ip:port), comma-separated")
    .optional(),
  /** How often the writer's webhook worker looks for events, reminders and retries due; 0: no deliveries. */
  WEBHOOKS_POLL_MS: int(0, 3_600_000).default(1_000),
  /** How long an endpoint has to answer one delivery. */
  WEBHOOKS_TIMEOUT_MS: int(100, 60_000).default(10_000),
  /** Deliveries in flight to one webhook at most. */
  WEBHOOKS_CONCURRENCY: int(1, 64).default(4),
  /** Deliveries started per second at most, over every webhook. */
  WEBHOOKS_PER_SECOND: int(1, 10_000).default(50),
  /** How long a failing delivery is retried, and a webhook may fail throughout before it is disabled. */
  WEBHOOKS_RETRY_HOURS: int(1, 720).default(72),
  /** Evidence's data directory (docs/evidence.md): its blocks and the media types docket was told. */
  EVIDENCE_DIR: z.string().min(1).default("data/evidence"),
  /** Largest evidence file published or read, in bytes (413 past it). */
  EVIDENCE_MAX_BYTES: int(1, 1_073_741_824).default(10 * 1024 * 1024),
  /** Bytes of evidence content kept in memory by CID (no TTL: content never changes). */
  EVIDENCE_CACHE_BYTES: int(0, 17_179_869_184).default(64 * 1024 * 1024),
  /** Evidence uploads (publish_evidence) per minute per client; 0 turns the limit off. */
  EVIDENCE_UPLOADS_PER_MINUTE: int(0, 1_000_000).default(30),
  /** Trustless IPFS gateways evidence is read through when docket's store lacks it, tried in order. */
  IPFS_GATEWAYS: z
    .string()
    .refine((v) => v.split(",").every((u) => /^https?:\/\/[^\s?#]+$/.test(u.trim())), {
      error: "must be http(s) gateway base URLs (no query), separated by commas",
    })
    .optional(),
  /** An IPFS Pinning Service API endpoint published evidence is pinned to, with its bearer token. */
  IPFS_PINNING_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, "must be an http(s) URL")
    .optional(),
  IPFS_PINNING_TOKEN: z.string().optional(),
  /**
   * The index's database (docs/index.md): a real Postgres (`postgres://` or `postgresql://`, shared by
   * replicas), or `memory://` for an embedded one that forgets at exit. Unset: the embedded Postgres
   * (PGlite) persisted in INDEX_DIR.
   */
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/\S+|memory:\/\/)$/, "must be a postgres:// URL, or memory:// for an in-memory store")
    .optional(),
  /** The embedded index database's directory (PGlite), when DATABASE_URL is unset: one process's at a time. */
  INDEX_DIR: z.string().min(1).default("data/index"),
  /**
   * The first block the index backfills from. Unset: the block the court's contracts were deployed
   * in, found on the chain (the registry's and the factory's code, by bisection); a node that keeps
   * no old state cannot say, and then this must be set.
   */
  INDEX_FROM_BLOCK: int(0, Number.MAX_SAFE_INTEGER).optional(),
  /** `off`: no index (every read the index answers says so: 503 INDEX_UNAVAILABLE). */
  INDEX: z.enum(["on", "off"]).default("on"),
  /**
   * How long the index keeps court events (docs/index.md#retention): `30d` or `12h` of chain time, or a
   * number of blocks (`100000`); older events are pruned by the writer. Unset: everything is kept.
   */
  INDEX_RETENTION: z
    .string()
    .regex(/^[1-9]\d{0,9}[dh]?$/, "must be a number of days (`30d`), hours (`12h`) or blocks (`100000`)")
    .transform(parseRetention)
    .optional(),
});

/** INDEX_RETENTION as seconds of chain time or a count of blocks. */
export type Retention = { seconds: number } | { blocks: number };

function parseRetention(s: string): Retention {
  const n = Number.parseInt(s, 10);
  if (s.endsWith("d")) return { seconds: n * 86_400 };
  if (s.endsWith("h")) return { seconds: n * 3_600 };
  return { blocks: n };
}

export type Config = z.infer<typeof configSchema>;

/** IPFS_GATEWAYS as a list. */
export const gatewaysOf = (config: Config): string[] =>
  (config.IPFS_GATEWAYS ?? "")
    .split(",")
    .map((g) => g.trim())
    .filter(Boolean);

/** Thrown with one readable line when the environment is not usable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, as a shell user expects from `FOO= npm start`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = configSchema
    .refine((c) => !c.IPFS_PINNING_URL || c.IPFS_PINNING_TOKEN, {
      error: "IPFS_PINNING_URL needs IPFS_PINNING_TOKEN",
      path: ["IPFS_PINNING_TOKEN"],
    })
    .safeParse(cleaned);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.join(".") || "config";
    throw new ConfigError(`invalid configuration: ${where}: ${first?.message ?? "invalid"}`);
  }
  return parsed.data;
}
