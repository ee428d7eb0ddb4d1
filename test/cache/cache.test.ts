import { describe, expect, it } from "vitest";
import { Cache } from "../../src/cache/cache.js";
import { LruStore } from "../../src/cache/lru.js";

describe("Cache", () => {
  it("serves a hit until the TTL passes, then reloads", async () => {
    let now = 1_000_000;
    const clock = () => now;
    const cache = new Cache(new LruStore(100, clock), { holdMs: 0, now: clock });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.wrap("k", () => 30, load)).toEqual({ value: 1, status: "MISS", maxAge: 30 });
    now += 10_000;
    expect(await cache.wrap("k", () => 30, load)).toEqual({ value: 1, status: "HIT", maxAge: 20 });
    now += 20_001;
    expect(await cache.wrap("k", () => 30, load)).toEqual({ value: 2, status: "MISS", maxAge: 30 });
  });

  it("peeks a fresh in-process entry without awaiting, and nothing else", async () => {
    let now = 1_000_000;
    const clock = () => now;
    const cache = new Cache(new LruStore(100, clock), { holdMs: 0, now: clock });
    expect(cache.peek("k")).toBeUndefined();
    await cache.wrap(
      "k",
      () => 30,
      async () => "v",
    );
    now += 10_000;
    expect(cache.peek("k")).toEqual({ value: "v", status: "HIT", maxAge: 20 });
    now += 20_000;
    expect(cache.peek("k")).toBeUndefined();
    // A store with no synchronous read (Redis) never answers a peek.
    const remote = new LruStore(100, clock);
    const noPeek = new Cache(
      {
        get: (k) => remote.get(k),
        set: (k, e) => remote.set(k, e),
        delete: (p) => remote.delete(p),
        hold: (p, u) => remote.hold(p, u),
      },
      { holdMs: 0, now: clock },
    );
    await noPeek.wrap(
      "k",
      () => 30,
      async () => "v",
    );
    expect(
      (
        await noPeek.wrap(
          "k",
          () => 30,
          async () => "w",
        )
      ).status,
    ).toBe("HIT");
    expect(noPeek.peek("k")).toBeUndefined();
  });

  it("expires entries in the LRU store by time", async () => {
    let now = 0;
    const store = new LruStore(100, () => now);
    await store.set("a", { value: 1, expiresAt: 50, staleUntil: 50, storedAt: 0 });
    expect(await store.get("a")).toBeDefined();
    now = 50;
    expect(await store.get("a")).toBeUndefined();
  });

  it("shares one load between concurrent misses of a key (single-flight)", async () => {
    const cache = new Cache(new LruStore(100), { holdMs: 0 });
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 20));
      return "v";
    };
    const results = await Promise.all(Array.from({ length: 1000 }, () => cache.wrap("k", () => 60, load)));
    expect(loads).toBe(1);
    expect(results.every((r) => r.value === "v")).toBe(true);
  });

  it("a failed load is not cached and does not poison later reads", async () => {
    const cache = new Cache(new LruStore(100), { holdMs: 0 });
    await expect(
      cache.wrap(
        "k",
        () => 60,
        async () => Promise.reject(new Error("rpc down")),
      ),
    ).rejects.toThrow("rpc down");
    expect(
      (
        await cache.wrap(
          "k",
          () => 60,
          async () => "ok",
        )
      ).value,
    ).toBe("ok");
  });

  it("invalidates exact keys and prefixes only, and holds them for the write's settling time", async () => {
    let now = 0;
    const clock = () => now;
    const cache = new Cache(new LruStore(100, clock), { holdMs: 5_000, now: clock });
    for (const k of ["case:A", "case:B", "discover:0:20", "discover:20:20", "stats"]) {
      await cache.wrap(
        k,
        () => 60,
        async () => k,
      );
    }
    await cache.invalidate(["case:A", "discover:*"]);
    const status = async (k: string) =>
      (
        await cache.wrap(
          k,
          () => 60,
          async () => k,
        )
      ).status;
    expect(await status("case:B")).toBe("HIT");
    expect(await status("stats")).toBe("HIT");
    expect(await status("case:A")).toBe("MISS");
    expect(await status("discover:0:20")).toBe("MISS");
    // Held: still not stored, so a transaction mined meanwhile shows at once.
    expect(await status("case:A")).toBe("MISS");
    now += 5_001;
    expect(await status("case:A")).toBe("MISS");
    expect(await status("case:A")).toBe("HIT");
  });

  it("stays bounded", async () => {
    const store = new LruStore(50);
    const cache = new Cache(store, { holdMs: 0 });
    for (let i = 0; i < 500; i++)
      await cache.wrap(
        `k${i}`,
        () => 60,
        async () => i,
      );
    expect(store.size).toBe(50);
  });
});

describe("Cache races", () => {
  it("does not store a value whose load overlapped an invalidation", async () => {
    const cache = new Cache(new LruStore(100), { holdMs: 0 });
    let release: () => void = () => {};
    const slow = cache.wrap(
      "case:A",
      () => 60,
      () => new Promise<string>((r) => (release = () => r("old"))),
    );
    await new Promise((r) => setTimeout(r, 5));
    await cache.invalidate(["case:A"], { hold: false });
    release();
    expect((await slow).value).toBe("old");
    const next = await cache.wrap(
      "case:A",
      () => 60,
      async () => "new",
    );
    expect(next).toMatchObject({ value: "new", status: "MISS" });
    expect(
      (
        await cache.wrap(
          "case:A",
          () => 60,
          async () => "x",
        )
      ).value,
    ).toBe("new");
  });
});

describe("stale-if-error", () => {
  it("serves an expired entry within its stale window when the load fails for the chain's reasons only", async () => {
    let now = 0;
    const clock = () => now;
    const cache = new Cache(new LruStore(100, clock), { holdMs: 0, staleMs: 60_000, now: clock });
    const chainDown = (e: unknown) => (e as Error).message === "rpc down";
    await cache.wrap(
      "k",
      () => 30,
      async () => "v1",
    );
    now = 40_000;
    const stale = await cache.wrap(
      "k",
      () => 30,
      async () => Promise.reject(new Error("rpc down")),
      chainDown,
    );
    expect(stale).toEqual({ value: "v1", status: "STALE", maxAge: 0, age: 40 });
    // Not for other failures (a refusal, a 404).
    await expect(
      cache.wrap(
        "k",
        () => 30,
        async () => Promise.reject(new Error("not found")),
        chainDown,
      ),
    ).rejects.toThrow("not found");
    // Not past the stale window.
    now = 30_000 + 60_001;
    await expect(
      cache.wrap(
        "k",
        () => 30,
        async () => Promise.reject(new Error("rpc down")),
        chainDown,
      ),
    ).rejects.toThrow("rpc down");
    // Recovered: fresh again.
    expect(
      (
        await cache.wrap(
          "k",
          () => 30,
          async () => "v2",
          chainDown,
        )
      ).status,
    ).toBe("MISS");
  });
});
