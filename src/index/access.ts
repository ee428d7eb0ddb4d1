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
