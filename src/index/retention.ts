import type { Kysely } from "kysely";
import type { Retention } from "../config.js";
import type { StoreSchema } from "../store/schema.js";

/** Events deleted per statement: a prune of millions never holds one long transaction. */
const BATCH = 5_000;

/** How often the writer prunes (and once when it becomes the writer). */
export const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The first block the index keeps events of, under `retention`, for the deployment `key`: the
 * cursor's block less the count, or the first stored block within the time of the newest stored
 * block (chain time). Undefined with nothing stored.
 */
async function keptFrom(
  db: Kysely<StoreSchema>,
  key: { chain_id: number; factory: string },
  retention: Retention,
): Promise<number | undefined> {
  const cursor = await db
    .selectFrom("ingest_cursor")
    .select("block_number")
    .where("chain_id", "=", key.chain_id)
    .where("factory", "=", key.factory)
    .executeTakeFirst();
  if (!cursor) return undefined;
  if ("blocks" in retention) return cursor.block_number - retention.blocks + 1;
  const newest = await db
    .selectFrom("chain_blocks")
    .select((eb) => eb.fn.max("timestamp").as("t"))
    .where("number", "<=", cursor.block_number)
    .executeTakeFirst();
  if (newest?.t === null || newest?.t === undefined) return undefined;
  const first = await db
    .selectFrom("chain_blocks")
    .select((eb) => eb.fn.min("number").as("n"))
    .where("timestamp", ">=", Number(newest.t) - retention.seconds)
    .executeTakeFirst();
  return first?.n === null || first?.n === undefined ? undefined : Number(first.n);
}

/**
 * Prunes the court events older than `retention` (who they concern goes with them) and the blocks
 * below them, a batch at a time; cases and their participants stay. The cursor says where it cut
 * (`pruned_below`). Run by the writer only. Says how many events went and the first block kept.
 */
export async function pruneEvents(
  db: Kysely<StoreSchema>,
  key: { chain_id: number; factory: string },
  retention: Retention,
): Promise<{ events: number; keptFrom: number } | undefined> {
  const below = await keptFrom(db, key, retention);
  if (below === undefined || below <= 0) return undefined;
  let events = 0;
  for (;;) {
    const gone = await db
      .deleteFrom("court_events")
      .where("id", "in", (eb) =>
        eb.selectFrom("court_events").select("id").where("block_number", "<", below).orderBy("id").limit(BATCH),
      )
      .executeTakeFirst();
    const n = Number(gone.numDeletedRows);
    events += n;
    if (n < BATCH) break;
  }
  await db.deleteFrom("chain_blocks").where("number", "<", below).execute();
  await db
    .updateTable("ingest_cursor")
    .set((eb) => ({ pruned_below: eb.fn("greatest", [eb.fn.coalesce("pruned_below", eb.val(0)), eb.val(below)]) }))
    .where("chain_id", "=", key.chain_id)
    .where("factory", "=", key.factory)
    .execute();
  return { events, keptFrom: below };
}
