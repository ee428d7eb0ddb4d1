import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// One transaction per vote: what is under test is what docket serves after it, not how it is cast.
import { devPublicParams } from "../../../src/deploy/terms.js";
import { type AnvilProcess, startAnvil } from "../../../src/devnet/anvil.js";
import { type Devnet, startDevnet } from "../../../src/devnet/devnet.js";
// One transaction per vote: what is under test is what docket serves after it, not how it is cast.
import {
  chainEnv,
  mine,
  type Replica,
  type RpcProxy,
  rpc,
  seeded,
  startReplica,
  startRpcProxy,
  voteOnChain,
} from "../../support/index.js";
import { type RedisServer, startRedis } from "./redisServer.js";

/**
 * Reorgs and resets across replicas sharing Redis: A follows the chain (through a proxy, polled by
 * the test), B has no follower. What A's follower invalidates, and what it flushes, is gone for B
 * too: both read the shared entries, and B hears the invalidation for its in-flight loads.
 */
describe("replicas after a reorg or a reset", () => {
  let devnet: Devnet;
  let fresh: AnvilProcess;
  let redis: RedisServer;
  let proxy: RpcProxy;
  let a: Replica;
  let b: Replica;
  const poll = () => a.docket.follower?.poll();

  beforeAll(async () => {
    [devnet, redis] = await Promise.all([startDevnet({ params: devPublicParams }), startRedis()]);
    // After the dev chain: anvils started in the same second have the same genesis (then a reset
    // looks like a reorg deeper than the window, which flushes all the same).
    fresh = await startAnvil();
    proxy = await startRpcProxy(devnet.rpcUrl);
    const shared = { REDIS_URL: redis.url, CACHE_HOLD_SECONDS: "0" };
    [a, b] = await Promise.all([
      startReplica({ ...chainEnv(devnet, proxy.url), ...shared, EVENT_POLL_MS: "3600000" }),
      startReplica({ ...chainEnv(devnet), ...shared }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await proxy?.close();
    await Promise.all([redis?.stop(), devnet?.stop(), fresh?.stop()]);
  });

  it("a verdict undone by a reorg is gone on the replica without a follower after one poll of the other", async () => {
    const c = seeded(devnet, "deliberating");
    const snapshot = (await rpc(devnet.rpcUrl, "evm_snapshot")) as Hex;
    await poll();
    await voteOnChain(devnet, c);
    await poll();
    expect((await b.get(`/cases/${c}`)).body.case.state).toBe("Resolved");
    expect((await b.get(`/cases/${c}`)).headers.get("x-cache")).toBe("HIT");

    await rpc(devnet.rpcUrl, "evm_revert", [snapshot]);
    await mine(devnet.rpcUrl, 2);
    await poll();
    const after = await b.get(`/cases/${c}`);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.body.case.state).toBe("Deliberating");
    expect(a.warnings(/^reorg/).length).toBeGreaterThan(0);
  });

  it("a reset seen by A flushes the entries B cached", async () => {
    const active = seeded(devnet, "active");
    await b.get(`/cases/${active}`);
    expect((await b.get(`/cases/${active}`)).headers.get("x-cache")).toBe("HIT");
    proxy.setUpstream(fresh.rpcUrl);
    await poll();
    expect(a.warnings(/^chain reset/).length).toBe(1);
    expect((await b.get(`/cases/${active}`)).headers.get("x-cache")).toBe("MISS");
    proxy.setUpstream(devnet.rpcUrl);
    await poll();
    expect((await a.get("/health")).body.lastChainEvent).toMatchObject({ kind: "reset" });
  });
});
