import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// One transaction per vote: what is under test is what docket serves after it, not how it is cast.
import { devPublicParams } from "../../src/deploy/terms.js";
import { type AnvilProcess, startAnvil } from "../../src/devnet/anvil.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import type { Docket } from "../../src/server.js";
import {
  mine,
  type RpcProxy,
  request,
  rpc,
  seeded,
  startBehind,
  startRpcProxy,
  until,
  voteOnChain,
} from "../support/index.js";

/**
 * Reorgs and resets, made for real on anvil (evm_snapshot / evm_revert, then new blocks; a fresh
 * anvil behind the proxy), seen through docket's answers. The follower is polled by the test, so
 * "after one poll" is exact; the RPC cost of a poll is counted at the proxy.
 */
describe("the follower never lets docket serve a chain that no longer is", () => {
  let devnet: Devnet;
  let proxy: RpcProxy;
  let d: Docket;
  let deliberating: `0x${string}`;
  let active: `0x${string}`;
  const poll = () => (d.follower as NonNullable<Docket["follower"]>).poll();

  beforeAll(async () => {
    devnet = await startDevnet({ params: devPublicParams });
    proxy = await startRpcProxy(devnet.rpcUrl);
    // No holds: what is read after a change is cached, as it would be once a write's hold is over.
    d = await startBehind(proxy.url, devnet, { CACHE_HOLD_SECONDS: "0" });
    deliberating = seeded(devnet, "deliberating");
    active = seeded(devnet, "active");
  });
  afterAll(async () => {
    await d?.close();
    await proxy?.close();
    await devnet?.stop();
  });

  it("a poll costs 3 JSON-RPC requests in one round trip, 4 in two when there are new blocks", async () => {
    await poll();
    proxy.reset();
    await poll();
    expect(proxy.byMethod).toEqual({ eth_chainId: 1, eth_getBlockByNumber: 2 });
    expect(proxy.httpRequests).toBe(1);
    await mine(devnet.rpcUrl, 2);
    proxy.reset();
    await poll();
    expect(proxy.byMethod).toEqual({ eth_chainId: 1, eth_getBlockByNumber: 2, eth_getLogs: 1 });
    expect(proxy.httpRequests).toBe(2);
  });

  it("a vote undone by a reorg stops being served at the first poll after it; untouched entries stay cached", async () => {
    const snapshot = (await rpc(devnet.rpcUrl, "evm_snapshot")) as Hex;
    await poll();
    await voteOnChain(devnet, deliberating);
    await poll();
    const voted = await request(d, `/cases/${deliberating}`);
    expect(voted.body.case.state).toBe("Resolved");
    expect((await request(d, `/cases/${deliberating}`)).headers.get("x-cache")).toBe("HIT");
    await request(d, `/cases/${active}`);
    expect((await request(d, `/cases/${active}`)).headers.get("x-cache")).toBe("HIT");

    expect(await rpc(devnet.rpcUrl, "evm_revert", [snapshot])).toBe(true);
    await mine(devnet.rpcUrl, 3);
    // The follower has not run yet: this is the bug the follower closes (served for the whole TTL before).
    expect((await request(d, `/cases/${deliberating}`)).body.case.state).toBe("Resolved");

    await poll();
    const after = await request(d, `/cases/${deliberating}`);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.body.case.state).toBe("Deliberating");
    expect(after.body.case.votesForPlaintiff).toBe(voted.body.case.votesForPlaintiff - 1);
    // Exact: the active case's entry was not touched by the orphaned block.
    expect((await request(d, `/cases/${active}`)).headers.get("x-cache")).toBe("HIT");
    const health = await request(d, "/health");
    expect(health.status).toBe(200);
    expect(health.body.lastChainEvent).toMatchObject({ kind: "reorg", depth: 1 });
  });

  it("a read that was in flight across the reorg is not cached, nor joined by reads after it", async () => {
    const snapshot = (await rpc(devnet.rpcUrl, "evm_snapshot")) as Hex;
    await poll();
    await voteOnChain(devnet, deliberating);
    await poll();
    proxy.reset();
    // The read reaches the chain now (the vote is there) but its answer comes back after the reorg.
    proxy.holdAnswers(["eth_call"]);
    const before = request(d, `/cases/${deliberating}`);
    await until("an eth_call", () => (proxy.byMethod.eth_call ?? 0) >= 1);
    await rpc(devnet.rpcUrl, "evm_revert", [snapshot]);
    await mine(devnet.rpcUrl, 2);
    await poll();
    const afterReorg = request(d, `/cases/${deliberating}`);
    await until("a second eth_call", () => (proxy.byMethod.eth_call ?? 0) >= 2);
    proxy.releaseAnswers();
    expect((await before).body.case.state).toBe("Resolved");
    expect((await afterReorg).body.case.state).toBe("Deliberating");
    const later = await request(d, `/cases/${deliberating}`);
    expect(later.body.case.state).toBe("Deliberating");
    expect(later.headers.get("x-cache")).toBe("HIT");
  });

  it("CONFIRMATIONS=2: a change mined straight on chain is acted on once two blocks are on top of it", async () => {
    const late = await startBehind(proxy.url, devnet, { CACHE_HOLD_SECONDS: "0", CONFIRMATIONS: "2" });
    try {
      const lpoll = () => late.follower?.poll();
      await request(late, `/cases/${deliberating}`);
      await lpoll();
      const snapshot = (await rpc(devnet.rpcUrl, "evm_snapshot")) as Hex;
      await voteOnChain(devnet, deliberating);
      await lpoll();
      // One confirmation short: the follower has not acted, the cached answer stands.
      expect((await request(late, `/cases/${deliberating}`)).headers.get("x-cache")).toBe("HIT");
      await mine(devnet.rpcUrl, 2);
      await lpoll();
      const seen = await request(late, `/cases/${deliberating}`);
      expect(seen.headers.get("x-cache")).toBe("MISS");
      expect(seen.body.case.state).toBe("Resolved");
      await rpc(devnet.rpcUrl, "evm_revert", [snapshot]);
      await mine(devnet.rpcUrl, 4);
      await poll();
    } finally {
      await late.close();
    }
  });

  describe("a reset (the node restarts from a new genesis)", () => {
    let fresh: AnvilProcess;
    beforeAll(async () => {
      fresh = await startAnvil();
    });
    afterAll(async () => {
      await fresh?.stop();
    });

    it("flushes what docket cached at the first poll, and again when the old chain comes back", async () => {
      const genesis = async (url: string) =>
        ((await rpc(url, "eth_getBlockByNumber", ["0x0", false])) as { hash: Hex }).hash;
      expect(await genesis(fresh.rpcUrl)).not.toBe(await genesis(devnet.rpcUrl));
      await request(d, `/cases/${active}`);
      expect((await request(d, `/cases/${active}`)).headers.get("x-cache")).toBe("HIT");

      proxy.setUpstream(fresh.rpcUrl);
      await poll();
      const gone = await request(d, `/cases/${active}`);
      expect(gone.status).not.toBe(200);
      expect(gone.body.error.code).toMatch(/^[A-Z_]+$/);
      const health = await request(d, "/health");
      expect(health.body.lastChainEvent).toMatchObject({ kind: "reset", depth: null, block: 0 });

      proxy.setUpstream(devnet.rpcUrl);
      await poll();
      const back = await request(d, `/cases/${active}`);
      expect(back.status).toBe(200);
      expect(back.headers.get("x-cache")).toBe("MISS");
      expect((await request(d, "/health")).body.lastChainEvent.kind).toBe("reset");
    });
  });
});
