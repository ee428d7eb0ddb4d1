import type { ColumnType, Generated, JSONColumnType } from "kysely";

/**
 * The index's tables as the query builder sees them (docs/index.md#the-schema), in step with
 * `migrations/`. Hashes and addresses are 0x-prefixed lower-case hex; block numbers, log indexes
 * and event ids are JS numbers (int8 is read as a safe integer, see `store.ts`); a job id is a
 * uint256, kept as a decimal string.
 */
export interface StoreSchema {
  chain_blocks: ChainBlocksTable;
  court_events: CourtEventsTable;
  court_event_addresses: CourtEventAddressesTable;
  ingest_cursor: IngestCursorTable;
  cases: CasesTable;
  case_participants: CaseParticipantsTable;
  jobs: JobsTable;
  webhook_nonces: WebhookNoncesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

/** The blocks the ingest accepted: a reorg is found by a hash that no longer matches. */
export interface ChainBlocksTable {
  number: number;
  hash: string;
  parent_hash: string | null;
  /** The block's timestamp, in seconds (the chain's clock). */
  timestamp: number;
}

/** One court log, in chain order; `id` grows with every event stored and is what a client resumes from. */
export interface CourtEventsTable {
  id: Generated<number>;
  block_number: number;
  block_hash: string;
  log_index: number;
  tx_hash: string;
  /** The contract that emitted it. */
  address: string;
  /** The event's name in the ABI (`CaseFiled`, `VoteCast`, ...). */
  name: string;
  /** The decoded arguments; uint256 values as decimal strings (JSON has no big integers). */
  args: JSONColumnType<Record<string, unknown>>;
  /** The case it is about, when it is about one. */
  case_address: string | null;
  /** The ERC-8183 job it is about, when it is about one. */
  job_id: string | null;
}

/** Who an event concerns (a party, a judge, a juror, a payee...): one row per address and role. */
export interface CourtEventAddressesTable {
  event_id: number;
  address: string;
  /** The argument it came from (`claimant`, `judge`, ...). */
  role: string;
}

/** How far the ingest has come, per chain and deployment (its factory). */
export interface IngestCursorTable {
  chain_id: number;
  factory: string;
  block_number: number;
  block_hash: string;
  /** The chain's genesis hash when the cursor was written: another one is a reset chain. */
  genesis_hash: string | null;
  /** Events below this block were pruned (INDEX_RETENTION, migration 0005); null when none were. */
  pruned_below: ColumnType<number | null, never, number | null>;
  updated_at: ColumnType<Date, never, Date | undefined>;
}

/** Each case as its events left it (migration 0002). */
export interface CasesTable {
  address: string;
  /** The CaseFiled event's id: newest first is this, descending (the keyset of every case list). */
  filed_event_id: number;
  filed_block: number;
  /** Chain time of the filing, in seconds. */
  filed_at: number;
  /** The court it was filed in. */
  court_id: number;
  plaintiff: string;
  defendant: string;
  claim: string;
  /** Generated from `claim` (to_tsvector('simple', claim)). */
  claim_words: ColumnType<string, never, never>;
  /** The state its last CaseChanged named (STATE_NAMES). */
  state: string;
  state_event_id: number;
  round: Generated<number>;
  /** The chain's CaseStatus of it after its last indexed event (decimal strings for uint256). */
  status: JSONColumnType<Record<string, unknown>> | null;
  status_block: number | null;
  /** Not Resolved-and-settled, Defaulted or Dismissed: what an inbox or the keeper view looks at. */
  open: Generated<boolean>;
  /**
   * The earliest chain time a keeper action on it becomes available as its status stands (migration
   * 0004; src/index/queries/due.ts): 0 while a draw is armed (its randomness comes with blocks), null
   * when none comes without a new event.
   */
  keeper_due_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Who takes part in a case: its parties (round 0) and each round's judges. */
export interface CaseParticipantsTable {
  address: string;
  case_address: string;
  role: "plaintiff" | "defendant" | "judge";
  round: number;
  filed_event_id: number;
  block_number: number;
  /** Its case's `open`, copied so that an address's open cases are one index walk (migration 0007). */
  open: Generated<boolean>;
}

/**
 * An ERC-8183 job as its events leave it (migration 0006): re-derived from its events on a reorg.
 * Times are chain time (unix seconds); amounts and ids uint256 as decimal strings.
 */
export interface JobsTable {
  job_id: string;
  /** The job contract. */
  contract: string;
  client: string;
  /** Null until the client names one. */
  provider: string | null;
  evaluator: string;
  /** Its ERC-8183 state (Open, Funded, Submitted, Completed, Rejected, Expired). */
  state: string;
  budget: string;
  expired_at: number;
  /** The evaluator's challenge window when it is one of docket's (null: another evaluator). */
  challenge_window: number | null;
  submitted_at: number | null;
  /** When the challenge window closes (submitted_at plus the window), for a docket evaluator. */
  window_ends_at: number | null;
  disputed: boolean;
  dispute_id: string | null;
  case_address: string | null;
  /** When its next step is due: the expiry while Open or Funded, the window's end once Submitted; null once over. */
  due_at: number | null;
  /** When anyone may finalize it (the window's end plus one, undisputed); null otherwise. */
  keeper_due_at: number | null;
  created_event_id: number;
  created_block: number;
  last_event_id: number;
}

/** A sign-in nonce for webhooks (migration 0008): issued for one address and domain, good once, until it expires. */
export interface WebhookNoncesTable {
  nonce: string;
  /** Lower-case. */
  address: string;
  /** The EIP-4361 domain the signed message must name. */
  domain: string;
  expires_at: Date;
  used_at: Date | null;
}

/** What a webhook delivers: the filters `GET /events` takes; by default the owner's events. */
export interface WebhookFilter {
  address?: string;
  case?: string;
  types?: string[];
}

/** A subscription (migration 0008), owned by the address that signed it; not derived from the chain. */
export interface WebhooksTable {
  id: string;
  /** Lower-case. */
  owner: string;
  url: string;
  filter: JSONColumnType<WebhookFilter>;
  /** Reminder lead times, in seconds before a deadline. */
  reminders: JSONColumnType<number[]>;
  /** The whsec_ secret docket signs its deliveries with (so it is kept; docs/webhooks.md#security). */
  secret: string;
  status: "pending_verification" | "active" | "disabled";
  disabled_reason: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** The court_events id it has been delivered up to. */
  cursor_event_id: ColumnType<number, number | undefined, number>;
  /** Since when every attempt has failed; null while deliveries succeed. */
  failing_since: ColumnType<Date | null, Date | null | undefined, Date | null>;
  last_delivered_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** One delivery, its `id` the Standard Webhooks `webhook-id` (the same on every attempt). */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  /** The court event it delivers, or null for a reminder. */
  event_id: number | null;
  /** A reminder's key (case, deadline, lead time), or null for an event. */
  reminder_key: string | null;
  /** The delivery's type (an event type, a reminder's). */
  type: string;
  /** The JSON body, fixed when enqueued: every attempt sends (and signs) the same bytes. */
  body: string;
  created_at: Date;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  /** When its retries ran out: never sent again. */
  gave_up_at: Date | null;
}
