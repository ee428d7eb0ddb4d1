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

/** Placeholders, until the helpers' functions land: plain Kysely of the same shape. */
const placeholders: IndexQuery[] = [
  {
    name: "case page (party filter, open, newest first, with its total)",
    source: "placeholder",
    async run(db, gen, i) {
      const party = lower(nth(gen.parties, i));
      const where = db
        .selectFrom("cases")
        .where((eb) => eb.or([eb("plaintiff", "=", party), eb("defendant", "=", party)]))
        .where("open", "=", true);
      const [page, total] = await Promise.all([
        where.selectAll().orderBy("filed_event_id", "desc").limit(PAGE).execute(),
        where.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { page, total };
    },
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
    name: "inbox (a judge's open cases, newest first)",
    source: "placeholder",
    run: (db, gen, i) =>
      db
        .selectFrom("case_participants as p")
        .innerJoin("cases as c", "c.address", "p.case_address")
        .select(["c.address", "c.state", "c.status", "p.role", "p.round"])
        .where("p.address", "=", lower(nth(gen.judges, i)))
        .where("c.open", "=", true)
        .orderBy("p.filed_event_id", "desc")
        .limit(PAGE)
        .execute(),
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
