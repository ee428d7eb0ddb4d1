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
}

/** The blocks the ingest accepted: a reorg is found by a hash that no longer matches. */
export interface ChainBlocksTable {
  number: number;
  hash: string;
  parent_hash: string;
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
  updated_at: ColumnType<Date, never, Date | undefined>;
}
