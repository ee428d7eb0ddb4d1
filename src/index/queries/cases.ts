import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import type { StoreSchema } from "../../store/schema.js";
import { decodeCursor, encodeCursor } from "./cursor.js";

/**
 * Case lists from the index (docs/index.md#case-queries): by party, judge, state, court, filing
 * time and words of the claim, combinable, newest filing first, paged by keyset. Every filter is
 * answered from an index (test/index/casePlans.test.ts reads the plans on 100,000 cases).
 */
export interface CaseFilter {
  /** Plaintiff or defendant (lower-case). */
  party?: string;
  /** A judge seated in any round (lower-case). */
  judge?: string;
  /** A state name (STATE_NAMES). */
  state?: string;
  court?: number;
  /** Filed at or after this chain time, seconds. */
  filedAfter?: number;
  /** Filed before this chain time, seconds. */
  filedBefore?: number;
  /** Words of the claim, all of them (plainto_tsquery, 'simple'). */
  q?: string;
}

/** A case as a list shows it. */
export interface CaseListRow {
  address: string;
  court: number;
  state: string;
  round: number;
  open: boolean;
  filedAt: number;
  filedBlock: number;
  plaintiff: string;
  defendant: string;
}

export interface CasePage {
  total: number;
  items: CaseListRow[];
  /** Where the next page starts; null after the last. */
  nextCursor: string | null;
}

/** A page's end: the last filing's event id (see cursor.ts). */
export function encodeCaseCursor(filedEventId: number): string {
  return encodeCursor([filedEventId]);
}

/** The filing id a cursor stands for. */
export function decodeCaseCursor(cursor: string): number {
  return (decodeCursor(cursor, 1) as number[])[0] as number;
}

type Eb = ExpressionBuilder<StoreSchema, "cases">;

/** The filter as conditions on `cases`, each one an index can answer. */
function conditions(eb: Eb, f: CaseFilter) {
  const all = [];
  if (f.party !== undefined) {
    all.push(eb.or([eb("cases.plaintiff", "=", f.party), eb("cases.defendant", "=", f.party)]));
  }
  if (f.judge !== undefined) {
    const judge = f.judge;
    all.push(
      eb(
        "cases.address",
        "in",
        eb
          .selectFrom("case_participants")
          .select("case_participants.case_address")
          .where("case_participants.address", "=", judge)
          .where("case_participants.role", "=", "judge"),
      ),
    );
  }
  if (f.state !== undefined) all.push(eb("cases.state", "=", f.state));
  if (f.court !== undefined) all.push(eb("cases.court_id", "=", f.court));
  if (f.filedAfter !== undefined) all.push(eb("cases.filed_at", ">=", f.filedAfter));
  if (f.filedBefore !== undefined) all.push(eb("cases.filed_at", "<", f.filedBefore));
  if (f.q !== undefined) all.push(sql<boolean>`cases.claim_words @@ plainto_tsquery('simple', ${f.q})`);
  return eb.and(all);
}

/** The cases matching `filter`, newest filing first, `limit` of them after `cursor`, and how many match in all. */
export async function findCases(
  db: Kysely<StoreSchema>,
  filter: CaseFilter,
  page: { limit: number; cursor?: string },
): Promise<CasePage> {
  const after = page.cursor === undefined ? undefined : decodeCaseCursor(page.cursor);
  const rows = await pageQuery(db, filter, page.limit, after).execute();
  const counted = await countQuery(db, filter).executeTakeFirstOrThrow();
  const more = rows.length > page.limit;
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    total: Number(counted.n),
    items: items.map((r) => ({
      address: r.address,
      court: Number(r.court_id),
      state: r.state,
      round: Number(r.round),
      open: r.open,
      filedAt: Number(r.filed_at),
      filedBlock: Number(r.filed_block),
      plaintiff: r.plaintiff,
      defendant: r.defendant,
    })),
    nextCursor: more && last ? encodeCaseCursor(last.filed_event_id) : null,
  };
}

/** One page's query (one row more than the page, to know whether another follows); the plans test explains it. */
export function pageQuery(db: Kysely<StoreSchema>, filter: CaseFilter, limit: number, after?: number) {
  return (
    db
      .selectFrom("cases")
      .select([
        "address",
        "filed_event_id",
        "filed_block",
        "filed_at",
        "court_id",
        "plaintiff",
        "defendant",
        "state",
        "round",
        "open",
      ])
      .where((eb) =>
        after === undefined
          ? conditions(eb, filter)
          : eb.and([conditions(eb, filter), eb("filed_event_id", "<", after)]),
      )
      // With words of the claim, newest first by an expression no index gives: the planner's statistics
      // of a tsvector hold only its common words, so for a rare one it expects hundreds of matches and
      // would walk the filings newest first testing each claim (all 100,000 for one match). Ordered so,
      // it takes the matches from the words index and sorts them; the count reads them all anyway.
      .orderBy(filter.q === undefined ? sql`filed_event_id` : sql`filed_event_id + 0`, "desc")
      .limit(limit + 1)
  );
}

/** How many cases match `filter` in all (the plans test explains it too). */
export function countQuery(db: Kysely<StoreSchema>, filter: CaseFilter) {
  return db
    .selectFrom("cases")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where((eb) => conditions(eb, filter));
}
