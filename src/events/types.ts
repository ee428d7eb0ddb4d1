import { COURT_EVENT_TYPES, type COURT_EVENTS, type CourtEventName } from "../chain/eventCatalogue.js";

/**
 * The events docket pushes to agents (`GET /events`, MCP resource updates): court events as the
 * follower decodes them from mined logs, plus the chain's own (a reorg, a reset). One catalogue,
 * shared by every front end; the court's part comes from src/chain/eventCatalogue.ts.
 */

/** The types docket pushes for court events (the catalogue's), then the chain's own two. */
type CourtEventType = Exclude<(typeof COURT_EVENTS)[CourtEventName]["type"], null>;

/** Every event type, in the catalogue's order. */
export const EVENT_TYPES = [...(COURT_EVENT_TYPES as CourtEventType[]), "chain.reorg", "chain.reset"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A JSON value an event carries (wei amounts are decimal strings, addresses checksummed). */
export type EventValue = string | number | boolean | null | string[];

export interface DocketEvent {
  /**
   * Unique and stable across replicas: `<block>-<logIndex>-<first 8 hex of the block hash>` for a
   * mined log (a reorg's replacement log gets a new id), `<block>-<kind>-<first 8 hex of a hash>`
   * for a chain event (the orphaned block's for a reorg, the new genesis's for a reset).
   */
  id: string;
  type: EventType;
  /** The block the log was mined in (for a chain event: the fork point, or the new head). */
  block: number;
  txHash: string | null;
  /** The case the event is about, when it is about one. */
  case?: string;
  /** Everyone the event concerns: the parties and the current panel of its case, or the agent/judge. */
  addresses: string[];
  data: Record<string, EventValue>;
}

/**
 * Not a court event: what a stream sends first when it cannot resume from the id a client gave (the
 * id left the buffer, or was never seen here). Events were missed: read state again.
 */
export const GAP_EVENT = "events.gap";

/** What a stream or a subscription asks for; every field given must match. */
export interface EventFilter {
  case?: string;
  address?: string;
  types?: readonly string[];
}

/** Whether the chain itself moved under docket (a reorg, a reset): anything read before may have changed. */
export function isChainEvent(e: DocketEvent): boolean {
  return e.type === "chain.reorg" || e.type === "chain.reset";
}

/** Whether `e` passes `f` (addresses compared case-insensitively). Chain events pass every filter. */
export function matches(e: DocketEvent, f: EventFilter): boolean {
  if (isChainEvent(e)) return true;
  if (f.types && f.types.length > 0 && !f.types.includes(e.type)) return false;
  if (f.case && e.case?.toLowerCase() !== f.case.toLowerCase()) return false;
  if (f.address) {
    const a = f.address.toLowerCase();
    if (!e.addresses.some((x) => x.toLowerCase() === a)) return false;
  }
  return true;
}
