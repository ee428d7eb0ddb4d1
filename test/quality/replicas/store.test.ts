import { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cache, type CacheEntry } from "../../../src/cache/cache.js";
import { RedisStore } from "../../../src/cache/redis.js";
import { waitFor } from "../../support/index.js";
import { type RedisServer, startRedis } from "./redisServer.js";

/**
 * The races between replicas that HTTP tests cannot time: two Caches on two RedisStores (two
 * replicas' worth), one real Redis, no chain.
 */
describe("RedisStore between two replicas", () => {
  let redis: RedisServer;
  let peek: Redis;
  const stores: RedisStore[] = [];
  const silent = pino({ level: "silent" });

  const replica = async () => {
    const store = new RedisStore(redis.url, silent);
    stores.push(store);
    expect(await store.ready()).toBe(true);
    return { store, cache: new Cache(store, { holdMs: 60_000 }) };
  };

  beforeAll(async () => {
    redis = await startRedis();
    peek = new Redis(redis.url);
  });
  afterAll(async () => {
    peek?.disconnect();
    await Promise.all(stores.map((s) => s.close()));
    await redis?.stop();
  });

  it("a write built on A between B's chain read and B's store wins: B does not store over A's hold", async () => {
    const a = await replica();
    const b = await replica();
    // A's write lands exactly between B's load and B's store: B's check and write are one step.
    const realSet = b.store.set.bind(b.store);
    b.store.set = async (key: string, entry: CacheEntry) => {
      await a.cache.invalidate([key]);
      return realSet(key, entry);
    };
    const r = await b.cache.wrap(
      "case:X",
      () => 60,
      async () => "before the write",
    );
    expect(r).toEqual({ value: "before the write", status: "MISS", maxAge: 0 });
    expect(await peek.exists("docket:case:X")).toBe(0);
    b.store.set = realSet;
  });

  it("B's load in flight when A invalidates (without hold, as the event follower does) is not stored", async () => {
    const a = await replica();
    const b = await replica();
    let heard = 0;
    b.store.onInvalidate(() => heard++);
    let release: (v: string) => void = () => {};
    const slow = b.cache.wrap(
      "judgepool",
      () => 30,
      () => new Promise<string>((r) => (release = r)),
    );
    await new Promise((r) => setTimeout(r, 20));
    const before = heard;
    await a.cache.invalidate(["judgepool"], { hold: false });
    await waitFor("B to hear A's invalidation", async () => (heard > before ? true : undefined), 2_000);
    release("old");
    expect((await slow).maxAge).toBe(0);
    expect(await peek.exists("docket:judgepool")).toBe(0);
    // The next load is stored as usual.
    const next = await b.cache.wrap(
      "judgepool",
      () => 30,
      async () => "new",
    );
    expect(next.maxAge).toBe(30);
  });

  it("`*` patterns delete cache entries only: the holds and rate-limit counters stay", async () => {
    const a = await replica();
    await a.cache.wrap(
      "stats",
      () => 30,
      async () => 1,
    );
    await a.store.hold(["case:Y"], Date.now() + 60_000);
    await peek.set("docket:rl:127.0.0.1", "3", "PX", 60_000);
    await a.store.delete(["*"]);
    expect(await peek.exists("docket:stats")).toBe(0);
    expect(await peek.hexists("docket:holds", "case:Y")).toBe(1);
    expect(await peek.get("docket:rl:127.0.0.1")).toBe("3");
  });
});
