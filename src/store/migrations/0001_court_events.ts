import { type Kysely, sql } from "kysely";

/**
 * Schema v1, the ingest's base: the accepted blocks, the court's events with what they concern,
 * and the ingest's cursor. Hashes and addresses are checked lower-case hex, so that one value has
 * one spelling and an index finds it.
 */
const HASH = sql.raw("'^0x[0-9a-f]{64}$'");
const ADDRESS = sql.raw("'^0x[0-9a-f]{40}$'");

// biome-ignore lint/suspicious/noExplicitAny: a migration runs against the schema as it was then, not StoreSchema.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("chain_blocks")
    .addColumn("number", "bigint", (c) => c.primaryKey().check(sql`number >= 0`))
    .addColumn("hash", "text", (c) => c.notNull().unique().check(sql`hash ~ ${HASH}`))
    // Known when the header was read; a block whose time came with its logs has none.
    .addColumn("parent_hash", "text", (c) => c.check(sql`parent_hash ~ ${HASH}`))
    .addColumn("timestamp", "bigint", (c) => c.notNull().check(sql`timestamp >= 0`))
    .execute();

  await db.schema
    .createTable("court_events")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("block_number", "bigint", (c) => c.notNull())
    // An event belongs to a block the ingest accepted; rolling a block back takes its events first.
    .addColumn("block_hash", "text", (c) => c.notNull().references("chain_blocks.hash"))
    .addColumn("log_index", "integer", (c) => c.notNull().check(sql`log_index >= 0`))
    .addColumn("tx_hash", "text", (c) => c.notNull().check(sql`tx_hash ~ ${HASH}`))
    .addColumn("address", "text", (c) => c.notNull().check(sql`address ~ ${ADDRESS}`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("args", "jsonb", (c) => c.notNull())
    .addColumn("case_address", "text", (c) => c.check(sql`case_address ~ ${ADDRESS}`))
    .addColumn("job_id", sql`numeric(78, 0)`, (c) => c.check(sql`job_id >= 0`))
    // A log is stored once: a replayed range (a restart after kill -9) inserts nothing new.
    .addUniqueConstraint("court_events_log", ["block_hash", "log_index"])
    .execute();
  // A case's timeline and a job's, in order; a rollback by block.
  await db.schema
    .createIndex("court_events_by_case")
    .on("court_events")
    .columns(["case_address", "id"])
    .where("case_address", "is not", null)
    .execute();
  await db.schema
    .createIndex("court_events_by_job")
    .on("court_events")
    .columns(["job_id", "id"])
    .where("job_id", "is not", null)
    .execute();
  await db.schema.createIndex("court_events_by_block").on("court_events").column("block_number").execute();

  await db.schema
    .createTable("court_event_addresses")
    .addColumn("event_id", "bigint", (c) => c.notNull().references("court_events.id").onDelete("cascade"))
    .addColumn("address", "text", (c) => c.notNull().check(sql`address ~ ${ADDRESS}`))
    .addColumn("role", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("court_event_addresses_pk", ["event_id", "address", "role"])
    .execute();
  // Everything that concerns an address, in order (an agent's, a judge's history).
  await db.schema
    .createIndex("court_event_addresses_by_address")
    .on("court_event_addresses")
    .columns(["address", "event_id"])
    .execute();

  await db.schema
    .createTable("ingest_cursor")
    .addColumn("chain_id", "bigint", (c) => c.notNull().check(sql`chain_id > 0`))
    .addColumn("factory", "text", (c) => c.notNull().check(sql`factory ~ ${ADDRESS}`))
    .addColumn("block_number", "bigint", (c) => c.notNull().check(sql`block_number >= 0`))
    .addColumn("block_hash", "text", (c) => c.notNull().check(sql`block_hash ~ ${HASH}`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("ingest_cursor_pk", ["chain_id", "factory"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["ingest_cursor", "court_event_addresses", "court_events", "chain_blocks"]) {
    await db.schema.dropTable(table).execute();
  }
}
