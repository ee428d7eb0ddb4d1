import { EventSource } from "eventsource";
import { EVENT_TYPES, GAP_EVENT } from "../../src/events/types.js";

export interface Received {
  id: string;
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: events are checked field by field
  data: any;
}

/**
 * A real SSE client (the `eventsource` package, as a browser's EventSource) on `GET /events`,
 * keeping what it receives. `lastEventId` is sent as the Last-Event-ID header on the first
 * connection, as the client itself sends it when it reconnects.
 */
export class Listener {
  readonly received: Received[] = [];
  private readonly es: EventSource;
  readonly opened: Promise<void>;

  private constructor(url: string, lastEventId?: string) {
    this.es = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...init.headers, ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
        }),
    });
    for (const type of [...EVENT_TYPES, GAP_EVENT]) {
      this.es.addEventListener(type, (e) => {
        const m = e as MessageEvent;
        this.received.push({ id: m.lastEventId, type, data: JSON.parse(m.data) });
      });
    }
    this.opened = new Promise((resolve, reject) => {
      this.es.onopen = () => resolve();
      this.es.onerror = (e) => reject(new Error(`event stream ${url} failed: ${e.code ?? ""} ${e.message ?? ""}`));
    });
  }

  /** Opens a stream on `base/events?query` and waits until docket has answered with its headers. */
  static async open(base: string, query = "", lastEventId?: string): Promise<Listener> {
    const l = new Listener(`${base}/events${query ? `?${query}` : ""}`, lastEventId);
    await l.opened;
    return l;
  }

  /** Waits until an event matching `pred` has arrived (an event is pushed within one poll: the wait is for the socket). */
  async next(pred: (e: Received) => boolean, ms = 10_000): Promise<Received> {
    const end = Date.now() + ms;
    for (;;) {
      const hit = this.received.find(pred);
      if (hit) return hit;
      if (Date.now() > end) {
        throw new Error(`no matching event within ${ms} ms; received ${this.received.map((e) => e.type).join(", ")}`);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  types(): string[] {
    return this.received.map((e) => e.type);
  }

  close(): void {
    this.es.close();
  }
}

/** A raw `GET /events` for what an SSE client cannot show: the status and body of a refusal. */
export async function refusal(
  base: string,
  query: string,
  // biome-ignore lint/suspicious/noExplicitAny: refusals are checked field by field
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${base}/events?${query}`);
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/event-stream")) {
    await res.body?.cancel();
    return { status: res.status, headers: res.headers, body: undefined };
  }
  return { status: res.status, headers: res.headers, body: await res.json() };
}
