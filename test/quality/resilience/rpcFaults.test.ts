import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cache } from "../../../src/cache/cache.js";
import { LruStore } from "../../../src/cache/lru.js";
import { connectChain } from "../../../src/chain/connect.js";
import { type Config, loadConfig } from "../../../src/config.js";
import { devAccount } from "../../../src/devnet/devAccounts.js";
import { type Devnet, startDevnet } from "../../../src/devnet/devnet.js";
import { EvidenceStore } from "../../../src/evidence/store.js";
import { createApp } from "../../../src/http/app.js";
import { makeLogger } from "../../../src/log.js";
import type { Ctx } from "../../../src/operations/kernel/operation.js";
import { operations } from "../../../src/operations/registry.js";
import { type Api, type RpcProxy, request, startRpcProxy, TEST_INDEX } from "../../support/index.js";

/**
 * The chain node misbehaving, for real: docket reads the seeded dev chain only through the
 * fault-injecting JSON-RPC proxy (test/support/rpcProxy.ts), and each fault is switched on after
 * the cache was filled.
 *
 * Stale-if-error needs time to pass (an entry must be past its TTL but inside STALE_MAX_SECONDS).
 * The app here is docket's own (createApp + the operation registry + connectChain), wired as
 * startServer wires it, except that its Cache and LRU store share a clock the test moves forward
 * instead of waiting minutes.
 *
 * Each fault ends with the node back and docket answering fresh reads by itself, from the same
 * process: nothing crashed (vitest would also fail the run on an unhandled rejection or error).
 */

const RPC_TIMEOUT_MS = 500;
/** How long a transient fault is retried before the read fails (RPC_RETRY_BUDGET_MS). */
const RPC_RETRY_BUDGET_MS = 1_000;
/** "No hang": every answer comes well within the retry budget and one node timeout, plus slack for a busy machine. */
const BOUND_MS = RPC_RETRY_BUDGET_MS + RPC_TIMEOUT_MS + 2_000;

let devnet: Devnet;
let proxy: RpcProxy;
let config: Config;
let ctx: Ctx;
let server: Server;
let url: string;
/** The cache's clock: real time at start, then moved by the tests. */
let now = Date.now();

/** An answer and how long it took. */
type Timed = Api & { ms: number };

async function call(path: string, post?: unknown): Promise<Timed> {
  const t0 = performance.now();
  const r = await request(url, path, post);
  return { ...r, ms: performance.now() - t0 };
}

function seeded(label: string): Address {
  const c = devnet.seed?.cases.find((x) => x.label.startsWith(label));
  if (!c) throw new Error(`no seeded case "${label}"`);
  return c.address;
}

function expectRpcError(r: Timed, what: string): void {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(500);
  expect(r.body.error.code, what).toBe("RPC_ERROR");
  expect(r.body.error.message, what).toMatch(/chain node/);
  expect(r.headers.get("cache-control"), what).toBe("no-store");
  expect(r.ms, `${what} took ${Math.round(r.ms)} ms`).toBeLessThan(BOUND_MS);
}

/** A clean cache and a clock far from anything set before (holds from writes included). */
async function freshCache(): Promise<void> {
  now += 24 * 3600_000;
  await ctx.cache.store.delete(["*"]);
}

async function heal(): Promise<void> {
  proxy.setLatency(0);
  await proxy.setFault("none");
}

/** Reads the test fills the cache with; every TTL here is <= 120 s. */
let primed: string[];
/** Reads never cached. */
let cold: string[];
/** Writes that must read the chain (the case, or a simulation as `from`). */
let writes: [string, Record<string, unknown>][];

beforeAll(async () => {
  devnet = await startDevnet({ seed: true });
  proxy = await startRpcProxy(devnet.rpcUrl);
  config = loadConfig({
    ...TEST_INDEX,
    LOG_LEVEL: "silent",
    RPC_URL: proxy.url,
    CHAIN_ID: "31337",
    FACTORY_ADDRESS: devnet.deployment.factory,
    REGISTRY_ADDRESS: devnet.deployment.registry,
    RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
    RPC_RETRY_BUDGET_MS: String(RPC_RETRY_BUDGET_MS),
  });
  const clock = () => now;
  ctx = {
    chain: await connectChain(config),
    cache: new Cache(new LruStore(config.CACHE_MAX_ENTRIES, clock), {
      holdMs: config.CACHE_HOLD_SECONDS * 1000,
      staleMs: config.STALE_MAX_SECONDS * 1000,
      now: clock,
    }),
    log: makeLogger(config.LOG_LEVEL),
    evidence: await EvidenceStore.open({ maxBytes: config.EVIDENCE_MAX_BYTES }),
  };
  const app = createApp(ctx, operations, { rateLimitPerMinute: 0, corsOrigins: config.CORS_ORIGINS });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const deliberating = seeded("deliberating");
  const judge = (await call(`/cases/${deliberating}`)).body.case.judges[1] as Address;
  const free = devAccount(15).address;
  primed = [
    `/cases/${seeded("active")}`,
    "/cases",
    "/stats/overview",
    "/judges/pool",
    `/agent/${devAccount(1).address}`,
  ];
  // Chain reads only: this docket has no index (what needs one says 503 INDEX_UNAVAILABLE, not RPC_ERROR).
  cold = [`/cases/${seeded("summoned")}`, "/courts", "/agent/discover"];
  writes = [
    [`/cases/${deliberating}/vote`, { plaintiff_wins: true }],
    [`/cases/${deliberating}/vote`, { plaintiff_wins: true, from: judge }],
    ["/judges/stake", { address: free, amount: "100000000000000000" }],
    ["/agent/self-register", { address: free, name: "outage-agent" }],
  ];
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  await proxy?.close();
  await devnet?.stop();
});

const FAULTS: [string, () => Promise<void>][] = [
  ["node down (connection refused)", () => proxy.setFault("down")],
  ["node answering HTTP 503", () => proxy.setFault("down", { status: 503 })],
  ["node accepting requests and never answering (timeout)", () => proxy.setFault("timeout")],
  [
    `node slow: 1.5 s a request, beyond RPC_TIMEOUT_MS=${RPC_TIMEOUT_MS}`,
    async () => {
      proxy.setLatency(1_500);
    },
  ],
  ["node answering garbage (200, not JSON)", () => proxy.setFault("garbage")],
  ["node answering JSON-RPC errors: -32603 internal error", () => proxy.setFault("error")],
  [
    "node answering JSON-RPC errors: -32005 limit exceeded",
    () => proxy.setFault("error", { code: -32005, message: "request rate exceeded" }),
  ],
];

describe("the chain node fails, behind a fault-injecting JSON-RPC proxy", () => {
  it.each(FAULTS)(
    "%s: stale reads within the window, RPC_ERROR otherwise, degraded health, recovery",
    async (_, fault) => {
      await freshCache();
      const before = new Map<string, Api>();
      for (const path of primed) {
        const r = await call(path);
        expect(r.status, path).toBe(200);
        expect(r.headers.get("x-cache"), path).toBe("MISS");
        before.set(path, r);
      }
      // Every TTL above has passed; STALE_MAX_SECONDS (300) has not.
      now += 200_000;
      await fault();
      try {
        // 1. What was cached is served, marked STALE, with its age, not to be reused.
        for (const [i, r] of (await Promise.all(primed.map((p) => call(p)))).entries()) {
          const what = `stale GET ${primed[i]}`;
          expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(200);
          expect(r.headers.get("x-cache"), what).toBe("STALE");
          expect(r.headers.get("age"), what).toBe("200");
          expect(r.headers.get("cache-control"), what).toBe("no-cache");
          expect(r.body, what).toEqual(before.get(primed[i] as string)?.body);
          expect(r.ms, `${what} took ${Math.round(r.ms)} ms`).toBeLessThan(BOUND_MS);
        }
        // 2. What was never cached fails fast.
        for (const [i, r] of (await Promise.all(cold.map((p) => call(p)))).entries()) {
          expectRpcError(r, `GET ${cold[i]}`);
        }
        // 3. Health says so, with 503.
        const health = await call("/health");
        expect(health.status).toBe(503);
        expect(health.body).toMatchObject({ status: "degraded", chainId: 31337, blockNumber: null, minimums: null });
        expect(health.ms).toBeLessThan(BOUND_MS);
        // 4. Writes: the chain's failure, never a contract refusal.
        for (const [i, r] of (await Promise.all(writes.map(([p, b]) => call(p, b)))).entries()) {
          expectRpcError(r, `POST ${writes[i]?.[0]} ${JSON.stringify(writes[i]?.[1])}`);
        }
        // 5. Staleness is bounded: past the stale window the cached answers are gone too.
        now += config.STALE_MAX_SECONDS * 1000;
        for (const [i, r] of (await Promise.all(primed.map((p) => call(p)))).entries()) {
          expectRpcError(r, `GET ${primed[i]} past the stale window`);
        }
      } finally {
        await heal();
      }
      // 6. The node is back: docket recovers by itself, with fresh reads.
      const health = await call("/health");
      expect(health.status).toBe(200);
      expect(health.body.status).toBe("ok");
      for (const path of [...primed, ...cold]) {
        const r = await call(path);
        expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
        expect(r.headers.get("x-cache"), path).toBe("MISS");
        if (before.has(path)) expect(r.body, path).toEqual(before.get(path)?.body);
      }
    },
  );

  it("a burst of 60 requests while the node hangs: every one is answered within the bound, none hangs", async () => {
    await freshCache();
    await proxy.setFault("timeout");
    try {
      const paths = Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0
          ? `/cases/0x${(i + 1).toString(16).padStart(40, "0")}`
          : i % 3 === 1
            ? cold[i % cold.length]
            : "/health",
      ) as string[];
      const t0 = performance.now();
      const answers = await Promise.all(paths.map((p) => call(p)));
      expect(performance.now() - t0).toBeLessThan(BOUND_MS);
      for (const [i, r] of answers.entries()) {
        if (paths[i] === "/health") expect(r.status).toBe(503);
        else expectRpcError(r, `GET ${paths[i]}`);
      }
    } finally {
      await heal();
    }
    expect((await call("/health")).status).toBe(200);
  });

  it("a node that says a call reverted: a write is refused (CONTRACT_REVERT), a read (views never revert) is the node failing", async () => {
    await freshCache();
    const path = `/cases/${seeded("active")}`;
    expect((await call(path)).headers.get("x-cache")).toBe("MISS");
    now += 200_000;
    const reverts: [number, string][] = [
      [3, "execution reverted"],
      // Hardhat-style: a revert reported as an internal error, in so many words.
      [-32603, "Error: VM Exception while processing transaction: reverted with reason string 'nope'"],
    ];
    for (const [code, message] of reverts) {
      await proxy.setFault("error", { code, message, methods: ["eth_call"] });
      try {
        const r = await call(path);
        expect(r.status, message).toBe(200);
        expect(r.headers.get("x-cache"), message).toBe("STALE");
        const cold = await call(`/cases/${seeded("summoned")}`);
        expect(cold.status, message).toBe(500);
        expect(cold.body.error.code, message).toBe("RPC_ERROR");
        const w = await call(writes[1]?.[0] as string, writes[1]?.[1]);
        expect(w.body.error.code, message).toBe("CONTRACT_REVERT");
      } finally {
        await heal();
      }
    }
  });
});
