import { type Kysely, sql } from "kysely";

/**
 * Schema v6, jobs (docs/index.md#jobs): every ERC-8183 job of the job contract, kept current from
 * its events (the job contract's and docket's evaluators'), so the inbox, the keeper view and
 * list_jobs' filters read every job, not the newest few. `due_at` is when the job's next step is
 * due (the expiry while Open or Funded, the challenge window's end once Submitted; null once it
 * ended), `keeper_due_at` when anyone may finalize it (the window's end plus one, undisputed).
 */
// biome-ignore lint/suspicious/noExplicitAny: a migration runs against the schema as it was then.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("job_id", "numeric", (c) => c.primaryKey())
    .addColumn("contract", "text", (c) => c.notNull())
    .addColumn("client", "text", (c) => c.notNull())
    .addColumn("provider", "text")
    .addColumn("evaluator", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("budget", "numeric", (c) => c.notNull().defaultTo(0))
    .addColumn("expired_at", "bigint", (c) => c.notNull())
    .addColumn("challenge_window", "bigint")
    .addColumn("submitted_at", "bigint")
    .addColumn("window_ends_at", "bigint")
    .addColumn("disputed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("dispute_id", "numeric")
    .addColumn("case_address", "text")
    .addColumn("due_at", "bigint")
    .addColumn("keeper_due_at", "bigint")
    .addColumn("created_event_id", "bigint", (c) => c.notNull())
    .addColumn("created_block", "bigint", (c) => c.notNull())
    .addColumn("last_event_id", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("jobs_by_created").on("jobs").column("created_event_id").execute();
  await db.schema.createIndex("jobs_by_client").on("jobs").columns(["client", "created_event_id"]).execute();
  await db.schema.createIndex("jobs_by_provider").on("jobs").columns(["provider", "created_event_id"]).execute();
  await db.schema.createIndex("jobs_by_state").on("jobs").columns(["state", "created_event_id"]).execute();
  await db.schema
    .createIndex("jobs_due")
    .on("jobs")
    .columns(["due_at", "created_event_id"])
    .where(sql.ref("due_at"), "is not", null)
    .execute();
  await db.schema
    .createIndex("jobs_keeper_due")
    .on("jobs")
    .columns(["keeper_due_at", "created_event_id"])
    .where(sql.ref("keeper_due_at"), "is not", null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("jobs").execute();
}
