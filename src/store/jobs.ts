import type { Kysely, Transaction } from "kysely";
import { foldJobs, isJobEvent, JOB_EVENTS, type JobEvent } from "./jobRows.js";
import type { JobsTable, StoreSchema } from "./schema.js";

type Trx = Transaction<StoreSchema> | Kysely<StoreSchema>;

/** docket's evaluators' challenge windows by lower-case address (null: an evaluator not docket's). */
export type ChallengeWindows = Map<string, number | null>;

/** The evaluators a step's new jobs name whose window is not known yet. */
export function unknownEvaluators(
  events: readonly { name: string; args: Record<string, unknown> }[],
  windows: ChallengeWindows,
) {
  const out = new Set<string>();
  for (const e of events) {
    if (e.name !== "JobCreated") continue;
    const ev = String(e.args.evaluator).toLowerCase();
    if (!windows.has(ev)) out.add(ev);
  }
  return [...out];
}

/** Columns a stored row takes from the one written again. */
const COLUMNS = [
  "contract",
  "client",
  "provider",
  "evaluator",
  "state",
  "budget",
  "expired_at",
  "challenge_window",
  "submitted_at",
  "window_ends_at",
  "disputed",
  "dispute_id",
  "case_address",
  "due_at",
  "keeper_due_at",
  "created_event_id",
  "created_block",
  "last_event_id",
] as const satisfies readonly Exclude<keyof JobsTable, "job_id">[];

/** Writes the rows (insert or replace), 500 to a statement, inside the caller's transaction. */
async function writeJobs(trx: Trx, rows: readonly JobsTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await trx
      .insertInto("jobs")
      .values(rows.slice(i, i + 500))
      .onConflict((oc) =>
        oc.column("job_id").doUpdateSet((eb) => Object.fromEntries(COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)]))),
      )
      .execute();
  }
}

async function storedJobs(trx: Trx, ids: readonly string[]): Promise<Map<string, JobsTable>> {
  if (ids.length === 0) return new Map();
  const rows = await trx.selectFrom("jobs").selectAll().where("job_id", "in", ids).execute();
  return new Map(rows.map((r) => [r.job_id, r]));
}

/**
 * Keeps the jobs table current with a step's stored events (ids given, in chain order), inside the
 * step's transaction: each job they touch is its stored row with these events folded on.
 */
export async function jobsAfterStep(trx: Trx, events: readonly JobEvent[], windows: ChallengeWindows): Promise<void> {
  const mine = events.filter(isJobEvent);
  if (mine.length === 0) return;
  const stored = await storedJobs(trx, [...new Set(mine.map((e) => e.job_id as string))]);
  const next = foldJobs(stored, mine, (ev) => windows.get(ev) ?? null);
  await writeJobs(trx, [...next.values()]);
}

/**
 * A reorg's part in the jobs table, inside forgetAbove's transaction, after the events above the
 * fork are gone: a job created above it is forgotten; another whose events went above it is its
 * kept events folded again (its challenge window is the evaluator's, as stored). A job whose
 * JobCreated was pruned (INDEX_RETENTION) keeps its row: there is nothing to fold it from.
 */
export async function jobsAfterRollback(trx: Trx, block: number, touched: readonly string[]): Promise<void> {
  await trx.deleteFrom("jobs").where("created_block", ">", block).execute();
  if (touched.length === 0) return;
  const stored = await storedJobs(trx, touched);
  if (stored.size === 0) return;
  const kept = await trx
    .selectFrom("court_events as e")
    .innerJoin("chain_blocks as b", "b.number", "e.block_number")
    .select(["e.id", "e.address", "e.name", "e.args", "e.job_id", "e.block_number", "b.timestamp"])
    .where("e.job_id", "in", [...stored.keys()])
    .where("e.name", "in", [...JOB_EVENTS])
    .orderBy("e.id")
    .execute();
  const refolded = foldJobs(new Map(), kept, (ev) => {
    for (const r of stored.values()) if (r.evaluator === ev) return r.challenge_window;
    return null;
  });
  const rows = [...stored.keys()].flatMap((id) => refolded.get(id) ?? []);
  await writeJobs(trx, rows);
}
