import type { Kysely } from "kysely";
import type { StoreSchema } from "../../src/store/schema.js";
import type { CourtEventGenerator } from "./courtEvents.js";

/**
 * The reads item 13 times on the index: a filtered case page, a case's timeline, a judge's inbox and
 * the cases waiting for votes (/validate/pending). Each `run(db, gen, i)` picks its i-th arguments
 * from what the generator made (a party, a case, a judge), so runs do not hit one cached plan+page.
 *
 * `source` says which code ran: the query functions of src/index/queries/ where they exist, otherwise
 * a PLACEHOLDER of the same shape written here (same tables, filters, order and page size), named so in
 * the results.
 */
export interface IndexQuery {
  name: string;
  source: string;
  run(db: Kysely<StoreSchema>, gen: CourtEventGenerator, i: number): Promise<unknown>;
}

const PAGE = 20;
const nth = <T>(xs: readonly T[], i: number) => xs[(i * 7919) % xs.length] as T;
const lower = (s: string) => s.toLowerCase();

/** A page of a list, as item 14 compares it with today's scans: which code answered, the total, the page's cases. */
export interface ListPage {
  source: string;
  total: number;
  addresses: string[];
}

/** The case list filtered by a party, newest filing first, with the total (PLACEHOLDER until cases.ts lands). */
export async function caseListPage(db: Kysely<StoreSchema>, f: { party: string }, limit = PAGE): Promise<ListPage> {
  const where = db
    .selectFrom("cases")
    .where((eb) => eb.or([eb("plaintiff", "=", f.party), eb("defendant", "=", f.party)]));
  const [page, total] = await Promise.all([
    where.select("address").orderBy("filed_event_id", "desc").limit(limit).execute(),
    where.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { source: "placeholder", total: Number(total.n), addresses: page.map((r) => r.address) };
}

/** An address's open cases (party or judge), newest filing first: an inbox's first page (PLACEHOLDER until the inbox query lands). */
export async function involvedPage(db: Kysely<StoreSchema>, who: string, limit = 100): Promise<ListPage> {
  const where = db
    .selectFrom("case_participants as p")
    .innerJoin("cases as c", "c.address", "p.case_address")
    .where("p.address", "=", who)
    .where("c.open", "=", true);
  const [page, total] = await Promise.all([
    where
      .select(["c.address", "c.filed_event_id"])
      .distinct()
      .orderBy("c.filed_event_id", "desc")
      .limit(limit)
      .execute(),
    where.select((eb) => eb.fn.count<number>("c.address").distinct().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { source: "placeholder", total: Number(total.n), addresses: page.map((r) => r.address) };
}

/** Placeholders, until the helpers' functions land: plain Kysely of the same shape. */
const placeholders: IndexQuery[] = [
  {
    name: "case page (party filter, newest first, with its total)",
    source: "placeholder",
    run: (db, gen, i) => caseListPage(db, { party: lower(nth(gen.parties, i)) }),
  },
  {
    name: "timeline (a case's events, oldest first)",
    source: "placeholder",
    run: (db, gen, i) =>
      db
        .selectFrom("court_events")
        .selectAll()
        .where("case_address", "=", nth(gen.filed, i))
        .orderBy("id", "asc")
        .limit(100)
        .execute(),
  },
  {
    name: "inbox (a judge's open cases, newest first, with the total)",
    source: "placeholder",
    run: (db, gen, i) => involvedPage(db, lower(nth(gen.judges, i)), PAGE),
  },
  {
    name: "/validate/pending (Deliberating cases, newest first, with the total)",
    source: "placeholder",
    async run(db) {
      const where = db.selectFrom("cases").where("state", "=", "Deliberating").where("open", "=", true);
      const [page, total] = await Promise.all([
        where.selectAll().orderBy("filed_event_id", "desc").limit(PAGE).execute(),
        where.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { page, total };
    },
  },
];

/** The queries timed: the helpers' functions where they exist, else the placeholders. */
export async function indexQueries(): Promise<IndexQuery[]> {
  return placeholders;
}
