import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChainLease,
  chainEnv,
  leaseChain,
  mine,
  type Replica,
  type RpcProxy,
  startReplica,
  startRpcProxy,
} from "../../support/index.js";

/**
 * After an RPC outage long enough for the event follower to be stalled (/health 503, "not keeping
 * up"), /health is 200 again as soon as the node is back and the follower has caught up: it asks
 * the follower to poll then, instead of answering 503 until the follower's next tick. The follower
 * polls every 5 s here and its requests are not retried (RPC_RETRY_BUDGET_MS=0), so a poll started
 * during the outage has failed long before the node comes back: the first /health after it is the
 * test, well inside one poll interval.
 */
const EVENT_POLL_MS = 5_000;

describe("/health after an RPC outage", () => {
  let lease: ChainLease;
  let proxy: RpcProxy;
  let r: Replica;

  beforeAll(async () => {
    lease = await leaseChain();
    proxy = await startRpcProxy(lease.devnet.rpcUrl);
    r = await startReplica({
      ...chainEnv(lease.devnet, proxy.url),
      EVENT_POLL_MS: String(EVENT_POLL_MS),
      FOLLOWER_MAX_LAG_SECONDS: "1",
      RPC_RETRY_BUDGET_MS: "0",
      RPC_TIMEOUT_MS: "500",
    });
  });
  afterAll(async () => {
    await r?.close();
    await proxy?.close();
    await lease?.devnet.stop();
  });

  it.each([
    ["node down (connection refused)", () => proxy.setFault("down")],
    ["node never answering", () => proxy.setFault("timeout")],
  ])("%s: 503 while the follower is stalled, 200 at the first /health once the node is back", async (_, fault) => {
    expect((await r.get("/health")).status).toBe(200);
    await fault();
    try {
      // Blocks mined meanwhile (the follower has them to catch up on), and a poll failed for longer than the lag allowed.
      await mine(lease.devnet.rpcUrl, 3);
      await r.docket.follower?.poll().catch(() => {});
      await new Promise((res) => setTimeout(res, 1_200));
      expect((await r.get("/health")).status).toBe(503);
    } finally {
      await proxy.setFault("none");
    }
    const t0 = performance.now();
    const back = await r.get("/health");
    const ms = performance.now() - t0;
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ status: "ok" });
    expect(back.body.follower).toBeUndefined();
    expect(ms).toBeLessThan(EVENT_POLL_MS);
    const reads = await r.get("/cases");
    expect(reads.status).toBe(200);
  });

  it("a follower still refused after the node answers again stays degraded (health does not pretend)", async () => {
    await proxy.setFault("error", { methods: ["eth_getLogs"], code: -32602, message: "block range too wide" });
    try {
      await mine(lease.devnet.rpcUrl, 2);
      await r.docket.follower?.poll().catch(() => {});
      await new Promise((res) => setTimeout(res, 1_200));
      const health = await r.get("/health");
      expect(health.status).toBe(503);
      expect(health.body.error).toMatch(/not keeping up/);
    } finally {
      await proxy.setFault("none");
    }
    expect((await r.get("/health")).status).toBe(200);
  });
});
