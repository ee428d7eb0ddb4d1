import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RedisStore } from "../../../src/cache/redis.js";
import { type Replica, startReplica, waitFor } from "../../support/index.js";
import { freePort, type RedisServer, startRedis } from "./redisServer.js";

const LIMIT = 6;
/** No chain is needed to be rate limited: the docs are served without one. */
const PATH = "/openapi.json";
const NO_CHAIN = {
  RPC_URL: "http://127.0.0.1:9",
  CHAIN_ID: "31337",
  FACTORY_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  REGISTRY_ADDRESS: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  RATE_LIMIT_PER_MINUTE: String(LIMIT),
};

const online = (r: Replica) =>
  waitFor(`${r.url} to use Redis`, async () => ((r.docket.ctx.cache.store as RedisStore).online ? true : undefined));

/** Status codes of requests sent one after the other, to replicas in turn. */
async function statuses(replicas: Replica[], n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${(replicas[i % replicas.length] as Replica).url}${PATH}`);
    await res.arrayBuffer();
    out.push(res.status);
  }
  return out;
}

/** The per-client rate limit with REDIS_URL: one budget across replicas, counted in Redis. */
describe("rate limit shared through Redis", () => {
  let redis: RedisServer;
  let peek: Redis;
  let a: Replica;
  let b: Replica;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([
      startReplica({ ...NO_CHAIN, REDIS_URL: redis.url }),
      startReplica({ ...NO_CHAIN, REDIS_URL: redis.url }),
    ]);
    replicas.push(a, b);
    peek = new Redis(redis.url, { retryStrategy: () => 100 });
    peek.on("error", () => {});
  });
  afterAll(async () => {
    peek?.disconnect();
    await Promise.all(replicas.map((r) => r.close()));
    await redis?.stop();
  });
  // Every request here comes from 127.0.0.1: start each test with a fresh budget.
  beforeEach(async () => {
    if (!redis.running) await redis.start();
    await Promise.all([online(a), online(b), waitFor("peek", async () => (peek.status === "ready" ? 1 : undefined))]);
    const keys = await peek.keys("docket:rl:*");
    if (keys.length > 0) await peek.del(...keys);
  });

  it("requests split across replicas A and B count together: the budget's next request is 429 on either", async () => {
    expect(await statuses([a, b], LIMIT)).toEqual(Array(LIMIT).fill(200));
    const over = await fetch(`${a.url}${PATH}`);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    expect((await fetch(`${b.url}${PATH}`)).status).toBe(429);
    // Health checks are never limited.
    expect((await fetch(`${b.url}/health`)).status).not.toBe(429);
    expect((await peek.keys("docket:rl:*")).length).toBe(1);
  });

  it("while Redis is away each replica limits on its own, nothing fails; when it is back the budget is shared again", async () => {
    await redis.kill();
    expect(await statuses([a], LIMIT + 1)).toEqual([...Array(LIMIT).fill(200), 429]);
    expect(await statuses([b], 1)).toEqual([200]);

    await redis.start();
    await Promise.all([online(a), online(b)]);
    // A new Redis: empty, without the counting scripts it had; they are loaded again.
    expect(await statuses([b, a], LIMIT + 2)).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    for (const r of [a, b]) expect(r.logs.filter((l) => l.level >= 50)).toEqual([]);
  });

  it("a replica started while Redis is unreachable shares the budget once Redis is up", async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const early = await startReplica({ ...NO_CHAIN, REDIS_URL: url });
    replicas.push(early);
    expect(await statuses([early], 2)).toEqual([200, 200]);
    const late = await startRedis({ port });
    try {
      const other = await startReplica({ ...NO_CHAIN, REDIS_URL: url });
      replicas.push(other);
      await Promise.all([online(early), online(other)]);
      expect(await statuses([early, other], LIMIT + 2)).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    } finally {
      await late.stop();
    }
  });
});
