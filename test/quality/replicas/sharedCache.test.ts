import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CacheEntry } from "../../../src/cache/cache.js";
// One transaction per vote: what is under test is how replicas see it, not how it is cast.
import { devPublicParams } from "../../../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../../../src/devnet/devnet.js";
import {
  chainEnv,
  type Replica,
  type RpcProxy,
  signAndSend,
  startReplica,
  startRpcProxy,
} from "../../support/index.js";
import { type RedisServer, startRedis } from "./redisServer.js";

/**
 * The shared cache of docs/replicas.md (REDIS_URL): two replicas on one chain and one real Redis share cache
 * entries, holds and invalidations; single-flight stays per replica. No event follower here
 * (EVENT_POLL_MS=0), so every invalidation seen comes from a write built through docket.
 */
describe("two replicas sharing one Redis", () => {
  let devnet: Devnet;
  let proxy: RpcProxy;
  let redis: RedisServer;
  let peek: Redis;
  let a: Replica;
  let b: Replica;
  const seeded = (label: string) => devnet.seed?.cases.find((c) => c.label === label)?.address as string;

  beforeAll(async () => {
    [devnet, redis] = await Promise.all([startDevnet({ params: devPublicParams }), startRedis()]);
    // Both replicas reach the chain through one counting proxy.
    proxy = await startRpcProxy(devnet.rpcUrl);
    const env = { ...chainEnv(devnet, proxy.url), REDIS_URL: redis.url };
    [a, b] = await Promise.all([startReplica(env), startReplica(env)]);
    peek = new Redis(redis.url, { lazyConnect: true });
    await peek.connect();
  });
  afterAll(async () => {
    peek?.disconnect();
    await Promise.all([a?.close(), b?.close()]);
    await proxy?.close();
    await Promise.all([redis?.stop(), devnet?.stop()]);
  });

  it("a read on replica A is a HIT on replica B, from the same entry", async () => {
    const path = `/cases/${seeded("active")}`;
    const first = await a.get(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    proxy.reset();
    const second = await b.get(path);
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.body).toEqual(first.body);
    expect(proxy.count).toBe(0);
    // The entry lives in Redis under docket:, not in either process.
    expect(await peek.exists(`docket:case:${seeded("active")}`)).toBe(1);
  });

  // Writes hold their keys for CACHE_HOLD_SECONDS (120 s): each test below reads keys the ones
  // before it did not write.
  it("self-registration built through B invalidates A's discovery; the broadcast agent shows on A", async () => {
    const dev = devnet.accounts[17];
    if (!dev) throw new Error("no dev account 17");
    await a.get("/agent/discover?limit=100");
    expect((await a.get("/agent/discover?limit=100")).headers.get("x-cache")).toBe("HIT");
    const caseAddr = seeded("defaulted");
    await a.get(`/cases/${caseAddr}`);

    const built = await b.post("/agent/self-register", { address: dev.address, name: "replica-joiner" });
    expect(built.status).toBe(200);
    expect((await a.get("/agent/discover?limit=100")).headers.get("x-cache")).toBe("MISS");
    expect((await a.get(`/cases/${caseAddr}`)).headers.get("x-cache")).toBe("HIT");

    await signAndSend(devnet.rpcUrl, 17, built.body.unsigned_tx);
    const discover = await a.get("/agent/discover?limit=100");
    expect(discover.body.agents.map((x: { address: string }) => x.address)).toContain(dev.address);
    const agent = await a.get(`/agent/${dev.address}`);
    expect(agent.status).toBe(200);
    expect(agent.body.agent.name).toBe("replica-joiner");
  });

  it("a vote built through A makes B's next read a MISS at once, held until broadcast; B then shows the vote", async () => {
    const target = seeded("deliberating, one vote cast");
    const other = seeded("summoned");
    await b.get(`/cases/${target}`);
    await b.get(`/cases/${other}`);
    const before = await b.get(`/cases/${target}`);
    expect(before.headers.get("x-cache")).toBe("HIT");
    const judge = before.body.case.judges[1] as string;

    const built = await a.post(`/cases/${target}/vote`, { plaintiff_wins: false, from: judge });
    expect(built.status).toBe(200);
    const missed = await b.get(`/cases/${target}`);
    expect(missed.headers.get("x-cache")).toBe("MISS");
    // The write's hold is in Redis too: B reads the chain and does not store what may be about to change.
    expect(missed.headers.get("cache-control")).toBe("no-cache");
    expect((await b.get(`/cases/${target}`)).headers.get("x-cache")).toBe("MISS");
    expect(Number(await peek.hget("docket:holds", `case:${target}`))).toBeGreaterThan(Date.now());
    // Exact: the other case is still cached.
    expect((await b.get(`/cases/${other}`)).headers.get("x-cache")).toBe("HIT");

    await signAndSend(devnet.rpcUrl, judge, built.body.unsigned_tx);
    const after = await b.get(`/cases/${target}`);
    expect(after.body.case.votesForDefendant).toBe(before.body.case.votesForDefendant + 1);
    expect((await a.get(`/cases/${target}`)).body.case.votesForDefendant).toBe(after.body.case.votesForDefendant);
  });

  it("single-flight holds per replica: N concurrent cold reads on one replica cost one chain read", async () => {
    const cold = async (replicas: Replica[], path: string, n: number) => {
      proxy.reset();
      const all = await Promise.all(
        Array.from({ length: n }, (_, i) => (replicas[i % replicas.length] as Replica).get(path)),
      );
      expect(all.every((r) => r.status === 200)).toBe(true);
      return proxy.count;
    };
    const one = await cold([a], `/cases/${seeded("appealed")}`, 1);
    expect(one).toBeGreaterThan(0);
    expect(one).toBeLessThanOrEqual(2);
    const many = await cold([a], `/cases/${seeded("resolved, settled")}`, 20);
    expect(many).toBe(one);
    // Across replicas each process loads at most once: single-flight is not shared through Redis.
    const split = await cold([a, b], `/cases/${seeded("dismissed")}`, 20);
    expect(split).toBeGreaterThanOrEqual(one);
    expect(split).toBeLessThanOrEqual(2 * one);
  });

  it("stale-if-error through Redis: an entry one replica stored, past its TTL, is served STALE by the other while the chain is down", async () => {
    // (Not a key the writes above hold: a held key is not stored at all.)
    const page = "/cases?limit=3&offset=0";
    await a.get(page);
    // Age the entry in place, as if it had been stored 40 s ago with its 30 s TTL.
    const raw = await peek.get("docket:cases:0:3");
    expect(raw).not.toBeNull();
    const entry = JSON.parse(raw as string) as CacheEntry;
    const now = Date.now();
    const aged: CacheEntry = { ...entry, storedAt: now - 40_000, expiresAt: now - 10_000 };
    await peek.set("docket:cases:0:3", JSON.stringify(aged), "PX", Math.max(1, entry.staleUntil - now));

    await proxy.setFault("down");
    try {
      const stale = await b.get(page);
      expect(stale.status).toBe(200);
      expect(stale.headers.get("x-cache")).toBe("STALE");
      expect(Number(stale.headers.get("age"))).toBeGreaterThanOrEqual(40);
      expect(stale.body).toEqual(entry.value);
      // A key nobody cached has nothing to fall back on.
      const uncached = await b.get(`/agent/${devnet.accounts[19]?.address}`);
      expect(uncached.status).toBe(500);
      expect(uncached.body.error.code).toBe("RPC_ERROR");
    } finally {
      await proxy.setFault("none");
    }
    const fresh = await b.get(page);
    expect(fresh.headers.get("x-cache")).toBe("MISS");
  });
});
