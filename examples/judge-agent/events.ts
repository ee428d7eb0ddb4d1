/**
 * A small Server-Sent Events reader over fetch, so the agent needs no package beyond viem: it reads
 * docket's `GET /events` frames, reconnects after a drop with Last-Event-ID (docket replays what it
 * still buffers), and says when it is connected, since events may have been missed while it was not.
 */

export interface CourtEvent {
  id: string;
  type: string;
  case?: string;
  addresses: string[];
  data: Record<string, unknown>;
}

export interface EventHandlers {
  /** The stream is open (again): read the state you follow, events may have passed meanwhile. */
  connected: () => void;
  event: (e: CourtEvent) => void;
  lost: (message: string) => void;
}

/** Follows `url` for ever, reconnecting after `retryMs` (docket's `retry:` hint when it sent one). */
export function followEvents(url: string, on: EventHandlers): void {
  let lastId: string | undefined;
  let retryMs = 3_000;
  void (async () => {
    for (;;) {
      try {
        const res = await fetch(url, {
          headers: { accept: "text/event-stream", ...(lastId ? { "last-event-id": lastId } : {}) },
        });
        if (!res.ok || !res.body) throw new Error(`GET /events answered ${res.status}`);
        on.connected();
        let buffer = "";
        for await (const chunk of res.body.pipeThrough(new TextDecoderStream())) {
          buffer += chunk.replace(/\r\n?/g, "\n");
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const frame = parse(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            if (frame.retry) retryMs = frame.retry;
            if (frame.id) lastId = frame.id;
            if (frame.data) on.event({ ...(JSON.parse(frame.data) as CourtEvent), type: frame.event ?? "message" });
          }
        }
        on.lost("the stream ended");
      } catch (err) {
        on.lost((err as Error).message);
      }
      await new Promise((r) => setTimeout(r, retryMs));
    }
  })();
}

/** One frame's fields; comment lines (`: ping`) are skipped. */
function parse(frame: string): { id?: string; event?: string; data?: string; retry?: number } {
  const out: { id?: string; event?: string; data?: string; retry?: number } = {};
  for (const line of frame.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") out.id = value;
    else if (field === "event") out.event = value;
    else if (field === "data") out.data = out.data === undefined ? value : `${out.data}\n${value}`;
    else if (field === "retry" && /^\d+$/.test(value)) out.retry = Number(value);
  }
  return out;
}
