import { type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { getAddress } from "viem";
import type { EventHub } from "../events/hub.js";
import { type EventHistory, resume } from "../events/resume.js";
import { type DocketEvent, GAP_EVENT, isChainEvent } from "../events/types.js";
import type { Ctx, Operation } from "../operations/kernel/operation.js";
import { caseUri, inboxUri, type ResourceTarget, readTarget, resourceTarget, servesInbox } from "./resources.js";

/** Resources one session may watch at once; one more is refused (-32602). */
export const MAX_SUBSCRIPTIONS = 1000;

/** What an event or a subscription is matched on: the kind and the lowercased address. */
function watchKey(kind: ResourceTarget["kind"], address: string): string {
  return `${kind}:${address.toLowerCase()}`;
}

/** Event ids a client may give (as GET /events' Last-Event-ID): bounded, one line of printable text. */
const EVENT_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * The court event id a subscribe request resumes after: `_meta.lastEventId` (or `lastEventId` beside
 * the uri); undefined for none; -32602 for one that cannot be an id.
 */
export function lastEventIdOf(
  params: { _meta?: Record<string, unknown> } & Record<string, unknown>,
): string | undefined {
  const id = params._meta?.lastEventId ?? params.lastEventId;
  if (id === undefined) return undefined;
  if (typeof id !== "string" || !EVENT_ID.test(id)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      "lastEventId: give an event id as a notification's _meta.eventId said it",
    );
  }
  return id;
}

/**
 * The updates owed to a client that resumes after `lastId`, read as GET /events resumes (the hub's
 * buffer, else the index): one per URI of `uris` the events since touched (`touched` says which an
 * event does), its `_meta` naming the last such event; for an id kept nowhere, one per URI with the
 * gap (`gap`, `type: events.gap`, GET /events' signal: read the resource afresh). Live events are
 * the caller's: it listens from before the call.
 */
export async function updatesSince(
  hub: EventHub,
  history: EventHistory | undefined,
  lastId: string,
  uris: readonly string[],
  touched: (e: DocketEvent) => Iterable<string>,
): Promise<Map<string, Record<string, unknown>>> {
  const last = new Map<string, string>();
  let gap: { oldest: string | null } | undefined;
  const stop = await resume(hub, history, lastId, {
    deliver: (e) => {
      for (const u of touched(e)) last.set(u, e.id);
    },
    gap: (oldest) => {
      gap = { oldest };
    },
  });
  stop();
  const out = new Map<string, Record<string, unknown>>();
  for (const u of uris) {
    const eventId = last.get(u);
    if (gap)
      out.set(u, {
        gap: true,
        type: GAP_EVENT,
        lastEventId: lastId,
        oldest: gap.oldest,
        ...(eventId ? { eventId } : {}),
      });
    else if (eventId) out.set(u, { eventId });
  }
  return out;
}

/** The `_meta` of an update: the court event that caused it, to resume from. */
export const updateMeta = (e: DocketEvent) => ({ eventId: e.id });

/** The resources an event changes: its case, and the inbox of each address it concerns. */
function watchKeysOf(e: DocketEvent): string[] {
  const keys = e.addresses.map((a) => watchKey("inbox", a));
  if (e.case) keys.push(watchKey("case", e.case));
  return keys;
}

/**
 * `resources/subscribe` and `resources/unsubscribe` (the 2025 era) for one session's server, fed by the event hub:
 * an event about a case sends `notifications/resources/updated` for `docket://cases/{case}`, each
 * address it concerns for `docket://agents/{address}/inbox`, a reorg or a reset for every resource
 * the session watches. Addresses match whatever their case (a lowercase subscription hears a
 * checksummed event), and a notification names the URI as the client spelled it, so the client can
 * match it to its subscription. Subscribing reads the resource once through its operation: a bad
 * address is -32602, an unknown case -32002, so a typo does not wait for events that never come.
 *
 * The session listens to the hub only while it watches something, and stops when it closes (the
 * server's onclose: a stdio client gone, an SSE stream closed, a Streamable HTTP session deleted or
 * timed out). Events that arrive together (one follower poll) are sent once per URI. Each
 * notification's `_meta.eventId` is the court event that caused it (GET /events' id).
 *
 * Resuming (docs/mcp.md#resuming-a-subscription): a subscribe with `_meta.lastEventId` (the last
 * `eventId` the client saw, before a restart, from another replica) is also sent, once the events
 * since are read (the hub's buffer, else the index, as GET /events resumes), one update for the URI
 * if any of them touched it, with the last such event's id; an id kept nowhere gets one update with
 * `_meta.gap` (GET /events' `events.gap`: read the resource afresh).
 */
export function enableSubscriptions(
  server: McpServer,
  ctx: Ctx,
  operations: readonly Operation[],
  hub: EventHub,
  history?: EventHistory,
) {
  const watched = new Map<string, Set<string>>();
  /** URIs to notify at the end of the turn, each with the last event that touched it. */
  const pending = new Map<string, string>();
  let stopListening: (() => void) | undefined;
  let closed = false;

  const send = (uri: string, _meta: Record<string, unknown>) => {
    // A session closing meanwhile: the notification has nowhere to go, nothing to report.
    if (!closed) server.server.sendResourceUpdated({ uri, _meta }).catch(() => {});
  };
  const flush = () => {
    const uris = [...pending];
    pending.clear();
    for (const [uri, eventId] of uris) send(uri, { eventId });
  };
  const onEvent = (e: DocketEvent) => {
    const before = pending.size;
    const keys = isChainEvent(e) ? [...watched.keys()] : watchKeysOf(e);
    for (const k of keys) for (const uri of watched.get(k) ?? []) pending.set(uri, e.id);
    if (before === 0 && pending.size > 0) queueMicrotask(flush);
  };
  /** The update a subscription resumed after `lastId` owes: one for the URI if anything since touched it. */
  const catchUp = async (uri: string, key: string, lastId: string) => {
    const owed = await updatesSince(hub, history, lastId, [uri], (e) =>
      isChainEvent(e) || watchKeysOf(e).includes(key) ? [uri] : [],
    );
    for (const [u, meta] of owed) send(u, meta);
  };
  const detach = () => {
    stopListening?.();
    stopListening = undefined;
  };

  server.server.registerCapabilities({ resources: { subscribe: true } });
  const inbox = servesInbox(operations);
  server.server.setRequestHandler("resources/subscribe", async ({ params }) => {
    const target = resourceTarget(params.uri);
    if (!target || (target.kind === "inbox" && !inbox)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `not a resource docket can watch: ${params.uri}`);
    }
    const lastId = lastEventIdOf(params as Parameters<typeof lastEventIdOf>[0]);
    await readTarget(target, ctx, operations, params.uri);
    const key = watchKey(target.kind, target.address);
    let uris = watched.get(key);
    if (!uris) {
      if (watched.size >= MAX_SUBSCRIPTIONS) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `a session watches ${MAX_SUBSCRIPTIONS} resources at most`,
          {
            max: MAX_SUBSCRIPTIONS,
          },
        );
      }
      uris = new Set();
      watched.set(key, uris);
    }
    uris.add(params.uri);
    if (!stopListening && !closed) stopListening = hub.subscribe(onEvent);
    if (lastId !== undefined) {
      catchUp(params.uri, key, lastId).catch((err: unknown) =>
        ctx.log.warn({ err: (err as Error).message, uri: params.uri }, "MCP subscription could not resume"),
      );
    }
    return {};
  });
  server.server.setRequestHandler("resources/unsubscribe", async ({ params }) => {
    // Any spelling of the address ends the watch on the resource; an unwatched one is no error.
    const target = resourceTarget(params.uri);
    if (target) watched.delete(watchKey(target.kind, target.address));
    if (watched.size === 0) detach();
    return {};
  });

  const onclose = server.server.onclose;
  server.server.onclose = () => {
    closed = true;
    watched.clear();
    detach();
    onclose?.();
  };
}

/** An address as a 2026-era listener may have written it in a URI: checksummed, or lowercase. */
function spellings(address: string): string[] {
  let checksummed: string;
  try {
    checksummed = getAddress(address);
  } catch {
    return [address];
  }
  const lower = checksummed.toLowerCase();
  return checksummed === lower ? [lower] : [checksummed, lower];
}

/**
 * The resource URIs a 2026-era event changes, for `subscriptions/listen`. The SDK's listen routers
 * match a filter's `resourceSubscriptions` to a URI exactly, so each URI goes out in both
 * spellings of its address (checksummed and lowercase): a listener that wrote its addresses either
 * way hears it. A reorg or a reset names no resource: every URI of docket's that a listener
 * watches (`listened`, as the listeners wrote them) may have changed, so each is named. Without
 * `listened` (stdio, where the SDK's router keeps the filters) a reorg names nothing.
 */
export function updatedUris(e: DocketEvent, inbox: boolean, listened?: () => Iterable<string>): string[] {
  if (isChainEvent(e)) {
    return [...(listened?.() ?? [])].filter((uri) => {
      const target = resourceTarget(uri);
      return target !== undefined && (target.kind === "case" || inbox);
    });
  }
  const uris: string[] = [];
  if (e.case) for (const a of spellings(e.case)) uris.push(caseUri(a));
  if (inbox) for (const addr of e.addresses) for (const a of spellings(addr)) uris.push(inboxUri(a));
  return uris;
}

/**
 * 2026-07-28 over a connection (stdio): every event's URIs (`updatedUris`) are sent as resource
 * updates on this server, which the SDK's stdio entry delivers on the `subscriptions/listen`
 * streams whose filter names them (and drops otherwise). Stops when the server closes.
 */
export function forwardUpdates(server: McpServer, operations: readonly Operation[], hub: EventHub): void {
  const inbox = servesInbox(operations);
  const stop = hub.subscribe((e) => {
    for (const uri of updatedUris(e, inbox)) {
      server.server.sendResourceUpdated({ uri, _meta: updateMeta(e) }).catch(() => {});
    }
  });
  const onclose = server.server.onclose;
  server.server.onclose = () => {
    stop();
    onclose?.();
  };
}
