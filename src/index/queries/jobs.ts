import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import type { JobsTable, StoreSchema } from "../../store/schema.js";
import { decodeCursor, encodeCursor } from "./cursor.js";

/**
 * The ERC-8183 jobs from the index (docs/index.md#jobs): list_jobs' filters (newest first), an
 * address's jobs with a step open to it (the inbox) and the jobs anyone may finalize (the keeper
 * view), due soonest first; every list keyset-paged, with its count over everything.
 */

/** A row of the jobs table (src/store/schema.ts), as the operations read it. */
export type JobRow = JobsTable;

export interface JobFilter {
  state?: string;
  /** Lower-case addresses. */
  client?: string;
  provider?: string;
}

export interface JobPage {
  total: number;
  rows: JobsTable[];
  /** Where the next page starts; null after the last. */
  nextCursor: string | null;
}

type Eb = ExpressionBuilder<StoreSchema, "jobs">;

/** One page after its cursor (one row more than asked, to know whether another follows), and the count. */
async function page(
  db: Kysely<StoreSchema>,
  where: (eb: Eb) => ReturnType<Eb["and"]>,
  order: { key: "created_event_id" | "due_at" | "keeper_due_at"; desc?: boolean },
  limit: number,
  cursor: string | undefined,
): Promise<JobPage> {
  const single = order.key === "created_event_id";
  const after = decodeCursor(cursor, single ? 1 : 2);
  let q = db.selectFrom("jobs").selectAll().where(where);
  if (after && single) q = q.where("created_event_id", order.desc ? "<" : ">", after[0] as number);
  if (after && !single) {
    q = q.where(sql`(${sql.ref(order.key)}, created_event_id)`, ">", sql`(${after[0]}, ${after[1]})`);
  }
  if (!single) q = q.orderBy(order.key);
  const [rows, counted] = await Promise.all([
    q
      .orderBy("created_event_id", order.desc ? "desc" : "asc")
      .limit(limit + 1)
      .execute(),
    db
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const key = (r: JobsTable) => (single ? [r.created_event_id] : [Number(r[order.key]), r.created_event_id]);
  return {
    total: Number(counted.n),
    rows: items,
    nextCursor: rows.length > limit && last ? encodeCursor(key(last)) : null,
  };
}

/** The jobs matching `filter`, newest first, `limit` after `cursor`, and how many match in all. */
export function findJobs(db: Kysely<StoreSchema>, filter: JobFilter, limit: number, cursor?: string) {
  return page(
    db,
    (eb) => {
      const all = [];
      if (filter.state !== undefined) all.push(eb("state", "=", filter.state));
      if (filter.client !== undefined) all.push(eb("client", "=", filter.client));
      if (filter.provider !== undefined) all.push(eb("provider", "=", filter.provider));
      return eb.and(all);
    },
    { key: "created_event_id", desc: true },
    limit,
    cursor,
  );
}

/**
 * The jobs on which `who` (lower-case) has a step open at chain time `now`, by the rules of
 * jobActionsFor (src/operations/jobs/jobActions.ts): fund (client, Open with a provider, before
 * expiry), submit (provider, Funded, before expiry), dispute (client, in the window), finalize
 * (either party, the window passed undisputed). Due soonest first.
 */
export function inboxJobs(db: Kysely<StoreSchema>, who: string, now: number, limit: number, cursor?: string) {
  return page(
    db,
    (eb) =>
      eb.and([
        eb("due_at", "is not", null),
        eb.or([eb("client", "=", who), eb("provider", "=", who)]),
        eb.or([
          eb.and([
            eb("state", "=", "Open"),
            eb("client", "=", who),
            eb("provider", "is not", null),
            eb("expired_at", ">", now),
          ]),
          eb.and([eb("state", "=", "Funded"), eb("provider", "=", who), eb("expired_at", ">", now)]),
          eb.and([
            eb("state", "=", "Submitted"),
            eb("disputed", "=", false),
            eb.or([eb.and([eb("client", "=", who), eb("window_ends_at", ">", now)]), eb("window_ends_at", "<", now)]),
          ]),
        ]),
      ]),
    { key: "due_at" },
    limit,
    cursor,
  );
}

/** The jobs anyone may finalize at chain time `now` (their window passed undisputed), the longest due first. */
export function keeperJobs(db: Kysely<StoreSchema>, now: number, limit: number, cursor?: string) {
  return page(
    db,
    (eb) => eb.and([eb("keeper_due_at", "<=", now), eb("state", "=", "Submitted")]),
    { key: "keeper_due_at" },
    limit,
    cursor,
  );
}

/**
 * The next chain time after `now` at which a job step opens or closes without an event (an expiry,
 * a window's end), over `who`'s jobs or every job; null when none is ahead.
 */
export async function nextJobChangeAt(db: Kysely<StoreSchema>, now: number, who?: string): Promise<number | null> {
  let q = db
    .selectFrom("jobs")
    .select((eb) => [
      eb.fn.min(eb.case().when("expired_at", ">=", now).then(eb.ref("expired_at")).end()).as("expiry"),
      eb.fn.min(eb.case().when("window_ends_at", ">=", now).then(eb.ref("window_ends_at")).end()).as("window"),
    ])
    .where("due_at", "is not", null);
  if (who !== undefined) q = q.where((eb) => eb.or([eb("client", "=", who), eb("provider", "=", who)]));
  const r = await q.executeTakeFirst();
  const ahead = [r?.expiry, r?.window].filter((v) => v !== null && v !== undefined).map(Number);
  return ahead.length === 0 ? null : Math.min(...ahead);
}

/** The next chain time after `now` at which a job becomes anyone's to finalize; null when none will without an event. */
export async function nextKeeperJobAt(db: Kysely<StoreSchema>, now: number): Promise<number | null> {
  const r = await db
    .selectFrom("jobs")
    .select((eb) => eb.fn.min("keeper_due_at").as("at"))
    .where("keeper_due_at", ">", now)
    .where("state", "=", "Submitted")
    .executeTakeFirst();
  return r?.at === null || r?.at === undefined ? null : Number(r.at);
}
