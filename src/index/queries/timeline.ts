import { type Kysely, sql } from "kysely";
import { OUTCOME_NAMES, STATE_NAMES } from "../../chain/reads/cases.js";
import type { StoreSchema } from "../../store/schema.js";

/**
 * A case's history from the index (docs/index.md#case-timelines): every court event about it in
 * chain order (its own, the factory's and the registry's naming it), and the rulings its
 * arbitrator delivered to an arbitrable for it (RulingDelivered and RulingFailed name the dispute,
 * not the case: the case's DisputeFiled links them).
 */

/** What each event is in a case's life. */
const KINDS: Record<string, string> = {
  CaseFiled: "filed",
  CaseChanged: "state",
  Responded: "answered",
  EvidenceSubmitted: "evidence",
  DrawArmed: "draw_armed",
  JudgesAssigned: "panel",
  VoteCommitted: "vote_committed",
  VoteCast: "vote",
  VoteRevealed: "vote_revealed",
  Verdict: "verdict",
  Appealed: "appeal",
  Settled: "settled",
  Defaulted: "defaulted",
  Dismissed: "dismissed",
  PaymentDeferred: "payment_deferred",
  Withdrawn: "withdrawn",
  JudgeRewarded: "judge_rewarded",
  JudgeSlashed: "judge_slashed",
  OutcomeHookFailed: "outcome_hook_failed",
  DisputeFiled: "dispute_filed",
  RulingDelivered: "ruling_delivered",
  RulingFailed: "ruling_failed",
};

export interface TimelineEntry {
  /** filed, answered, evidence, panel, vote, vote_committed, vote_revealed, verdict, appeal, settled... */
  kind: string;
  /** The contract event it comes from. */
  event: string;
  block: number;
  /** Chain time of its block, seconds; null when the index has not its block's time. */
  time: number | null;
  txHash: string;
  logIndex: number;
  /** The contract that emitted it. */
  contract: string;
  /** The round it belongs to, when the event names one. */
  round: number | null;
  /** A vote's side, when it is a vote cast or revealed. */
  side: "plaintiff" | "defendant" | null;
  /** A verdict's outcome, or the state a CaseChanged entered. */
  outcome: string | null;
  state: string | null;
  /** The event's arguments as decoded (uint256 as decimal strings). */
  args: Record<string, unknown>;
}

export interface Timeline {
  address: string;
  court: number;
  state: string;
  round: number;
  open: boolean;
  /** The chain's CaseStatus of the case after its last indexed event, and the block it was read at. */
  status: Record<string, unknown> | null;
  statusBlock: number | null;
  entries: TimelineEntry[];
}

type EventOut = {
  id: number;
  name: string;
  args: Record<string, unknown>;
  block_number: number;
  tx_hash: string;
  log_index: number;
  address: string;
  timestamp: number | null;
};

function eventsQuery(db: Kysely<StoreSchema>) {
  return db
    .selectFrom("court_events as e")
    .leftJoin("chain_blocks as b", (j) =>
      j.onRef("b.number", "=", "e.block_number").onRef("b.hash", "=", "e.block_hash"),
    )
    .select(["e.id", "e.name", "e.args", "e.block_number", "e.tx_hash", "e.log_index", "e.address", "b.timestamp"]);
}

function entryOf(e: EventOut): TimelineEntry {
  const a = e.args;
  const round = a.round === undefined ? null : Number(a.round);
  const side = typeof a.plaintiffWins === "boolean" ? (a.plaintiffWins ? "plaintiff" : "defendant") : null;
  const outcome = e.name === "Verdict" ? (OUTCOME_NAMES[Number(a.outcome)] ?? null) : null;
  const state = e.name === "CaseChanged" ? (STATE_NAMES[Number(a.state)] ?? null) : null;
  return {
    kind: KINDS[e.name] ?? e.name,
    event: e.name,
    block: Number(e.block_number),
    time: e.timestamp === null ? null : Number(e.timestamp),
    txHash: e.tx_hash,
    logIndex: Number(e.log_index),
    contract: e.address,
    round,
    side,
    outcome,
    state,
    args: a,
  };
}

/** The case's timeline, or undefined when the index has no such case. */
export async function caseTimeline(db: Kysely<StoreSchema>, caseAddress: string): Promise<Timeline | undefined> {
  const c = await db.selectFrom("cases").selectAll().where("address", "=", caseAddress).executeTakeFirst();
  if (!c) return undefined;
  const own = await eventsQuery(db).where("e.case_address", "=", caseAddress).orderBy("e.id").execute();
  // Rulings for the dispute the case was filed for, told by the arbitrator that filed it.
  const disputes = own.filter((e) => e.name === "DisputeFiled");
  const rulings =
    disputes.length === 0
      ? []
      : await eventsQuery(db)
          .where("e.name", "in", ["RulingDelivered", "RulingFailed"])
          .where((eb) =>
            eb.or(
              disputes.map((d) =>
                eb.and([
                  eb("e.address", "=", d.address),
                  eb(sql<string>`e.args->>'disputeID'`, "=", String(d.args.disputeID)),
                ]),
              ),
            ),
          )
          .execute();
  const all = [...own, ...rulings].sort((x, y) => Number(x.id) - Number(y.id));
  return {
    address: c.address,
    court: Number(c.court_id),
    state: c.state,
    round: Number(c.round),
    open: c.open,
    status: c.status,
    statusBlock: c.status_block === null ? null : Number(c.status_block),
    entries: all.map((e) => entryOf(e as EventOut)),
  };
}
