import type { Request, Response } from "express";
import { z } from "zod";
import { sendError } from "../doors/httpErrors.js";
import { DocketError } from "../errors/errors.js";
import type { EventHub } from "../events/hub.js";
import { type EventHistory, resume } from "../events/resume.js";
import { type DocketEvent, EVENT_TYPES, type EventFilter, GAP_EVENT, matches } from "../events/types.js";
import type { Logger } from "../log.js";
import { address, validationError } from "../operations/kernel/schemas.js";

export interface EventStreamLimits {
  /** EVENTS_MAX_STREAMS: open streams at most; one more is 503. */
  maxStreams: number;
  /** EVENTS_MAX_QUEUED_BYTES: bytes a stream may leave unread before it is cut off. */
  maxQueuedBytes: number;
  /** EVENTS_PING_MS: how often an idle stream says it is alive (proxies cut silent connections). */
  pingMs: number;
}

/** How long a client's EventSource waits before it reconnects (the `retry:` hint). */
const RETRY_MS = 3_000;
/** A Last-Event-ID longer than this is not one of ours; it is echoed back cut to this length. */
const MAX_ID = 100;

const known = new Set<string>(EVENT_TYPES);

/** The query parameters, described once for the schema and the OpenAPI entry. */
const about = {
  case: "Only the events of this case",
  address:
    "Only the events that concern this address: a party or judge of the event's case, the agent or judge it is about",
  types: `Comma-separated event types to receive (default: all): ${EVENT_TYPES.join(", ")}`,
  lastEventId: "Resume after this event id, for clients that cannot send the Last-Event-ID header",
} as const;

const typeList = z
  .string()
  .max(2_000)
  .transform((s) =>
    s
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .check((ctx) => {
    const unknown = ctx.value.filter((t) => !known.has(t));
    if (unknown.length > 0) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `unknown event type ${unknown.map((t) => `'${t.slice(0, 40)}'`).join(", ")}; known: ${EVENT_TYPES.join(", ")}`,
        params: { docketCode: "INVALID_INPUT" },
      });
    }
  })
  .describe(about.types);

/** The query of `GET /events`: every filter given must match. */
export const eventsQuery = z.object({
  case: address(about.case).optional(),
  address: address(about.address).optional(),
  types: typeList.optional(),
  lastEventId: z.string().max(1_000).describe(about.lastEventId).optional(),
});

/** One event in the text/event-stream format. JSON never holds a raw newline, so `data` is one line. */
function frame(e: { id?: string; type: string; data: unknown }): string {
  return `${e.id ? `id: ${e.id}\n` : ""}event: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/**
 * `GET /events`: court events pushed as Server-Sent Events as the follower sees them mined, so a
 * client learns it was drawn, that a vote is due or that a verdict came without polling.
 *
 * Bounded three ways: streams open at once (503 past the cap), bytes a stream may leave unread (a
 * client that stops reading is cut off, so one stalled reader never makes docket buffer without
 * end; the others are unaffected). A client resumes from the hub's buffer or, past it, from the index.
 */
export class EventStreams {
  private readonly open = new Set<Response>();
  private closed = false;

  constructor(
    private readonly hub: EventHub,
    private readonly log: Logger,
    private readonly limits: EventStreamLimits,
    /** The events kept beyond the hub (the index), to resume from any id it holds. */
    private readonly history?: EventHistory,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** GET /events */
  handler = (req: Request, res: Response): void => {
    let filter: EventFilter;
    let lastId: string | undefined;
    try {
      const parsed = eventsQuery.safeParse(req.query);
      if (!parsed.success) throw validationError(parsed.error, req.query);
      const q = parsed.data;
      filter = { case: q.case, address: q.address, types: q.types };
      lastId = req.get("last-event-id") ?? q.lastEventId;
      const { maxStreams } = this.limits;
      if (this.closed || this.open.size >= maxStreams) {
        res.set("Retry-After", "5");
        throw new DocketError(
          "SERVICE_UNAVAILABLE",
          `${maxStreams} event streams are open, the most docket keeps; retry later`,
          {
            maxStreams,
          },
        );
      }
    } catch (err) {
      sendError(res, err, this.log);
      return;
    }
    this.stream(req, res, filter, lastId);
  };

  private stream(req: Request, res: Response, filter: EventFilter, lastId: string | undefined): void {
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      // Reverse proxies (nginx) would otherwise hold events back to fill their buffer.
      "X-Accel-Buffering": "no",
    });
    // A HEAD has its answer in the headers: holding it open would only take a stream's place.
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    req.socket.setNoDelay(true);
    this.open.add(res);
    const send = (chunk: string) => {
      if (res.destroyed) return;
      if (res.writableLength > this.limits.maxQueuedBytes) {
        this.log.warn(
          { queued: res.writableLength, maxQueuedBytes: this.limits.maxQueuedBytes },
          "event stream client not reading: stream closed",
        );
        res.destroy();
        return;
      }
      res.write(chunk);
    };
    const deliver = (e: DocketEvent) => {
      // The whole event is the data: its case, block, transaction and addresses as well as its args.
      if (matches(e, filter)) send(frame({ id: e.id, type: e.type, data: e }));
    };
    send(`retry: ${RETRY_MS}\n\n`);
    const ping = setInterval(() => send(": ping\n\n"), this.limits.pingMs);
    ping.unref();
    let unsubscribe: (() => void) | undefined;
    let gone = false;
    res.on("close", () => {
      gone = true;
      clearInterval(ping);
      unsubscribe?.();
      this.open.delete(res);
    });
    if (lastId === undefined) {
      unsubscribe = this.hub.subscribe(deliver);
      return;
    }
    const resumeId = lastId;
    resume(this.hub, this.history, resumeId, {
      deliver,
      gap: (oldest) =>
        send(
          frame({
            type: GAP_EVENT,
            data: {
              lastEventId: resumeId.slice(0, MAX_ID),
              oldest,
              message:
                "events after this id are no longer kept: some were missed; read the state you follow again. The events kept follow.",
            },
          }),
        ),
      // A client far behind takes the stored events a page at a time, as fast as it reads them.
      drained: () =>
        res.writableLength > this.limits.maxQueuedBytes / 2 && !res.destroyed
          ? new Promise<void>((r) => {
              res.once("drain", r);
              res.once("close", r);
            })
          : Promise.resolve(),
      closed: () => gone,
    }).then(
      (stop) => {
        if (gone) stop();
        else unsubscribe = stop;
      },
      (err: unknown) => {
        this.log.warn({ err: (err as Error).message }, "event stream could not resume");
        res.destroy();
      },
    );
  }

  /** Ends every stream (their clients see the end and may reconnect elsewhere) and refuses new ones. */
  close(): void {
    this.closed = true;
    for (const res of this.open) res.end();
    this.open.clear();
  }
}

/** The `/events` entry of the OpenAPI document: a route of its own, not an operation. */
export const eventsOpenApi = {
  get: {
    operationId: "stream_events",
    summary: "Stream court events (Server-Sent Events)",
    description: `Court events pushed as they are mined (within one follower poll), as text/event-stream: each event as \`id\`, \`event: <type>\` and \`data: <json>\` (\`{ id, type, block, txHash, case?, addresses, data }\`). Resume with the Last-Event-ID header (or \`lastEventId\`) from any event id the index keeps (across restarts and replicas): the events after it are replayed, a page at a time, then the live ones, each once; when the id is kept nowhere (orphaned by a reorg, pruned by INDEX_RETENTION, a chain event's id that left the buffer) an \`${GAP_EVENT}\` event comes first (read state again). A \`: ping\` comment keeps idle streams open. chain.reorg and chain.reset pass every filter. Not an MCP tool.`,
    tags: ["events"],
    parameters: [
      ...(["case", "address", "types", "lastEventId"] as const).map((name) => ({
        name,
        in: "query",
        required: false,
        description: about[name],
        schema: { type: "string" },
      })),
      {
        name: "Last-Event-ID",
        in: "header",
        required: false,
        description: "The id of the last event received: resume after it",
        schema: { type: "string" },
      },
    ],
    responses: {
      "200": {
        description: "An endless event stream",
        content: { "text/event-stream": { schema: { type: "string" } } },
      },
      ...Object.fromEntries(
        [
          ["400", "A malformed address or an unknown event type"],
          ["429", "Rate limited"],
          ["503", "Too many event streams are open (EVENTS_MAX_STREAMS); retry later"],
        ].map(([status, description]) => [
          status,
          {
            description,
            content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
          },
        ]),
      ),
    },
  },
} as const;
