import type { RootOperationNode } from "kysely";
import { sql } from "kysely";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCasesOf } from "../../src/index/queries/due.js";
import type { Store } from "../../src/store/store.js";
import { explained, hex40, planStore, sumOver } from "./plans.js";

const N = 30_000;

/**
 * The inbox (openCasesOf) reads an address's open cases, not its history: 30,000 generated cases
 * (one in 50 open, 500 judges, three a case) written straight into the tables, and the query the
 * inbox runs explained: the rows it reads of case_participants are the judge's open ones, not the
 * ~180 cases it ever sat on.
 */
describe("the inbox's plan on 30,000 cases", () => {
  let store: Store;
  beforeAll(async () => {
    store = await planStore(async ({ db }) => {
      await sql`
        insert into cases (address, filed_event_id, filed_block, filed_at, court_id, plaintiff, defendant, claim, state, state_event_id, round, open, status)
        select ${hex40("i + 1000000")}, i, i, 1700000000 + i, 1, ${hex40("i % 2000")}, ${hex40("1000 + i % 1777")}, 'claim',
               case when i % 50 = 0 then 'Deliberating' else 'Resolved' end, i, 1, i % 50 = 0, '{"settled": true}'::jsonb
        from generate_series(1, ${sql.lit(N)}) as i`.execute(db);
      await sql`
        insert into case_participants (address, case_address, role, round, filed_event_id, block_number)
        select ${hex40("5000 + (i * 7 + j) % 500")}, ${hex40("i + 1000000")}, 'judge', 1, i, i
          from generate_series(1, ${sql.lit(N)}) as i, generate_series(0, 2) as j`.execute(db);
      // What the writer keeps in step: each participation's copy of its case's `open` (schema v7).
      const copied =
        await sql`select 1 from information_schema.columns where table_name = 'case_participants' and column_name = 'open'`.execute(
          db,
        );
      if (copied.rows.length > 0) {
        await sql`update case_participants p set open = c.open from cases c where c.address = p.case_address`.execute(
          db,
        );
      }
    });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  it("reads the judge's open participations, not every case it sat on", async () => {
    // Judge 100 of the 500 sits on open cases (i % 50 = 0 puts (i * 7 + j) % 500 at a multiple of 50, plus j).
    const judge = `0x${(5100).toString(16).padStart(40, "0")}` as Address;
    // The statement openCasesOf runs, as it runs it.
    const nodes: RootOperationNode[] = [];
    const spy = store.db.withPlugin({
      transformQuery: (a) => {
        nodes.push(a.node);
        return a.node;
      },
      transformResult: async (a) => a.result,
    });
    const open = await openCasesOf(spy, judge);
    const sat = await store.db
      .selectFrom("case_participants")
      .select((e) => e.fn.countAll<number>().as("n"))
      .where("address", "=", judge)
      .executeTakeFirstOrThrow();
    expect(Number(sat.n)).toBeGreaterThan(150);
    expect(open.length).toBeGreaterThan(0);
    const plan = await explained(
      store,
      store.db.getExecutor().compileQuery(nodes[0] as RootOperationNode, { queryId: "plan" }),
    );
    const read = sumOver(plan, (n) =>
      n["Relation Name"] === "case_participants" ? n["Actual Rows"] * n["Actual Loops"] : 0,
    );
    expect(read, JSON.stringify(plan, null, 1)).toBeLessThanOrEqual(open.length + 5);
  });
});
