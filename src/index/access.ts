import type { Kysely } from "kysely";
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
