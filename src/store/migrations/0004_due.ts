import { type Kysely, sql } from "kysely";

/**
 * Schema v4, what is due: each case's `keeper_due_at`, the earliest chain time a permissionless
 * (keeper) action on it becomes available as its last status stands (null: none without a new
 * event), so the keeper view pages "due now, soonest first" over every open case by one index walk;
 * and the Deliberating cases by their deliberation deadline (read from the stored status), for
 * the validation queue.
 */
// biome-ignore lint/suspicious/noExplicitAny: a migration runs against the schema as it was then.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("cases").addColumn("keeper_due_at", "bigint").execute();
  await db.schema
    .createIndex("cases_keeper_due")
    .on("cases")
    .columns(["keeper_due_at", "filed_event_id"])
    .where(sql.ref("open"), "=", true)
    .execute();
  await db.schema
    .createIndex("cases_deliberating_by_deadline")
    .on("cases")
    .expression(sql`((status->>'deliberationDeadline')::bigint), filed_event_id`)
    .where(sql.ref("state"), "=", "Deliberating")
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("cases_deliberating_by_deadline").execute();
  await db.schema.dropIndex("cases_keeper_due").execute();
  await db.schema.alterTable("cases").dropColumn("keeper_due_at").execute();
}
