import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CaseFilter, countQuery, pageQuery } from "../../src/index/queries/cases.js";
import type { Store } from "../../src/store/store.js";
import { explained, hex40, planStore, sumOver } from "./plans.js";

const N = 100_000;

/**
 * Every case filter is answered from an index: 100,000 generated cases (2,000 parties, 500 judges,
 * 8 states, 20 courts, a claim of a few words each) written straight into the tables, and each
 * filter's page query explained: no sequential scan of `cases` or `case_participants`.
 */
describe("case queries' plans on 100,000 cases", () => {
  let store: Store;
  beforeAll(async () => {
    store = await planStore(async ({ db }) => {
      await sql`
      insert into cases (address, filed_event_id, filed_block, filed_at, court_id, plaintiff, defendant, claim, state, state_event_id, round, open)
      select ${hex40("i + 1000000")}, i, i, 1700000000 + i * 12, 1 + i % 20, ${hex40("i % 2000")}, ${hex40("1000 + i % 1777")},
             'claim ' || i || ' about ' || (array['escrow','delivery','refund','quality','latency'])[1 + i % 5] || ' word' || (i % 997),
             (array['Filed','Summoned','Active','Deliberating','Resolved','Dismissed','Defaulted','Appealed'])[1 + i % 8], i, 1, i % 3 <> 0
      from generate_series(1, ${sql.lit(N)}) as i`.execute(db);
      await sql`
      insert into case_participants (address, case_address, role, round, filed_event_id, block_number)
      select ${hex40("i % 2000")}, ${hex40("i + 1000000")}, 'plaintiff', 0, i, i from generate_series(1, ${sql.lit(N)}) as i
      union all
      select ${hex40("1000 + i % 1777")}, ${hex40("i + 1000000")}, 'defendant', 0, i, i from generate_series(1, ${sql.lit(N)}) as i
      union all
      select ${hex40("5000 + (i * 7 + j) % 500")}, ${hex40("i + 1000000")}, 'judge', 1, i, i
        from generate_series(1, ${sql.lit(N)}) as i, generate_series(0, 2) as j`.execute(db);
    });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  const someone = `0x${(42).toString(16).padStart(40, "0")}`;
  const judge = `0x${(5123).toString(16).padStart(40, "0")}`;
  const filters: Record<string, CaseFilter> = {
    party: { party: someone },
    judge: { judge },
    state: { state: "Appealed" },
    court: { court: 7 },
    filedAt: { filedAfter: 1700000000 + 50_000 * 12, filedBefore: 1700000000 + 50_100 * 12 },
    words: { q: "refund word17" },
    "party and state": { party: someone, state: "Resolved" },
    "judge and words": { judge, q: "escrow" },
  };

  for (const [name, filter] of Object.entries(filters)) {
    it(`${name}: no sequential scan`, async () => {
      const queries = [
        pageQuery(store.db, filter, 20),
        pageQuery(store.db, filter, 20, 60_000),
        countQuery(store.db, filter),
      ];
      for (const query of queries) {
        const q = query.compile();
        const plan = await store.db.executeQuery<{ "QUERY PLAN": string }>({
          ...q,
          sql: `explain ${q.sql}`,
        });
        const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
        expect(text, text).not.toMatch(/Seq Scan on (cases|case_participants)/);
      }
    });
  }
});

/**
 * A case page by words of the claim takes the matches from the words index: on 100,000 claims of a
 * few texts ("Case <n>: <text>", as the bench's generator writes them), a case's number with a word
 * every claim has. The planner's statistics of a tsvector hold only its common words, so it expects
 * hundreds of matches and would walk the filings newest first, testing each claim, for one match.
 */
describe("a case page by claim words on 100,000 claims", () => {
  let store: Store;
  beforeAll(async () => {
    store = await planStore(async ({ db }) => {
      await sql`
      insert into cases (address, filed_event_id, filed_block, filed_at, court_id, plaintiff, defendant, claim, state, state_event_id, round, open)
      select ${hex40("i + 1000000")}, i, i, 1700000000 + i, 1, ${hex40("i % 2000")}, ${hex40("1000 + i % 1777")},
             'Case ' || i || ': ' || (array['shipment of 40 pallets delivered nine days late', 'data feed delivered with a lag',
               'model fine-tune delivered without the evaluation report', 'escrow released before the report was delivered'])[1 + i % 4],
             'Resolved', i, 1, false
      from generate_series(1, ${sql.lit(N)}) as i`.execute(db);
    });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  it("reads the matches, not every filing", async () => {
    for (const filter of [{ q: "7920 delivered" }, { q: "55555 delivered" }]) {
      const plan = await explained(store, pageQuery(store.db, filter, 20).compile());
      const removed = sumOver(plan, (n) => (n["Rows Removed by Filter"] ?? 0) * n["Actual Loops"]);
      expect(removed, JSON.stringify(plan, null, 1)).toBeLessThanOrEqual(100);
    }
  });
});
