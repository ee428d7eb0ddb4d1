import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "../log.js";
import type { EventBridge } from "./hub.js";
import type { DocketEvent } from "./types.js";

const CHANNEL = "docket:events";

/**
 * Replicas share their events through Redis pub/sub: what one replica's follower sees is published,
 * and every replica (one without a follower too) hands it to its hub, which drops what it already
 * has. Like the cache, Redis is never a dependency: while it is away, events are neither sent nor
 * received (one warning), and a replica's own follower still feeds its own streams. Events missed
 * meanwhile are not replayed; a client resuming on another replica is told of the gap.
 */
export class RedisEventBridge implements EventBridge {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers: ((events: DocketEvent[]) => void)[] = [];
  private warned = false;
  private subscribed = false;

  /** `options`: how the cache connects (redisOptions of cache/redis.ts), handed in by the composition root. */
  constructor(
    url: string,
    private readonly log: Logger,
    options: RedisOptions,
  ) {
    // Publishing never waits on Redis (no offline queue): an event that cannot go out now is dropped.
    this.pub = new Redis(url, options);
    // The subscriber only subscribes, again on every reconnection.
    this.sub = new Redis(url, { ...options, enableOfflineQueue: true, commandTimeout: undefined });
    for (const c of [this.pub, this.sub]) c.on("error", (err: Error) => this.away(err));
    this.sub.on("ready", () => {
      this.sub.subscribe(CHANNEL).then(
        () => {
          this.subscribed = true;
        },
        (err: Error) => this.away(err),
      );
    });
    this.sub.on("close", () => {
      this.subscribed = false;
    });
    this.pub.on("ready", () => {
      if (this.warned) this.log.info("redis is back: events are shared with the other replicas again");
      this.warned = false;
    });
    this.sub.on("message", (_channel: string, message: string) => {
      let events: DocketEvent[];
      try {
        events = JSON.parse(message) as DocketEvent[];
      } catch {
        return;
      }
      if (!Array.isArray(events)) return;
      for (const h of this.handlers) h(events);
    });
  }

  /** Resolves once the subscription is live (tests wait for it before publishing). */
  async ready(timeoutMs = 2_000): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (!(this.subscribed && this.pub.status === "ready") && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.subscribed && this.pub.status === "ready";
  }

  publish(events: DocketEvent[]): void {
    this.pub.publish(CHANNEL, JSON.stringify(events)).catch((err: Error) => this.away(err));
  }

  onEvents(handler: (events: DocketEvent[]) => void): void {
    this.handlers.push(handler);
  }

  async close(): Promise<void> {
    this.handlers.length = 0;
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
    this.pub.disconnect();
    this.sub.disconnect();
  }

  private away(err: Error): void {
    if (this.warned) return;
    this.warned = true;
    this.log.warn(
      { err: err.message },
      "redis is away: events are not shared with the other replicas until it is back",
    );
  }
}
