import type { Kysely } from "kysely";
import { DocketError } from "../errors/errors.js";
import type { StoreSchema } from "../store/schema.js";
import type { Store } from "../store/store.js";
import type { IndexWriter } from "./writer.js";

/**
 * The index as operations see it (`ctx.index`): the store to read (every replica reads), the
 * writer when this replica is the one that writes (docs/replicas.md), and how far it has come.
 * The chain stays the truth for a case's current state; the index answers what one chain view
 * cannot (lists by party, judge, state, court and words; timelines; histories; the event log).
 */
export interface IndexAccess {
  /** The query builder over the index's tables (src/store/schema.ts). */
  readonly db: Kysely<StoreSchema>;
  readonly store: Store;
  /** Present while this replica writes the index. */
  readonly writer?: IndexWriter;
  /** The last block the index holds, for this chain and deployment; undefined before the first step. */
  cursor(): Promise<{ block: number; hash: string } | undefined>;
  /** Whether this replica writes the index now, or reads what another writes (docs/replicas.md). */
  role(): "writer" | "reader";
  /** What `/health` says of the index: role, cursor, where retention cut, the backfill's progress. */
  state(): Promise<IndexState>;
  /** Prunes the events older than INDEX_RETENTION now (the writer only; nothing without a retention). */
  prune(): Promise<{ events: number; keptFrom: number } | undefined>;
  /**
   * Every `intervalMs`: a reader tries to become the writer (`onWriter` when it does: the follower
   * re-anchors on the stored cursor), and the writer prunes when it is time. Stops with docket.
   */
  keepRole(intervalMs: number, onWriter: () => void): void;
}

export interface IndexState {
  role: "writer" | "reader";
  /** The last block the index holds; null before the first step. */
  cursor: number | null;
  /** Events below this block were pruned (INDEX_RETENTION); null when none were. */
  prunedBelow: number | null;
  backfill: { running: boolean; block: number; target: number; percent: number; events: number };
}

/**
 * Runs a read of the index: 503 INDEX_UNAVAILABLE when docket runs without one (INDEX=off) or its
 * database fails (a Postgres that is down), never a 500. A DocketError the read throws (a 404) passes.
 */
export async function readIndex<T>(ctx: { index?: IndexAccess }, read: (index: IndexAccess) => Promise<T>): Promise<T> {
  const index = ctx.index;
  if (!index)
    throw new DocketError("INDEX_UNAVAILABLE", "docket runs without its index (INDEX=off): this answer needs it");
  try {
    return await read(index);
  } catch (err) {
    if (err instanceof DocketError) throw err;
    throw new DocketError("INDEX_UNAVAILABLE", "the index could not be read; try again shortly", undefined, {
      cause: err,
    });
  }
}
