import type { EventHub } from "../events/hub.js";
import type { DocketEvent } from "../events/types.js";

/**
 * The latest court events this replica has seen, for the overview and a case's timeline. The hub
 * keeps its own buffer for resuming streams; this is a short, newest-first view of it.
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

  /** The events of one case this replica saw, oldest first. */
  ofCase(address: string): DocketEvent[] {
    const a = address.toLowerCase();
    return this.events.filter((e) => e.case?.toLowerCase() === a).reverse();
  }

  close(): void {
    this.stop();
  }
}
