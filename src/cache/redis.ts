import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "../log.js";
import type { CacheEntry, CacheStore } from "./cache.js";

const NS = "docket:";
const HOLDS = `${NS}holds`;
const CHANNEL = `${NS}invalidate`;

/** How long one Redis command may take before Redis counts as away (a hung server must not hang requests). */
const COMMAND_TIMEOUT_MS = 1_000;
/** While Redis is away but the connection looks up, how often to ask whether it answers again. */
const PROBE_MS = 500;

/** `true` when a live hold covers the key: the same rule as `matches`, in Lua. */
const HELD_LUA = `
local function held(key, now)
  local holds = redis.call("HGETALL", KEYS[2])
  for i = 1, #holds, 2 do
    local p, t = holds[i], tonumber(holds[i + 1])
    if t and t > now then
      if p == key then return true end
      if string.sub(p, -1) == "*" and string.sub(key, 1, #p - 1) == string.sub(p, 1, #p - 1) then return true end
    end
  end
  return false
end
`;

/**
 * Stores an entry unless a hold covers its key, in one step: a write built on another replica between
 * our check and our store would otherwise be overwritten by what we read before it.
 * KEYS: entry, holds. ARGV: key, value, ttl ms, now ms.
 */
const SET_UNLESS_HELD = `${HELD_LUA}
if held(ARGV[1], tonumber(ARGV[4])) then return 0 end
redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
return 1
`;

/**
 * Holds patterns until a time (never shortening a longer hold) and drops expired holds, in one step.
 * KEYS: holds. ARGV: until ms, now ms, patterns...
 */
const HOLD = `
local untilMs, now = tonumber(ARGV[1]), tonumber(ARGV[2])
local holds = redis.call("HGETALL", KEYS[1])
for i = 1, #holds, 2 do
  if (tonumber(holds[i + 1]) or 0) <= now then redis.call("HDEL", KEYS[1], holds[i]) end
end
for i = 3, #ARGV do
  local current = tonumber(redis.call("HGET", KEYS[1], ARGV[i]) or "0") or 0
  if untilMs > current then redis.call("HSET", KEYS[1], ARGV[i], ARGV[1]) end
end
return 1
`;

/**
 * How docket connects to Redis, for the cache and the event bridge alike: fail fast while
 * disconnected instead of queueing (a request must not wait on Redis), and reconnect for ever.
 */
export const redisOptions: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: COMMAND_TIMEOUT_MS,
  connectTimeout: 2_000,
  retryStrategy: (times: number) => Math.min(times * 200, 2_000),
  lazyConnect: false,
};

type Scripted = Redis & {
  docketSetUnlessHeld(
    entry: string,
    holds: string,
    key: string,
    value: string,
    ttl: number,
    now: number,
  ): Promise<number>;
  docketHold(holds: string, until: number, now: number, ...patterns: string[]): Promise<number>;
};

/**
 * The shared store for several replicas: entries and holds live in Redis, so an invalidation by one
 * replica (a key deleted, a key held) is seen by all at once. Every invalidation is also published,
 * so each replica knows that its in-flight loads may have read old state (see Cache's epoch).
 *
 * Redis going away never fails a request: reads become uncached, with one warning. The deletes and
 * holds that could not be applied are kept and applied when Redis answers again, before this
 * replica reads from it again, so a Redis that comes back with its data (persistence, a promoted
 * replica) serves nothing those writes made stale.
 */
export class RedisStore implements CacheStore {
  private readonly client: Scripted;
  private readonly sub: Redis;
  private readonly pendingDeletes = new Set<string>();
  private readonly pendingHolds = new Map<string, number>();
  /** Connected, and everything missed while away applied: only then is Redis read. */
  private up = false;
  private recovering?: Promise<void>;
  private probe?: NodeJS.Timeout;
  private warned = false;
  private closed = false;
  private readonly listeners = new Set<(patterns: string[]) => void>();
  private readonly waiters = new Set<() => void>();

  constructor(
    url: string,
    private readonly log: Logger,
  ) {
    const options = redisOptions;
    this.client = new Redis(url, options) as Scripted;
    this.client.defineCommand("docketSetUnlessHeld", { numberOfKeys: 2, lua: SET_UNLESS_HELD });
    this.client.defineCommand("docketHold", { numberOfKeys: 1, lua: HOLD });
    // The subscriber only ever subscribes; a timeout on it would only cut it needlessly.
    this.sub = new Redis(url, { ...options, enableOfflineQueue: true, commandTimeout: undefined });
    for (const c of [this.client, this.sub]) {
      c.on("error", (err: Error) => this.degraded(err));
    }
    this.client.on("ready", () => this.recover());
    this.client.on("close", () => this.down());
    let subscribedOnce = false;
    this.sub.on("ready", () => {
      this.sub.subscribe(CHANNEL).catch((err: Error) => this.degraded(err));
      // Invalidations published while we were not listening are lost: all loads in flight are suspect.
      if (subscribedOnce) this.notify(["*"]);
      subscribedOnce = true;
    });
    this.sub.on("message", (_channel: string, message: string) => {
      try {
        this.notify(JSON.parse(message) as string[]);
      } catch {
        // not ours
      }
    });
  }

  /** Resolves once Redis is in use (true), or after `timeoutMs` if it is not reachable (false). */
  async ready(timeoutMs = 2_000): Promise<boolean> {
    if (this.up) return true;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.waiters.delete(done);
        resolve(this.up);
      };
      const t = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }

  /** Whether Redis is in use right now (false while it is away or being caught up). */
  get online(): boolean {
    return this.up && this.client.status === "ready";
  }

  /** Called with the patterns every replica (this one included) invalidates. */
  onInvalidate(listener: (patterns: string[]) => void): void {
    this.listeners.add(listener);
  }

  private notify(patterns: string[]): void {
    for (const l of this.listeners) l(patterns);
  }

  private degraded(err: Error): void {
    if (this.closed) return;
    if (!this.warned) {
      this.log.warn({ err: err.message }, "redis unavailable: serving uncached reads until it is back");
      this.warned = true;
    }
  }

  private down(): void {
    this.up = false;
  }

  /**
   * Redis failed a command while the connection looks up (a timeout, a hung or overloaded server):
   * stop using it, and ask it with PING until it answers; reconnects end the same way, through "ready".
   */
  private trip(err: Error): void {
    this.degraded(err);
    this.up = false;
    if (this.probe || this.closed) return;
    this.probe = setTimeout(() => {
      this.probe = undefined;
      if (this.closed || this.up || this.client.status !== "ready") return;
      this.client.ping().then(
        () => this.recover(),
        (e: Error) => this.trip(e),
      );
    }, PROBE_MS);
    this.probe.unref();
  }

  /** Applies the holds and deletes missed while away, then uses Redis again. */
  private recover(): void {
    if (this.recovering || this.closed) return;
    // (Cleared in a callback, which always runs after the assignment, even when nothing was pending.)
    this.recovering = this.catchUp().finally(() => {
      this.recovering = undefined;
    });
  }

  private async catchUp(): Promise<void> {
    try {
      while (this.pendingHolds.size > 0 || this.pendingDeletes.size > 0) {
        const holds = new Map(this.pendingHolds);
        const deletes = [...this.pendingDeletes];
        this.pendingHolds.clear();
        this.pendingDeletes.clear();
        try {
          await this.holdNow(holds);
          if (deletes.length > 0) await this.deleteNow(deletes);
        } catch (err) {
          this.queue(deletes, holds);
          throw err;
        }
      }
      // Lost again meanwhile: the next "ready" catches up again.
      if (this.client.status !== "ready") return;
      this.up = true;
      if (this.warned) this.log.info("redis is back: cache shared again");
      this.warned = false;
      // Invalidations by others while we were away reached nobody here: loads in flight are suspect.
      this.notify(["*"]);
      for (const w of [...this.waiters]) w();
    } catch (err) {
      this.trip(err as Error);
    }
  }

  private queue(deletes: Iterable<string>, holds: Map<string, number>): void {
    for (const p of deletes) this.pendingDeletes.add(p);
    for (const [p, t] of holds) this.pendingHolds.set(p, Math.max(t, this.pendingHolds.get(p) ?? 0));
  }

  /** Runs `op` against Redis if it is in use; otherwise, or if it fails, `fallback` (and `onFail`). */
  private async safely<T>(fallback: T, op: () => Promise<T>, onFail?: () => void): Promise<T> {
    if (!this.online) {
      const status = this.client.status;
      this.degraded(new Error(status === "ready" ? "redis is being caught up" : `redis is ${status}`));
      onFail?.();
      return fallback;
    }
    try {
      return await op();
    } catch (err) {
      onFail?.();
      if (this.client.status === "ready") this.trip(err as Error);
      else this.degraded(err as Error);
      return fallback;
    }
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.safely(undefined, async () => {
      const raw = await this.client.get(NS + key);
      return raw ? (JSON.parse(raw) as CacheEntry) : undefined;
    });
  }

  async set(key: string, entry: CacheEntry): Promise<boolean> {
    return this.safely(false, async () => {
      const now = Date.now();
      const ms = Math.max(1, Math.ceil(entry.staleUntil - now));
      const stored = await this.client.docketSetUnlessHeld(NS + key, HOLDS, key, JSON.stringify(entry), ms, now);
      return stored === 1;
    });
  }

  async delete(patterns: string[]): Promise<void> {
    if (patterns.length === 0) return;
    // Applied later if Redis is away, so nothing stale outlives the outage.
    await this.safely(
      undefined,
      () => this.deleteNow(patterns),
      () => this.queue(patterns, new Map()),
    );
  }

  private async deleteNow(patterns: string[]): Promise<void> {
    const exact = patterns.filter((p) => !p.endsWith("*")).map((p) => NS + p);
    if (exact.length > 0) await this.client.del(...exact);
    for (const p of patterns.filter((x) => x.endsWith("*"))) {
      let cursor = "0";
      do {
        const [next, keys] = await this.client.scan(cursor, "MATCH", `${NS}${p}`, "COUNT", 500);
        cursor = next;
        // The holds hash and rate-limit counters share the namespace; `*` means cache entries only.
        const entries = keys.filter((k) => k !== HOLDS && !k.startsWith(`${NS}rl:`));
        if (entries.length > 0) await this.client.del(...entries);
      } while (cursor !== "0");
    }
    await this.client.publish(CHANNEL, JSON.stringify(patterns));
  }

  async hold(patterns: string[], until: number): Promise<void> {
    if (patterns.length === 0) return;
    await this.safely(
      undefined,
      () => this.holdNow(new Map(patterns.map((p) => [p, until]))),
      () => this.queue([], new Map(patterns.map((p) => [p, until]))),
    );
  }

  private async holdNow(holds: Map<string, number>): Promise<void> {
    // One call per distinct time (a replay may carry several).
    const byTime = new Map<number, string[]>();
    for (const [p, t] of holds) byTime.set(t, [...(byTime.get(t) ?? []), p]);
    for (const [t, ps] of byTime) await this.client.docketHold(HOLDS, t, Date.now(), ...ps);
  }

  /** The client, for the shared rate-limit store. */
  get redis(): Redis {
    return this.client;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.up = false;
    if (this.probe) clearTimeout(this.probe);
    for (const w of [...this.waiters]) w();
    this.client.disconnect();
    this.sub.disconnect();
  }
}
