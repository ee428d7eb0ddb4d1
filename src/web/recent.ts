import type { EventHub } from "../events/hub.js";
import type { DocketEvent } from "../events/types.js";

/**
 * The latest court events this replica has seen, for the overview (after the index's newest, which
 * may lag the follower by a step). The hub keeps its own buffer for resuming streams; this is a
 * short, newest-first view of it.
 */
export class RecentEvents {
  private readonly events: DocketEvent[] = [];
  private readonly stop: () => void;

  constructor(
    hub: EventHub,
    private readonly max = 500,
  ) {
    this.stop = hub.subscribe((e) => {
      this.events.unshift(e);
      if (this.events.length > this.max) this.events.length = this.max;
    });
  }

  /** The newest `n` events, newest first. */
  latest(n: number): DocketEvent[] {
    return this.events.slice(0, n);
  }

  close(): void {
    this.stop();
  }
}
