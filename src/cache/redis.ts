import { Redis } from "ioredis";
import type { Logger } from "../log.js";
import { type CacheEntry, type CacheStore, matches } from "./cache.js";

const NS = "docket:";
const HOLDS = `${NS}holds`;
const CHANNEL = `${NS}invalidate`;

/**
 * The shared store for several replicas: entries live in Redis, so an invalidation by one replica
 * (a key deleted) is seen by all at once. Every invalidation is also published, so each replica
 * knows that its in-flight loads may have read old state (see Cache's epoch).
 *
 * Redis going away never fails a request: reads become uncached, with a warning, and the
 * invalidations that could not be applied are applied when Redis is back.
 */
export class RedisStore implements CacheStore {
  private readonly client: Redis;
  private readonly sub: Redis;
  private readonly pending: string[] = [];
  private warned = false;
  private listener?: (patterns: string[]) => void;

  constructor(
    url: string,
    private readonly log: Logger,
  ) {
    const options = {
      // Fail fast while disconnected instead of queueing: a request must not wait on Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      retryStrategy: (times: number) => Math.min(times * 200, 2_000),
      lazyConnect: false,
    };
    this.client = new Redis(url, options);
    this.sub = new Redis(url, { ...options, enableOfflineQueue: true });
    for (const c of [this.client, this.sub]) {
      c.on("error", (err: Error) => this.degraded(err));
    }
    this.client.on("ready", () => {
      if (this.warned) this.log.info("redis is back: cache shared again");
      this.warned = false;
      void this.flushPending();
    });
    this.sub.on("ready", () => {
      this.sub.subscribe(CHANNEL).catch((err: Error) => this.degraded(err));
    });
    this.sub.on("message", (_channel: string, message: string) => {
      try {
        this.listener?.(JSON.parse(message) as string[]);
      } catch {
        // not ours
      }
    });
  }

  /** Resolves once the first connection is up (or failed), so start-up logs say which. */
  async ready(timeoutMs = 2_000): Promise<boolean> {
    if (this.client.status === "ready") return true;
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      this.client.once("ready", () => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  /** Called with the patterns every replica (this one included) invalidates. */
  onInvalidate(listener: (patterns: string[]) => void): void {
    this.listener = listener;
  }

  private degraded(err: Error): void {
    if (!this.warned) {
      this.log.warn({ err: err.message }, "redis unavailable: serving uncached reads until it is back");
      this.warned = true;
    }
  }

  private async safely<T>(fallback: T, op: () => Promise<T>): Promise<T> {
    if (this.client.status !== "ready") {
      this.degraded(new Error(`redis is ${this.client.status}`));
      return fallback;
    }
    try {
      return await op();
    } catch (err) {
      this.degraded(err as Error);
      return fallback;
    }
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.safely(undefined, async () => {
      const raw = await this.client.get(NS + key);
      return raw ? (JSON.parse(raw) as CacheEntry) : undefined;
    });
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    await this.safely(undefined, async () => {
      const ms = Math.max(1, Math.ceil(entry.staleUntil - Date.now()));
      await this.client.set(NS + key, JSON.stringify(entry), "PX", ms);
    });
  }

  async delete(patterns: string[]): Promise<void> {
    const ok = await this.safely(false, async () => {
      await this.deleteNow(patterns);
      await this.client.publish(CHANNEL, JSON.stringify(patterns));
      return true;
    });
    // Applied later, so nothing stale outlives an outage longer than its TTL would allow anyway.
    if (!ok) this.pending.push(...patterns);
  }

  private async deleteNow(patterns: string[]): Promise<void> {
    const exact = patterns.filter((p) => !p.endsWith("*")).map((p) => NS + p);
    if (exact.length > 0) await this.client.del(...exact);
    for (const p of patterns.filter((x) => x.endsWith("*"))) {
      let cursor = "0";
      do {
        const [next, keys] = await this.client.scan(cursor, "MATCH", `${NS}${p}`, "COUNT", 500);
        cursor = next;
        if (keys.length > 0) await this.client.del(...keys);
      } while (cursor !== "0");
    }
  }

  private async flushPending(): Promise<void> {
    if (this.pending.length === 0) return;
    const patterns = [...new Set(this.pending.splice(0))];
    await this.delete(patterns);
  }

  async hold(patterns: string[], until: number): Promise<void> {
    await this.safely(undefined, async () => {
      const now = Date.now();
      const current = await this.client.hgetall(HOLDS);
      const multi = this.client.multi();
      for (const [p, t] of Object.entries(current)) if (Number(t) <= now) multi.hdel(HOLDS, p);
      for (const p of patterns) multi.hset(HOLDS, p, String(Math.max(until, Number(current[p] ?? 0))));
      await multi.exec();
    });
  }

  async heldUntil(key: string): Promise<number> {
    return this.safely(0, async () => {
      const holds = await this.client.hgetall(HOLDS);
      let until = 0;
      for (const [p, t] of Object.entries(holds)) if (Number(t) > until && matches(p, key)) until = Number(t);
      return until;
    });
  }

  /** The client, for the shared rate-limit store. */
  get redis(): Redis {
    return this.client;
  }

  async close(): Promise<void> {
    this.client.disconnect();
    this.sub.disconnect();
  }
}
