import {
  type ClientRateLimitInfo,
  type IncrementResponse,
  MemoryStore,
  type Options,
  type Store,
} from "express-rate-limit";
import { RedisStore as RedisCounters } from "rate-limit-redis";
import type { RedisStore } from "./redis.js";

/**
 * The rate-limit store for replicas: counters in Redis (under `docket:rl:`), so requests spread
 * over replicas count against one budget per client. While Redis is away each replica counts on its
 * own, in memory, instead of failing or letting everything through; back on Redis when it returns.
 *
 * (rate-limit-redis alone loads its scripts once, at start: had Redis been away then, it would
 * never count again, and it throws on every request while Redis is away.)
 */
export class SharedRateLimitStore implements Store {
  readonly prefix = "docket:rl:";
  readonly localKeys = false;
  private readonly local = new MemoryStore();
  private readonly shared: RedisCounters;
  private options?: Options;
  /** The scripts loaded into Redis, or being loaded; cleared when that fails, to load them again. */
  private loaded?: Promise<boolean>;

  constructor(private readonly cache: RedisStore) {
    this.shared = new RedisCounters({
      prefix: this.prefix,
      sendCommand: (command: string, ...args: string[]) => cache.redis.call(command, ...args) as Promise<never>,
    });
  }

  init(options: Options): void {
    this.options = options;
    this.local.init(options);
    void this.sharedReady();
  }

  private sharedReady(): Promise<boolean> {
    if (!this.options || !this.cache.online) return Promise.resolve(false);
    this.loaded ??= this.shared.init(this.options).then(
      () => true,
      () => {
        this.loaded = undefined;
        return false;
      },
    );
    return this.loaded;
  }

  /** The shared counter when Redis answers, else the local one. */
  private async either<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    if (await this.sharedReady()) {
      try {
        return await shared();
      } catch {
        // Scripts may be gone with the Redis that had them: load again next time.
        this.loaded = undefined;
      }
    }
    return local();
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.either(
      () => this.shared.get(key),
      () => this.local.get(key),
    );
  }

  async increment(key: string): Promise<IncrementResponse> {
    return this.either(
      () => this.shared.increment(key),
      () => this.local.increment(key),
    );
  }

  async decrement(key: string): Promise<void> {
    return this.either(
      () => this.shared.decrement(key),
      () => this.local.decrement(key),
    );
  }

  async resetKey(key: string): Promise<void> {
    await this.local.resetKey(key);
    await this.either(
      () => this.shared.resetKey(key),
      async () => {},
    );
  }

  shutdown(): void {
    this.local.shutdown();
  }
}
