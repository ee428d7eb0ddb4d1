import { type Kysely, sql } from "kysely";

/**
 * Schema v7, an address's open cases by one index walk: each participation carries its case's
 * `open` (the writer keeps them in step), and the open ones are indexed by address and filing, so an
 * inbox reads the address's open cases and not every case it ever took part in (a judge of a busy
 * court sits on thousands).
 */
// biome-ignore lint/suspicious/noExplicitAny: a migration runs against the schema as it was then.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("case_participants")
    .addColumn("open", "boolean", (c) => c.notNull().defaultTo(true))
    .execute();
  await sql`update case_participants p set open = c.open from cases c where c.address = p.case_address and not c.open`.execute(
    db,
  );
  await db.schema
    .createIndex("case_participants_open")
    .on("case_participants")
    .columns(["address", "filed_event_id desc"])
    .where(sql.ref("open"), "=", true)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("case_participants_open").execute();
  await db.schema.alterTable("case_participants").dropColumn("open").execute();
}
