import type { Kysely } from "kysely";

/**
 * Schema v5, retention (INDEX_RETENTION, docs/index.md#retention): the cursor says below which block
 * the writer pruned the court's events (null: nothing was), and blocks are found by time for a
 * retention in days or hours.
 */
// biome-ignore lint/suspicious/noExplicitAny: a migration runs against the schema as it was then.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("ingest_cursor").addColumn("pruned_below", "bigint").execute();
  await db.schema
    .createIndex("chain_blocks_by_timestamp")
    .on("chain_blocks")
    .columns(["timestamp", "number"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("chain_blocks_by_timestamp").execute();
  await db.schema.alterTable("ingest_cursor").dropColumn("pruned_below").execute();
}
