/**
 * What a cache store keeps: a JSON-able value, when it stops being fresh, and until when it may
 * still be served if the chain cannot be read (stale-if-error). Times are ms since the epoch.
 */
export interface CacheEntry {
  value: unknown;
  expiresAt: number;
  staleUntil: number;
  storedAt: number;
}

/** The storage behind the cache: in-process LRU by default, Redis when shared by replicas. */
export interface CacheStore {
  /** The entry until its `staleUntil`, fresh or not: the Cache decides what to do with it. */
  get(key: string): Promise<CacheEntry | undefined>;
  /** The same, synchronously, for a store in this process; a remote store has none. */
  peek?(key: string): CacheEntry | undefined;
  /**
   * Stores the entry unless a live hold covers its key (checked in the same step as the write, so a
   * hold placed by another replica meanwhile is never overwritten). Says whether it was stored: not
   * when held, nor when the store is unavailable.
   */
  set(key: string, entry: CacheEntry): Promise<boolean>;
  /** Deletes exact keys, and every key starting with the prefix of a pattern ending in `*`. */
  delete(patterns: string[]): Promise<void>;
  /** Marks keys as "just written": until `until`, reads are served fresh and not stored. */
  hold(patterns: string[], until: number): Promise<void>;
  /** Called with the patterns any replica invalidates (a shared store only). */
  onInvalidate?(listener: (patterns: string[]) => void): void;
  close?(): Promise<void>;
}

export type CacheStatus = "HIT" | "MISS" | "STALE";

export interface Cached<T> {
  value: T;
  status: CacheStatus;
  /** Seconds the value may still be reused (0 when it was not cached, or is stale). */
  maxAge: number;
  /** Seconds since the value was read from the chain, for a stale answer. */
  age?: number;
}

export interface CacheOptions {
  /** How long a write's keys are held (read fresh, not stored) after it is built. */
  holdMs: number;
  /** How long past its TTL an entry may be served when the chain cannot be read (0: never). */
  staleMs?: number;
  now?: () => number;
}

export function matches(pattern: string, key: string): boolean {
  return pattern.endsWith("*") ? key.startsWith(pattern.slice(0, -1)) : key === pattern;
}

/**
 * The read cache: per-key TTLs chosen from the value, single-flight for concurrent misses of one
 * key, exact invalidation, and stale-if-error. After a write is built, its keys are held for
 * `holdMs`: reads in that window go to the chain, so a transaction broadcast right after shows at once.
 */
export class Cache {
  /** Loads in flight per key, with the epoch each started in. */
  private readonly inflight = new Map<string, { p: Promise<Cached<unknown>>; epoch: number }>();
  /** Bumped by every invalidation: a load that overlapped one may have read the old state. */
  private epoch = 0;

  constructor(
    readonly store: CacheStore,
    private readonly opts: CacheOptions = { holdMs: 120_000 },
  ) {
    // Another replica's invalidation also makes this replica's in-flight loads suspect.
    store.onInvalidate?.(() => {
      this.epoch++;
    });
  }

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /**
   * The value for `key` if it is fresh in an in-process store, without awaiting anything: the
   * fast path of a cache hit. Undefined otherwise (then `wrap` decides).
   */
  peek<T>(key: string): Cached<T> | undefined {
    const entry = this.store.peek?.(key);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.expiresAt <= now) return undefined;
    return this.hit(entry, now);
  }

  private hit<T>(entry: CacheEntry, now: number): Cached<T> {
    return { value: entry.value as T, status: "HIT", maxAge: Math.max(0, Math.floor((entry.expiresAt - now) / 1000)) };
  }

  /**
   * The value for `key`: from the cache while fresh, else loaded once for all concurrent callers.
   * If the load fails and `staleIf(err)` says the failure is the chain's, an entry within its
   * stale window is served instead, marked STALE.
   */
  async wrap<T>(
    key: string,
    ttlSeconds: (value: T) => number,
    load: () => Promise<T>,
    staleIf: (err: unknown) => boolean = () => false,
  ): Promise<Cached<T>> {
    const entry = await this.store.get(key);
    const now = this.now();
    if (entry && entry.expiresAt > now) return this.hit(entry, now);
    // A load started before an invalidation (a write, a reorg) may have read the old state: later
    // callers do not join it, they start their own.
    const current = this.inflight.get(key);
    const pending = current?.epoch === this.epoch ? (current.p as Promise<Cached<T>>) : undefined;
    const p = pending ?? this.fill(key, ttlSeconds, load);
    if (!pending) {
      const slot = { p: p as Promise<Cached<unknown>>, epoch: this.epoch };
      this.inflight.set(key, slot);
      p.finally(() => {
        if (this.inflight.get(key) === slot) this.inflight.delete(key);
      }).catch(() => {});
    }
    try {
      return await p;
    } catch (err) {
      if (entry && entry.staleUntil > this.now() && staleIf(err)) {
        const age = Math.max(0, Math.floor((this.now() - entry.storedAt) / 1000));
        return { value: entry.value as T, status: "STALE", maxAge: 0, age };
      }
      throw err;
    }
  }

  private async fill<T>(key: string, ttlSeconds: (value: T) => number, load: () => Promise<T>): Promise<Cached<T>> {
    const epoch = this.epoch;
    const value = await load();
    const ttl = Math.max(0, Math.floor(ttlSeconds(value)));
    if (ttl === 0 || epoch !== this.epoch) return { value, status: "MISS", maxAge: 0 };
    const now = this.now();
    const expiresAt = now + ttl * 1000;
    // Not stored (held by a write, or the store is away): nobody will reuse it, so neither may the client.
    const stored = await this.store.set(key, {
      value,
      expiresAt,
      staleUntil: expiresAt + (this.opts.staleMs ?? 0),
      storedAt: now,
    });
    return { value, status: "MISS", maxAge: stored ? ttl : 0 };
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
