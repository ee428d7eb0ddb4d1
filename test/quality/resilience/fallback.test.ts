import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config.js";
import { devAccount } from "../../../src/devnet/devAccounts.js";
import { type Devnet, startDevnet } from "../../../src/devnet/devnet.js";
import { type Docket, startServer } from "../../../src/server.js";
import { type RpcProxy, startRpcProxy, TEST_INDEX } from "../../support/index.js";

/**
 * RPC_URL with two endpoints (viem's fallback transport, src/chain/client.ts): each request goes to
 * the first that answers. Both are proxies in front of the same dev chain, so the test can break
 * either one and count what reached each. The event follower runs throughout (every 100 ms), so
 * its polls meet every outage too.
 */

const RPC_TIMEOUT_MS = 500;
/** How long a failing request is retried (RPC_RETRY_BUDGET_MS) before it is an RPC_ERROR. */
const RPC_RETRY_BUDGET_MS = 1_000;
const BOUND_MS = RPC_RETRY_BUDGET_MS + 2 * RPC_TIMEOUT_MS + 2_000;

let devnet: Devnet;
let first: RpcProxy;
let second: RpcProxy;
let docket: Docket;

async function get(path: string) {
  const t0 = performance.now();
  const res = await fetch(`${docket.url}${path}`);
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field
  return { status: res.status, headers: res.headers, body: (await res.json()) as any, ms: performance.now() - t0 };
}

beforeAll(async () => {
  devnet = await startDevnet({ seed: false });
  first = await startRpcProxy(devnet.rpcUrl);
  second = await startRpcProxy(devnet.rpcUrl);
  // The first endpoint is down from the start: even the chain-id probe must fall back.
  await first.setFault("down");
  docket = await startServer(
    loadConfig({
      ...TEST_INDEX,
      PORT: "0",
      LOG_LEVEL: "silent",
      RPC_URL: `${first.url}, ${second.url}`,
      FACTORY_ADDRESS: devnet.deployment.factory,
      REGISTRY_ADDRESS: devnet.deployment.registry,
      RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
      RPC_RETRY_BUDGET_MS: String(RPC_RETRY_BUDGET_MS),
      RATE_LIMIT_PER_MINUTE: "0",
      EVENT_POLL_MS: "100",
    }),
  );
});

afterAll(async () => {
  await docket?.close();
  await first?.close();
  await second?.close();
  await devnet?.stop();
});

describe("RPC_URL with several endpoints", () => {
  it("the first is down (since start): docket starts, and reads, health and writes go to the second", async () => {
    expect(docket.ctx.chain.chainId).toBe(31337);
    second.reset();
    const health = await get("/health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "ok", chainId: 31337 });
    for (const path of ["/cases", "/stats/overview", "/judges/pool", `/agent/${devAccount(3).address}`]) {
      const r = await get(path);
      expect([200, 404], `${path}: ${JSON.stringify(r.body)}`).toContain(r.status);
      if (r.status === 404) expect(r.body.error.code).toBe("AGENT_NOT_REGISTERED");
      else expect(r.headers.get("x-cache")).toBe("MISS");
    }
    const write = await fetch(`${docket.url}/agent/self-register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: devAccount(12).address, name: "fallback-agent" }),
    });
    expect(write.status).toBe(200);
    expect(((await write.json()) as { unsigned_tx: { data: string } }).unsigned_tx.data).toMatch(/^0x/);
    expect(second.count).toBeGreaterThan(0);
    expect(first.count).toBe(0);
  });

  it.each([
    ["never answers (timeout)", () => first.setFault("timeout")],
    ["answers HTTP 503", () => first.setFault("down", { status: 503 })],
    ["answers garbage", () => first.setFault("garbage")],
    ["answers JSON-RPC errors", () => first.setFault("error")],
  ])("the first %s: answered by the second, within the bound", async (_, fault) => {
    await fault();
    try {
      first.reset();
      second.reset();
      const r = await get("/health");
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.status).toBe("ok");
      expect(r.ms).toBeLessThan(BOUND_MS);
      expect(first.count).toBeGreaterThan(0);
      expect(second.count).toBeGreaterThan(0);
    } finally {
      await first.setFault("none");
    }
  });

  it("the first comes back: it is used again, first", async () => {
    // A follower poll caught by the last fault (a timeout) falls over to the second when it times
    // out: let those finish before counting.
    await new Promise((r) => setTimeout(r, 2 * RPC_TIMEOUT_MS));
    first.reset();
    second.reset();
    expect((await get("/health")).body.status).toBe("ok");
    expect(first.count).toBeGreaterThan(0);
    expect(second.count).toBe(0);
  });

  it("every endpoint down: RPC_ERROR and degraded health, fast; either back: ok again", async () => {
    await docket.ctx.cache.store.delete(["*"]);
    await first.setFault("down");
    await second.setFault("down");
    try {
      const health = await get("/health");
      expect(health.status).toBe(503);
      expect(health.body.status).toBe("degraded");
      const r = await get("/cases?limit=7");
      expect(r.status).toBe(500);
      expect(r.body.error.code).toBe("RPC_ERROR");
      expect(r.ms).toBeLessThan(BOUND_MS);
      // The follower keeps polling through the outage (every 100 ms) without taking docket down.
      await new Promise((res) => setTimeout(res, 300));
      expect((await get("/health")).status).toBe(503);
    } finally {
      await second.setFault("none");
    }
    const back = await get("/cases?limit=7");
    expect(back.status).toBe(200);
    expect(back.headers.get("x-cache")).toBe("MISS");
    expect((await get("/health")).body.status).toBe("ok");
    await first.setFault("none");
    first.reset();
    expect((await get("/health")).body.status).toBe("ok");
    expect(first.count).toBeGreaterThan(0);
  });
});
