import type { FollowedEventName } from "../chain/contractEvents.js";

/**
 * The pushed event types: the events docket pushes to clients (`GET /events`, MCP resource
 * updates), as opposed to the contract events it follows (`chain/contractEvents.ts`). Each followed
 * contract event is pushed as one type here, or not at all (it only moves the cache: see
 * `freshness/stale.ts`); the chain's own two (a reorg, a reset) follow. One list, shared by every
 * door and by docs/events.md's table.
 */

/** The type docket pushes for each followed contract event; null when it only moves the cache. */
export const PUSHED_AS = {
  CaseFiled: "case.filed",
  Responded: "case.responded",
  EvidenceSubmitted: "evidence.submitted",
  DrawArmed: "draw.armed",
  JudgesAssigned: "judges.assigned",
  VoteCommitted: "vote.committed",
  VoteRevealed: "vote.revealed",
  VoteCast: "vote.cast",
  Verdict: "case.verdict",
  Appealed: "case.appealed",
  Settled: "case.settled",
  Defaulted: "case.defaulted",
  Dismissed: "case.dismissed",
  FilingFeePaid: "filing.fee_paid",
  AgentRegistered: "agent.registered",
  AgentUpdated: "agent.updated",
  JudgeStaked: "judge.staked",
  JudgeUnstaked: "judge.unstaked",
  JudgeSlashed: "judge.slashed",
  JudgeRewarded: "judge.rewarded",
  CaseChanged: null,
  FilingChanged: null,
  TokenFeeChanged: null,
  JudgeRecordChanged: null,
  PartyRecordChanged: null,
  TreasuryWithdrawn: null,
  CourtCreated: null,
  CourtChanged: null,
  ArbitratorChanged: null,
  DisputeFiled: "dispute.filed",
  RulingDelivered: "ruling.delivered",
  RulingFailed: "ruling.failed",
  JobCreated: "job.created",
  ProviderSet: null,
  BudgetSet: null,
  JobFunded: "job.funded",
  JobSubmitted: "job.submitted",
  JobCompleted: "job.completed",
  JobRejected: "job.rejected",
  JobExpired: "job.expired",
  JobDisputed: "job.disputed",
  JobFinalized: null,
  JobRuled: "job.ruled",
} as const satisfies Record<FollowedEventName, string | null>;

/** The types docket pushes for contract events. */
type ContractEventType = Exclude<(typeof PUSHED_AS)[FollowedEventName], null>;

/** Every pushed event type, in the table's order, then the chain's own two. */
export const EVENT_TYPES = [
  ...new Set(Object.values(PUSHED_AS).filter((t): t is ContractEventType => t !== null)),
  "chain.reorg",
  "chain.reset",
] as const;
export type EventType = ContractEventType | "chain.reorg" | "chain.reset";

/** The type a followed contract event is pushed as; undefined when it only moves the cache (or is not followed). */
export function pushedTypeOf(eventName: string | undefined): ContractEventType | undefined {
  if (eventName === undefined || !Object.hasOwn(PUSHED_AS, eventName)) return undefined;
  return PUSHED_AS[eventName as FollowedEventName] ?? undefined;
}

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
