import type { Kysely } from "kysely";
import { findCases } from "../../src/index/queries/cases.js";
import { deliberatingPage, openCasesOf } from "../../src/index/queries/due.js";
import { caseTimeline } from "../../src/index/queries/timeline.js";
import type { StoreSchema } from "../../src/store/schema.js";
import type { CourtEventGenerator } from "./courtEvents.js";

/**
 * The reads item 13 times on the index, each the query function of src/index/queries/ that
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

/** The queries timed. */
export async function indexQueries(): Promise<IndexQuery[]> {
  return [
    {
      name: "case page (party filter, newest first, with its total)",
      source: "findCases",
      run: (db, gen, i) => findCases(db, { party: lower(nth(gen.parties, i)) }, { limit: PAGE }),
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
