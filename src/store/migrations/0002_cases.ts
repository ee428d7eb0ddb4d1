import { type Kysely, sql } from "kysely";

/**
 * Schema v2, what the index answers from: each case as its events left it (parties, court, filing,
 * claim, state, the chain's last status of it) and who takes part in it (parties and every round's
 * panel), so that lists by party, judge, state, court, time and words page by keyset at any size.
 * The ingest's cursor learns the chain's genesis (a reset is a new genesis: the index starts again).
 */
const ADDRESS = sql.raw("'^0x[0-9a-f]{40}$'");

// biome-ignore lint/suspicious/noExplicitAny: a migration runs against the schema as it was then.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("ingest_cursor").addColumn("genesis_hash", "text").execute();

  await db.schema
    .createTable("cases")
    .addColumn("address", "text", (c) => c.primaryKey().check(sql`address ~ ${ADDRESS}`))
    // Where the filing sits in the log: newest first is `filed_event_id` descending, the keyset.
    .addColumn("filed_event_id", "bigint", (c) => c.notNull().unique())
    .addColumn("filed_block", "bigint", (c) => c.notNull())
    .addColumn("filed_at", "bigint", (c) => c.notNull())
    .addColumn("court_id", "bigint", (c) => c.notNull())
    .addColumn("plaintiff", "text", (c) => c.notNull().check(sql`plaintiff ~ ${ADDRESS}`))
    .addColumn("defendant", "text", (c) => c.notNull().check(sql`defendant ~ ${ADDRESS}`))
    .addColumn("claim", "text", (c) => c.notNull().defaultTo(""))
    // The claim's words, for a search (`simple`: no language's stemming, every word as written).
    .addColumn("claim_words", sql`tsvector`, (c) => c.generatedAlwaysAs(sql`to_tsvector('simple', claim)`).stored())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("state_event_id", "bigint", (c) => c.notNull())
    .addColumn("round", "smallint", (c) => c.notNull().defaultTo(1))
    // The chain's CaseStatus of the case after its last indexed event (refreshed on each), as JSON.
    .addColumn("status", "jsonb")
    .addColumn("status_block", "bigint")
    .addColumn("open", "boolean", (c) => c.notNull().defaultTo(true))
    .execute();
  for (const col of ["plaintiff", "defendant", "state", "court_id"] as const) {
    await db.schema.createIndex(`cases_by_${col}`).on("cases").columns([col, "filed_event_id desc"]).execute();
  }
  await db.schema.createIndex("cases_by_filed_at").on("cases").columns(["filed_at", "filed_event_id"]).execute();
  await db.schema
    .createIndex("cases_open")
    .on("cases")
    .column("filed_event_id")
    .where(sql.ref("open"), "=", true)
    .execute();
  await db.schema.createIndex("cases_by_words").on("cases").using("gin").column("claim_words").execute();
  await db.schema.createIndex("cases_by_block").on("cases").column("filed_block").execute();

  await db.schema
    .createTable("case_participants")
    .addColumn("address", "text", (c) => c.notNull().check(sql`address ~ ${ADDRESS}`))
    .addColumn("case_address", "text", (c) => c.notNull().check(sql`case_address ~ ${ADDRESS}`))
    // plaintiff, defendant or judge; a judge's round (0 for a party).
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("round", "smallint", (c) => c.notNull())
    // The case's filing, copied so that "an address's cases, newest first" is one index walk.
    .addColumn("filed_event_id", "bigint", (c) => c.notNull())
    // Where it was learnt (a rollback forgets what came after its fork point).
    .addColumn("block_number", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("case_participants_pk", ["address", "case_address", "role", "round"])
    .execute();
  await db.schema
    .createIndex("case_participants_by_address")
    .on("case_participants")
    .columns(["address", "filed_event_id desc"])
    .execute();
  await db.schema
    .createIndex("case_participants_by_case")
    .on("case_participants")
    .columns(["case_address", "round"])
    .execute();
  await db.schema.createIndex("case_participants_by_block").on("case_participants").column("block_number").execute();
  // A name's events in order (every VoteCast, every Verdict...), for histories and statistics.
  await db.schema.createIndex("court_events_by_name").on("court_events").columns(["name", "id"]).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("court_events_by_name").execute();
  await db.schema.dropTable("case_participants").execute();
  await db.schema.dropTable("cases").execute();
  await db.schema.alterTable("ingest_cursor").dropColumn("genesis_hash").execute();
}
