import { LRUCache } from "lru-cache";
import { type CacheEntry, type CacheStore, matches } from "./cache.js";

/** The default store: bounded, in-process. */
export class LruStore implements CacheStore {
  private readonly lru: LRUCache<string, CacheEntry>;
  private readonly holds = new Map<string, number>();

  /** `now` lets tests drive time; it must be the same clock the Cache uses. */
  constructor(
    maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    this.lru = new LRUCache<string, CacheEntry>({ max: maxEntries });
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.peek(key);
  }

  peek(key: string): CacheEntry | undefined {
    const e = this.lru.get(key);
    // Kept past its TTL only for its stale window (stale-if-error); the Cache checks freshness.
    if (e && e.staleUntil <= this.now()) {
      this.lru.delete(key);
      return undefined;
    }
    return e;
  }

  async set(key: string, entry: CacheEntry): Promise<boolean> {
    if (this.heldUntil(key) > this.now()) return false;
    // Expiry is checked on read against our clock; the LRU bound keeps memory flat.
    this.lru.set(key, entry);
    return true;
  }

  async delete(patterns: string[]): Promise<void> {
    for (const p of patterns) {
      if (!p.endsWith("*")) {
        this.lru.delete(p);
        continue;
      }
      for (const key of [...this.lru.keys()]) if (matches(p, key)) this.lru.delete(key);
    }
  }

  async hold(patterns: string[], until: number): Promise<void> {
    const now = this.now();
    for (const [p, t] of this.holds) if (t <= now) this.holds.delete(p);
    for (const p of patterns) this.holds.set(p, Math.max(until, this.holds.get(p) ?? 0));
  }

  private heldUntil(key: string): number {
    let until = 0;
    for (const [p, t] of this.holds) if (t > until && matches(p, key)) until = t;
    return until;
  }

  get size(): number {
    return this.lru.size;
  }
}
