import type { Kysely } from "kysely";
import type { Address } from "viem";
import { findCases } from "../../src/index/queries/cases.js";
import { deliberatingPage, openCasesOf } from "../../src/index/queries/due.js";
import { caseTimeline } from "../../src/index/queries/timeline.js";
import type { StoreSchema } from "../../src/store/schema.js";
import type { CourtEventGenerator } from "./courtEvents.js";

/**
 * The reads items 13 and 14 time on the index, each the query function of src/index/queries/ that
 * its operation calls: a case page filtered by a party and one by words of the claim (list_cases,
 * `findCases`), a case's timeline (get_case_timeline, `caseTimeline`), a judge's inbox (inbox,
 * `openCasesOf`) and the cases awaiting votes (/validate/pending, `deliberatingPage`). Each
 * `run(db, gen, i)` picks its i-th arguments from what the generator made (a party, a case, a
 * judge), so runs do not hit one cached plan+page.
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

/** The case list filtered by a party, newest filing first, with the total (list_cases's query). */
export async function caseListPage(db: Kysely<StoreSchema>, f: { party: string }, limit = PAGE): Promise<ListPage> {
  const page = await findCases(db, { party: f.party }, { limit });
  return { source: "findCases", total: page.total, addresses: page.items.map((r) => r.address) };
}

/** An address's open cases (party or judge), newest filing first: the inbox's query, its first `limit`. */
export async function involvedPage(db: Kysely<StoreSchema>, who: string, limit = 100): Promise<ListPage> {
  const rows = await openCasesOf(db, who as Address);
  return { source: "openCasesOf", total: rows.length, addresses: rows.slice(0, limit).map((r) => r.address) };
}

/** The queries timed. */
export async function indexQueries(): Promise<IndexQuery[]> {
  return [
    {
      name: "case page (party filter, newest first, with its total)",
      source: "findCases",
      run: (db, gen, i) => caseListPage(db, { party: lower(nth(gen.parties, i)) }),
    },
    {
      // The claims are "Case <n>: <one of four texts>": a filed case's number and a word of its text.
      name: "case page (claim words, newest first, with its total)",
      source: "findCases",
      run: (db, gen, i) => findCases(db, { q: `${1 + ((i * 7919) % gen.casesFiled)} delivered` }, { limit: PAGE }),
    },
    {
      name: "timeline (a case's events, oldest first)",
      source: "caseTimeline",
      run: (db, gen, i) => caseTimeline(db, nth(gen.filed, i)),
    },
    {
      name: "inbox (a judge's open cases, newest first)",
      source: "openCasesOf",
      run: (db, gen, i) => openCasesOf(db, nth(gen.judges, i)),
    },
    {
      name: "/validate/pending (Deliberating cases, soonest deadline first, with the total)",
      source: "deliberatingPage",
      run: (db) => deliberatingPage(db, PAGE, undefined),
    },
  ];
}
