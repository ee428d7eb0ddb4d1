import type { EventHub } from "./hub.js";
import { type DocketEvent, isChainEvent } from "./types.js";

/**
 * The events kept beyond the hub (the index's court_events): what a client resumes from when its
 * Last-Event-ID has left the hub's buffer, or was given to another replica or before a restart.
 */
export interface EventHistory {
  /**
   * The stored events after `lastId`, in chain order, page by page; undefined when `lastId` is not
   * kept (never stored, orphaned by a reorg, pruned by retention, or a chain event's id: those are
   * live only).
   */
  after(lastId: string): Promise<AsyncIterable<DocketEvent[]> | undefined>;
}

export interface ResumeTarget {
  deliver(e: DocketEvent): void;
  /** `lastId` is kept nowhere: events were missed (`oldest`: the first event that follows). */
  gap(oldest: string | null): void;
  /** Resolves when the client has read enough to take another page (a stream's drain). */
  drained?(): Promise<void>;
  /** The client is gone: stop reading pages. */
  closed?(): boolean;
}

/** Where a mined log's event sits in the chain (`<block>-<logIndex>-<hash8>`). */
function position(id: string): [number, number] | undefined {
  const m = /^(\d+)-(\d+)-[0-9a-f]{8}$/.exec(id);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

const after = (a: [number, number], b: [number, number]) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

/**
 * Sends a client what followed `lastId`, then every new event; returns the function that stops
 * listening. From the hub's buffer when it still holds `lastId` (at once, as before); else from
 * `history`, a page at a time, while new events wait in a queue: then what the hub holds past the
 * last stored event and the queue follow, each event once (an event both stored and live is sent
 * where it comes first, by its place in the chain), with no gap at the seam. A chain.reorg or
 * chain.reset is sent as it comes and opens the way to the events that replace what it undid.
 * Neither kept: the gap is said, then the hub's buffer and what comes.
 */
export async function resume(
  hub: EventHub,
  history: EventHistory | undefined,
  lastId: string,
  to: ResumeTarget,
): Promise<() => void> {
  const buffered = hub.since(lastId);
  if (!buffered.gap || !history) {
    // since() and subscribe() run in one turn: no event can fall between them.
    if (buffered.gap) to.gap(buffered.events[0]?.id ?? null);
    for (const e of buffered.events) to.deliver(e);
    return hub.subscribe((e) => to.deliver(e));
  }
  let seen: [number, number] | undefined;
  const forward = (e: DocketEvent) => {
    if (isChainEvent(e)) {
      seen = undefined;
      to.deliver(e);
      return;
    }
    const at = position(e.id);
    if (at && seen && !after(at, seen)) return;
    if (at) seen = at;
    to.deliver(e);
  };
  const queue: DocketEvent[] = [];
  let live = false;
  const unsubscribe = hub.subscribe((e) => (live ? forward(e) : queue.push(e)));
  // The index unreadable (its database away) is as if it kept nothing: the gap is said.
  const pages = await history.after(lastId).catch(() => undefined);
  if (!pages) {
    to.gap(buffered.events[0]?.id ?? null);
    for (const e of buffered.events) forward(e);
  } else {
    let last: string | undefined;
    try {
      for await (const page of pages) {
        if (to.closed?.()) break;
        for (const e of page) forward(e);
        last = page[page.length - 1]?.id ?? last;
        await to.drained?.();
      }
    } catch {
      to.gap(null);
    }
    // What the hub held past the last stored event (the index may trail the hub), by place in the chain.
    for (const e of hub.since(last ?? lastId).events) forward(e);
  }
  for (const e of queue.splice(0)) forward(e);
  live = true;
  return unsubscribe;
}
