/** What a cache store keeps: a JSON-able value and when it expires (ms since epoch). */
export interface CacheEntry {
  value: unknown;
  expiresAt: number;
}

/** The storage behind the cache: in-process LRU by default, Redis when shared by replicas. */
export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  /** Deletes exact keys, and every key starting with the prefix of a pattern ending in `*`. */
  delete(patterns: string[]): Promise<void>;
  /** Marks keys as "just written": until `until`, reads are served fresh and not stored. */
  hold(patterns: string[], until: number): Promise<void>;
  heldUntil(key: string): Promise<number>;
  close?(): Promise<void>;
}

export type CacheStatus = "HIT" | "MISS";

export interface Cached<T> {
  value: T;
  status: CacheStatus;
  /** Seconds the value may still be reused (0 when it was not cached). */
  maxAge: number;
}

export function matches(pattern: string, key: string): boolean {
  return pattern.endsWith("*") ? key.startsWith(pattern.slice(0, -1)) : key === pattern;
}

/**
 * The read cache: per-key TTLs chosen from the value, single-flight for concurrent misses of one
 * key, and exact invalidation. After a write is built, its keys are held for `holdMs`: reads in that
 * window go to the chain, so a transaction broadcast right after shows at once.
 */
export class Cache {
  private readonly inflight = new Map<string, Promise<Cached<unknown>>>();
  /** Bumped by every invalidation: a load that overlapped one may have read the old state. */
  private epoch = 0;

  constructor(
    readonly store: CacheStore,
    private readonly opts: { holdMs: number; now?: () => number } = { holdMs: 120_000 },
  ) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  async wrap<T>(key: string, ttlSeconds: (value: T) => number, load: () => Promise<T>): Promise<Cached<T>> {
    const hit = await this.store.get(key);
    const now = this.now();
    if (hit && hit.expiresAt > now) {
      return { value: hit.value as T, status: "HIT", maxAge: Math.max(0, Math.floor((hit.expiresAt - now) / 1000)) };
    }
    const pending = this.inflight.get(key);
    if (pending) return (await pending) as Cached<T>;
    const p = this.fill(key, ttlSeconds, load);
    this.inflight.set(key, p as Promise<Cached<unknown>>);
    try {
      return await p;
    } finally {
      this.inflight.delete(key);
    }
  }

  private async fill<T>(key: string, ttlSeconds: (value: T) => number, load: () => Promise<T>): Promise<Cached<T>> {
    const epoch = this.epoch;
    const value = await load();
    const ttl = Math.max(0, Math.floor(ttlSeconds(value)));
    if (ttl === 0 || epoch !== this.epoch || (await this.store.heldUntil(key)) > this.now()) {
      return { value, status: "MISS", maxAge: 0 };
    }
    await this.store.set(key, { value, expiresAt: this.now() + ttl * 1000 });
    return { value, status: "MISS", maxAge: ttl };
  }

  /**
   * Drops the given keys (a trailing `*` matches a prefix). A write being built also holds them for
   * its settling time; a change already mined (seen by the event follower) does not need to.
   */
  async invalidate(patterns: string[], opts: { hold?: boolean } = {}): Promise<void> {
    if (patterns.length === 0) return;
    this.epoch++;
    if (opts.hold ?? true) await this.store.hold(patterns, this.now() + this.opts.holdMs);
    await this.store.delete(patterns);
  }

  async close(): Promise<void> {
    await this.store.close?.();
  }
}
