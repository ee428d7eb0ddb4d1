import { type Kysely, sql, type Transaction } from "kysely";
import { STATE_NAMES } from "../chain/reads/cases.js";
import { jobsAfterRollback } from "./jobs.js";
import type { StoreSchema } from "./schema.js";

type Trx = Transaction<StoreSchema> | Kysely<StoreSchema>;

/**
 * Forgets everything the index learnt above `block` (a reorg's fork point), inside the caller's
 * transaction: the events (who they concern goes with them), the blocks, the cases filed and the
 * judges seated after it; a case whose last state change is forgotten takes the state of its last
 * one kept, and its status is read again by the step that follows; a job is its kept events folded
 * again (jobs.ts). Says what it forgot. `above` is `casesAbove(trx, block)` when the caller has read
 * it already.
 */
export async function forgetAbove(
  trx: Trx,
  block: number,
  above?: string[],
): Promise<{ events: number; blocks: number; cases: string[] }> {
  const touched = above ?? (await casesAbove(trx, block));
  const jobs = await namedAbove(trx, block, "job_id");
  const events = await trx.deleteFrom("court_events").where("block_number", ">", block).executeTakeFirst();
  const blocks = await trx.deleteFrom("chain_blocks").where("number", ">", block).executeTakeFirst();
  await trx.deleteFrom("cases").where("filed_block", ">", block).execute();
  await trx.deleteFrom("case_participants").where("block_number", ">", block).execute();
  await jobsAfterRollback(trx, block, jobs);
  if (touched.length > 0) {
    // The state its last kept CaseChanged names; a case with none kept is as filed.
    await sql`
      update cases c set
        state = coalesce(last.state, 'Filed'),
        state_event_id = coalesce(last.id, c.filed_event_id),
        status = null,
        status_block = null
      from (select a.address,
              (select e.id from court_events e where e.name = 'CaseChanged' and e.case_address = a.address order by e.id desc limit 1) as id,
              (select (${[...STATE_NAMES]}::text[])[(e.args->>'state')::int + 1]
                 from court_events e where e.name = 'CaseChanged' and e.case_address = a.address order by e.id desc limit 1) as state
            from unnest(${touched}::text[]) as a(address)) last
      where c.address = last.address`.execute(trx);
  }
  return { events: Number(events.numDeletedRows), blocks: Number(blocks.numDeletedRows), cases: touched };
}

/** Empties the index (a reset chain, another deployment): the backfill starts again. */
export async function wipe(trx: Trx): Promise<void> {
  await sql`truncate court_event_addresses, court_events, chain_blocks, cases, case_participants, jobs, ingest_cursor`.execute(
    trx,
  );
}

/** The cases whose events sit above `block`. */
export function casesAbove(trx: Trx, block: number): Promise<string[]> {
  return namedAbove(trx, block, "case_address");
}

/** The cases or jobs (by the column naming them) whose events sit above `block`. */
async function namedAbove(trx: Trx, block: number, column: "case_address" | "job_id"): Promise<string[]> {
  const rows = await trx
    .selectFrom("court_events")
    .select(column)
    .distinct()
    .where("block_number", ">", block)
    .where(column, "is not", null)
    .execute();
  return rows.map((r) => (r as Record<typeof column, string>)[column]);
}
