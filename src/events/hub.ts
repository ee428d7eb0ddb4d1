import type { DocketEvent } from "./types.js";

/** Where events go to and come from beyond this process (Redis pub/sub with REDIS_URL). */
export interface EventBridge {
  publish(events: DocketEvent[]): void;
  /** Called with events another replica's follower saw. */
  onEvents(handler: (events: DocketEvent[]) => void): void;
  close(): Promise<void>;
}

export type EventListener = (event: DocketEvent) => void;

/**
 * The recent events of this replica, in arrival order, and who listens to them: `/events` streams
 * and MCP subscriptions. Bounded: the oldest event leaves when the buffer is full. An event seen
 * twice (this replica's follower and another's, through the bridge) is kept and delivered once.
 */
export class EventHub {
  private readonly buffer: DocketEvent[] = [];
  private readonly ids = new Set<string>();
  private readonly listeners = new Set<EventListener>();
  private bridge?: EventBridge;

  constructor(readonly capacity = 1000) {}

  /** Connects a bridge: what this replica publishes goes out, what others publish comes in. */
  connect(bridge: EventBridge): void {
    this.bridge = bridge;
    bridge.onEvents((events) => this.accept(events));
  }

  /** Events this replica's follower saw: kept, delivered, and sent to the other replicas. */
  publish(events: DocketEvent[]): void {
    const fresh = this.accept(events);
    if (fresh.length > 0) this.bridge?.publish(fresh);
  }

  /** Keeps and delivers the events not seen yet; returns them. */
  accept(events: DocketEvent[]): DocketEvent[] {
    const fresh: DocketEvent[] = [];
    for (const e of events) {
      if (this.ids.has(e.id)) continue;
      this.ids.add(e.id);
      this.buffer.push(e);
      fresh.push(e);
      if (this.buffer.length > this.capacity) {
        const old = this.buffer.shift() as DocketEvent;
        this.ids.delete(old.id);
      }
    }
    for (const e of fresh) {
      for (const l of this.listeners) l(e);
    }
    return fresh;
  }

  /**
   * The events after `lastId`, for a stream resuming with Last-Event-ID. `gap` is true when
   * `lastId` is no longer in the buffer (the client missed events and should read state again);
   * the whole buffer is returned then.
   */
  since(lastId: string | undefined): { events: DocketEvent[]; gap: boolean } {
    if (lastId === undefined) return { events: [], gap: false };
    const i = this.buffer.findIndex((e) => e.id === lastId);
    if (i < 0) return { events: [...this.buffer], gap: true };
    return { events: this.buffer.slice(i + 1), gap: false };
  }

  /** Listens to every new event; returns the function that stops listening. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.buffer.length;
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.bridge?.close();
  }
}
