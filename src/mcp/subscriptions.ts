import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ErrorCode,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { EventHub } from "../events/hub.js";
import type { DocketEvent } from "../events/types.js";
import type { Ctx, Operation } from "../operations/operation.js";
import { type ResourceTarget, readTarget, resourceTarget, servesInbox } from "./resources.js";

/** Resources one session may watch at once; one more is refused (-32602). */
export const MAX_SUBSCRIPTIONS = 1000;

/** What an event or a subscription is matched on: the kind and the lowercased address. */
function keyOf(kind: ResourceTarget["kind"], address: string): string {
  return `${kind}:${address.toLowerCase()}`;
}

/** The resources an event changes: its case, and the inbox of each address it concerns. */
function keysOf(e: DocketEvent): string[] {
  const keys = e.addresses.map((a) => keyOf("inbox", a));
  if (e.case) keys.push(keyOf("case", e.case));
  return keys;
}

/** Whether the chain itself moved under docket (a reorg, a reset): every resource may have changed. */
function everything(e: DocketEvent): boolean {
  return e.type === "chain.reorg" || e.type === "chain.reset";
}

/**
 * `resources/subscribe` and `resources/unsubscribe` for one session's server, fed by the event hub:
 * an event about a case sends `notifications/resources/updated` for `docket://cases/{case}`, each
 * address it concerns for `docket://agents/{address}/inbox`, a reorg or a reset for every resource
 * the session watches. Addresses match whatever their case (a lowercase subscription hears a
 * checksummed event), and a notification names the URI as the client spelled it, so the client can
 * match it to its subscription. Subscribing reads the resource once through its operation: a bad
 * address is -32602, an unknown case -32002, so a typo does not wait for events that never come.
 *
 * The session listens to the hub only while it watches something, and stops when it closes (the
 * server's onclose: a stdio client gone, an SSE stream closed, a Streamable HTTP session deleted or
 * timed out). Events that arrive together (one follower poll) are sent once per URI.
 */
export function enableSubscriptions(server: McpServer, ctx: Ctx, operations: readonly Operation[], hub: EventHub) {
  const watched = new Map<string, Set<string>>();
  const pending = new Set<string>();
  let stopListening: (() => void) | undefined;
  let closed = false;

  const flush = () => {
    const uris = [...pending];
    pending.clear();
    for (const uri of uris) {
      // A session closing meanwhile: the notification has nowhere to go, nothing to report.
      server.server.sendResourceUpdated({ uri }).catch(() => {});
    }
  };
  const onEvent = (e: DocketEvent) => {
    const before = pending.size;
    const keys = everything(e) ? [...watched.keys()] : keysOf(e);
    for (const k of keys) for (const uri of watched.get(k) ?? []) pending.add(uri);
    if (before === 0 && pending.size > 0) queueMicrotask(flush);
  };
  const detach = () => {
    stopListening?.();
    stopListening = undefined;
  };

  server.server.registerCapabilities({ resources: { subscribe: true } });
  const inbox = servesInbox(operations);
  server.server.setRequestHandler(SubscribeRequestSchema, async ({ params }) => {
    const target = resourceTarget(params.uri);
    if (!target || (target.kind === "inbox" && !inbox)) {
      throw new McpError(ErrorCode.InvalidParams, `not a resource docket can watch: ${params.uri}`);
    }
    await readTarget(target, ctx, operations);
    const key = keyOf(target.kind, target.address);
    let uris = watched.get(key);
    if (!uris) {
      if (watched.size >= MAX_SUBSCRIPTIONS) {
        throw new McpError(ErrorCode.InvalidParams, `a session watches ${MAX_SUBSCRIPTIONS} resources at most`, {
          max: MAX_SUBSCRIPTIONS,
        });
      }
      uris = new Set();
      watched.set(key, uris);
    }
    uris.add(params.uri);
    if (!stopListening && !closed) stopListening = hub.subscribe(onEvent);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async ({ params }) => {
    // Any spelling of the address ends the watch on the resource; an unwatched one is no error.
    const target = resourceTarget(params.uri);
    if (target) watched.delete(keyOf(target.kind, target.address));
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
