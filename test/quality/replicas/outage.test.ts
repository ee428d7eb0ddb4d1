import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// One transaction per vote: what is under test is how replicas see it, not how it is cast.
import { devPublicParams } from "../../../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../../../src/devnet/devnet.js";
import { type Api, chainEnv, type Replica, signAndSend, startReplica, waitFor } from "../../support/index.js";
import { freePort, type RedisServer, startRedis } from "./redisServer.js";

/**
 * Redis going away must never fail a request: reads become uncached (with a warning), writes still
 * build, and when Redis is back the cache is shared again and no entry made stale during the
 * outage is ever served. The Redis here is killed with SIGKILL; before that the test has it take a
 * snapshot, so it comes back with its old entries, as a Redis with persistence or a promoted
 * replica would: the invalidations missed during the outage must then be applied.
 */
describe("Redis outage", () => {
  let devnet: Devnet;
  let redis: RedisServer;
  let peek: Redis;
  let a: Replica;
  let b: Replica;
  const target = () => devnet.seed?.cases.find((c) => c.state === "Deliberating")?.address as string;
  let before: Api;
  let built: Api;
  let judge: string;

  beforeAll(async () => {
    [devnet, redis] = await Promise.all([startDevnet({ params: devPublicParams }), startRedis()]);
    const env = { ...chainEnv(devnet), REDIS_URL: redis.url };
    [a, b] = await Promise.all([startReplica(env), startReplica(env)]);
    peek = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => 100 });
    peek.on("error", () => {});
    await peek.connect();
  });
  afterAll(async () => {
    peek?.disconnect();
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([redis?.stop(), devnet?.stop()]);
  });

  /** Until `r` gets a HIT again: it reconnected, and an entry it stores is served. */
  const cachesAgain = (r: Replica, path: string) =>
    waitFor(`${r.url} to cache through Redis again`, async () => {
      const res = await r.get(path);
      expect(res.status).toBe(200);
      return res.headers.get("x-cache") === "HIT" ? res : undefined;
    });

  it("while Redis is down, reads are 200 and uncached (MISS) with a warning; writes still build", async () => {
    before = await a.get(`/cases/${target()}`);
    expect((await b.get(`/cases/${target()}`)).headers.get("x-cache")).toBe("HIT");
    judge = before.body.case.judges[1];
    // A Redis that keeps its data across the outage.
    await peek.save();
    await redis.kill();

    for (const r of [a, b, a]) {
      const res = await r.get(`/cases/${target()}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-cache")).toBe("MISS");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.body).toEqual(before.body);
    }
    for (const path of ["/judges/pool", "/stats/overview", "/agent/discover"]) {
      const res = await a.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-cache")).toBe("MISS");
    }
    expect((await a.get("/health")).status).toBe(200);
    // A write is built through B (B cannot tell the others, nor hold the keys yet).
    built = await b.post(`/cases/${target()}/vote`, { plaintiff_wins: false, from: judge });
    expect(built.status).toBe(200);
    expect(built.body.unsigned_tx.to).toBe(target());
    for (const r of [a, b]) {
      expect(r.warnings(/redis unavailable/)).toHaveLength(1);
      expect(r.logs.filter((l) => l.level >= 50)).toEqual([]);
    }
  });

  it("when Redis is back, the cache works again and the invalidations missed meanwhile are applied", async () => {
    await redis.start();
    // Its snapshot still has the case as it was before the vote was built.
    await waitFor("the test's own client to reconnect", async () => (peek.status === "ready" ? true : undefined));
    await cachesAgain(b, "/cases?limit=5&offset=0");
    await cachesAgain(a, "/cases?limit=4&offset=0");
    for (const r of [a, b]) expect(r.logs.some((l) => /redis is back/.test(l.msg))).toBe(true);

    // B replayed its invalidation: nobody is served the entry from before the write...
    expect(await peek.exists(`docket:case:${target()}`)).toBe(0);
    const first = await a.get(`/cases/${target()}`);
    expect(first.headers.get("x-cache")).toBe("MISS");
    // ... and its hold: until the vote is broadcast, the case is read from the chain, not stored.
    expect((await a.get(`/cases/${target()}`)).headers.get("x-cache")).toBe("MISS");
    await signAndSend(devnet.rpcUrl, judge, built.body.unsigned_tx);
    const after = await a.get(`/cases/${target()}`);
    expect(after.body.case.votesForDefendant).toBe(before.body.case.votesForDefendant + 1);
    expect((await b.get(`/cases/${target()}`)).body.case.votesForDefendant).toBe(after.body.case.votesForDefendant);
  });

  it("a Redis that hangs (SIGSTOP) costs one request about a second, then reads skip it until it answers again", async () => {
    const path = "/cases?limit=7&offset=0";
    await cachesAgain(a, path);
    redis.pause();
    try {
      let started = Date.now();
      const slow = await a.get(path);
      expect(slow.status).toBe(200);
      expect(slow.headers.get("x-cache")).toBe("MISS");
      // One command timeout (1 s) for the read, then Redis is left alone.
      expect(Date.now() - started).toBeLessThan(3_000);
      started = Date.now();
      for (let i = 0; i < 3; i++) expect((await a.get(path)).headers.get("x-cache")).toBe("MISS");
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      redis.resume();
    }
    await cachesAgain(a, path);
  });

  it("docket started with REDIS_URL pointing to nothing serves uncached, and uses Redis once it appears", async () => {
    const port = await freePort();
    const started = Date.now();
    const c = await startReplica({ ...chainEnv(devnet), REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(c.warnings(/redis/).length).toBeGreaterThan(0);
      for (let i = 0; i < 2; i++) {
        const res = await c.get("/stats/overview");
        expect(res.status).toBe(200);
        expect(res.headers.get("x-cache")).toBe("MISS");
      }
      const dev = devnet.accounts[18];
      const write = await c.post("/agent/self-register", { address: dev?.address, name: "no-redis-yet" });
      expect(write.status).toBe(200);
      expect(write.body.unsigned_tx).toBeDefined();

      const late = await startRedis({ port });
      try {
        await cachesAgain(c, "/judges/pool");
      } finally {
        await late.stop();
      }
    } finally {
      await c.close();
    }
  });
});
