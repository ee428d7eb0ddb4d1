import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courtRegistryAbi } from "../../src/chain/abi/generated.js";
import { devPublicParams } from "../../src/deploy/terms.js";
import { Actor } from "../../src/devnet/actor.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import { everyKey } from "../../src/freshness/keys.js";
import type { Docket } from "../../src/server.js";
import {
  everyReadPath,
  type RpcProxy,
  request,
  rpc,
  seeded,
  signAndSend,
  startBehind,
  startRpcProxy,
  voteOnChain,
} from "../support/index.js";

/**
 * docket through a JSON-RPC proxy that behaves like a hosted provider (test/support/rpcProxy.ts,
 * `setStrict`): batches of at most 10, eth_getLogs over at most 500 blocks (-32005 past it), 25
 * requests a second (429 with Retry-After: 1 past it). The chain is the dev chain (anvil: anvil_mine,
 * evm_snapshot/evm_revert are anvil's, used here to make the chain move, never by docket). The
 * follower is polled by the test, so "one poll" is exact.
 */
const STRICT = { batchMax: 10, logsRangeMax: 500, perSecond: 25 };

describe("docket behind a strict JSON-RPC provider", () => {
  let devnet: Devnet;
  let proxy: RpcProxy;
  let d: Docket;
  const poll = () => (d.follower as NonNullable<Docket["follower"]>).poll();
  /** Waits out the provider's rate window, so a test starts with its whole budget. */
  const quiet = () => new Promise((r) => setTimeout(r, 1_100));

  beforeAll(async () => {
    devnet = await startDevnet({ params: devPublicParams });
    proxy = await startRpcProxy(devnet.rpcUrl);
    proxy.setStrict(STRICT);
    // RPC_LOGS_RANGE_MAX above the provider's limit: the follower must learn the limit from its refusals.
    d = await startBehind(proxy.url, devnet, { CACHE_HOLD_SECONDS: "0", RPC_LOGS_RANGE_MAX: "2000" });
  });
  afterAll(async () => {
    await d?.close();
    await proxy?.close();
    await devnet?.stop();
  });

  it("every read route answers 200, no request passing the provider's limits", async () => {
    await quiet();
    proxy.reset();
    const paths = await everyReadPath(d, devnet);
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) {
      const r = await request(d, path);
      expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
    }
    expect(proxy.maxBatch).toBeLessThanOrEqual(STRICT.batchMax);
    expect(proxy.refused.batch).toBe(0);
  });

  // Before the 2,000 blocks below: the seeded case's voting deadline is still ahead.
  it("a 12-block reorg is noticed with batches under the cap: lastChainEvent set, the orphaned state not served", async () => {
    const kase = seeded(devnet, "deliberating");
    await quiet();
    await poll();
    const base = Number(await rpc(devnet.rpcUrl, "eth_blockNumber"));
    const snapshot = (await rpc(devnet.rpcUrl, "evm_snapshot")) as Hex;
    await voteOnChain(devnet, kase);
    const mined = Number(await rpc(devnet.rpcUrl, "eth_blockNumber")) - base;
    await rpc(devnet.rpcUrl, "anvil_mine", [`0x${(12 - mined).toString(16)}`]);
    await quiet();
    await poll();
    const voted = await request(d, `/cases/${kase}`);
    expect(voted.body.case.votesForPlaintiff).toBeGreaterThan(0);

    await rpc(devnet.rpcUrl, "evm_revert", [snapshot]);
    await rpc(devnet.rpcUrl, "anvil_mine", ["0xd"]);
    await quiet();
    proxy.reset();
    await poll();
    expect(proxy.refused.batch).toBe(0);
    expect(proxy.maxBatch).toBeLessThanOrEqual(STRICT.batchMax);
    const health = await request(d, "/health");
    expect(health.body.lastChainEvent).toMatchObject({ kind: "reorg", depth: 12, block: base });
    const after = await request(d, `/cases/${kase}`);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.body.case.votesForPlaintiff).toBe(voted.body.case.votesForPlaintiff - 1);
  });

  it("catches up after 2,000 blocks missed, walking the range in steps the provider accepts; a later change shows", async () => {
    await poll();
    await request(d, "/agent/discover");
    expect((await request(d, "/agent/discover")).headers.get("x-cache")).toBe("HIT");
    // docket is away (no poll) while 2,000 blocks are mined, then an agent registers straight on chain.
    await rpc(devnet.rpcUrl, "anvil_mine", ["0x7d0"]);
    const dev = devnet.accounts[17] as (typeof devnet.accounts)[number];
    await new Actor(dev.account, devnet.chain, devnet.reader).write({
      address: devnet.deployment.registry,
      abi: courtRegistryAbi,
      functionName: "selfRegister",
      args: ["after-the-outage", "https://agents.example.org/after-the-outage.json"],
    });
    await quiet();
    proxy.reset();
    await poll();
    // The provider refused 2,000 and 1,000 blocks; the follower went on in steps of 500.
    expect(proxy.refused.logs).toBe(2);
    expect(proxy.refused.batch).toBe(0);
    const widths = proxy.calls
      .filter((c) => c.method === "eth_getLogs")
      .map((c) => {
        const f = (c.params as [{ fromBlock: Hex; toBlock: Hex }])[0];
        return Number(BigInt(f.toBlock) - BigInt(f.fromBlock)) + 1;
      });
    expect(widths.slice(0, 2)).toEqual([2000, 1000]);
    expect(Math.max(...widths.slice(2))).toBeLessThanOrEqual(STRICT.logsRangeMax);
    const after = await request(d, "/agent/discover");
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(JSON.stringify(after.body)).toContain("after-the-outage");
    const health = await request(d, "/health");
    expect(health.status).toBe(200);
    expect(health.body.follower).toBeUndefined();
  });

  it("a burst of 80 reads under the rate limit: each is an answer or a clean RPC_ERROR, none hangs", async () => {
    await quiet();
    proxy.reset();
    const paths = Array.from({ length: 80 }, (_, i) => `/cases?limit=${1 + (i % 20)}&offset=${i}`);
    // Distinct pages, and the cache emptied: every read goes to the provider.
    await d.ctx.cache.invalidate([everyKey.all], { hold: false });
    const t0 = performance.now();
    const answers = await Promise.all(paths.map((p) => request(d, p)));
    // The retry budget (RPC_RETRY_BUDGET_MS, 5 s) and one timeout bound every answer.
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(proxy.refused.rate).toBeGreaterThan(0);
    let ok = 0;
    for (const [i, r] of answers.entries()) {
      if (r.status === 200) ok++;
      else {
        expect(r.status, paths[i]).toBe(500);
        expect(r.body.error.code, paths[i]).toBe("RPC_ERROR");
      }
    }
    // Retry-After is honoured: most of the burst is served, not refused.
    expect(ok).toBeGreaterThan(paths.length / 2);
  });

  it("a write built through the strict provider, signed and sent, is read back", async () => {
    await quiet();
    const dev = devnet.accounts[18] as { address: Address };
    const built = await request(d, "/agent/self-register", { address: dev.address, name: "strict-provider" });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    await signAndSend(devnet.rpcUrl, 18, built.body.unsigned_tx);
    await poll();
    const agent = await request(d, `/agent/${dev.address}`);
    expect(agent.status).toBe(200);
    expect(JSON.stringify(agent.body)).toContain("strict-provider");
    expect(proxy.refused.batch).toBe(0);
  });

  it("a follower the provider keeps refusing says so in /health (degraded, how far behind, since when), and recovers", async () => {
    const lagging = await startBehind(proxy.url, devnet, { CACHE_HOLD_SECONDS: "0", FOLLOWER_MAX_LAG_SECONDS: "0" });
    try {
      const lpoll = () => (lagging.follower as NonNullable<Docket["follower"]>).poll();
      await quiet();
      await lpoll();
      expect((await request(lagging, "/health")).status).toBe(200);
      await proxy.setFault("error", { methods: ["eth_getLogs"], code: -32602, message: "block range too wide" });
      await rpc(devnet.rpcUrl, "anvil_mine", ["0x5"]);
      await expect(lpoll()).rejects.toThrow();
      const health = await request(lagging, "/health");
      expect(health.status).toBe(503);
      expect(health.body.status).toBe("degraded");
      expect(health.body.error).toMatch(/not keeping up/);
      expect(health.body.follower).toMatchObject({ blocksBehind: 5 });
      expect(Date.parse(health.body.follower.since)).toBeLessThanOrEqual(Date.now());
      await proxy.setFault("none");
      await quiet();
      await lpoll();
      const back = await request(lagging, "/health");
      expect(back.status).toBe(200);
      expect(back.body.follower).toBeUndefined();
    } finally {
      await proxy.setFault("none");
      await lagging.close();
    }
  });

  describe("/health compares the node now with what the follower last saw, before the follower's next poll", () => {
    it("a head that went backwards (a reorg under way): degraded until the follower has acted", async () => {
      await quiet();
      await poll();
      const snapshot = (await rpc(devnet.rpcUrl, "evm_snapshot")) as Hex;
      await rpc(devnet.rpcUrl, "anvil_mine", ["0x3"]);
      await poll();
      expect((await request(d, "/health")).status).toBe(200);
      await rpc(devnet.rpcUrl, "evm_revert", [snapshot]);
      const health = await request(d, "/health");
      expect(health.status).toBe(503);
      expect(health.body.error).toMatch(/head went backwards/);
      await rpc(devnet.rpcUrl, "anvil_mine", ["0x4"]);
      await poll();
      expect((await request(d, "/health")).status).toBe(200);
    });

    it("another chain with the same id and the same contracts behind the same URL: degraded (new genesis)", async () => {
      // A fresh dev chain: same deployer, same addresses, same chain id; only its genesis tells it apart.
      const other = await startDevnet({ params: devPublicParams, seed: false });
      try {
        await quiet();
        await poll();
        proxy.setUpstream(other.rpcUrl);
        const health = await request(d, "/health");
        expect(health.status).toBe(503);
        expect(health.body.error).toMatch(/reset \(genesis/);
        await poll();
        const after = await request(d, "/health");
        expect(after.status).toBe(200);
        expect(after.body.lastChainEvent).toMatchObject({ kind: "reset" });
      } finally {
        proxy.setUpstream(devnet.rpcUrl);
        await other.stop();
        await poll().catch(() => {});
      }
    });

    it("anvil_reset: not ok before the follower's next poll", async () => {
      await quiet();
      await poll();
      expect((await request(d, "/health")).status).toBe(200);
      await rpc(devnet.rpcUrl, "anvil_reset", []);
      const health = await request(d, "/health");
      expect(health.status).toBe(503);
      expect(health.body.status).toBe("degraded");
    });
  });
});
