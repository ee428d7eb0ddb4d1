import { type CompiledQuery, type RawBuilder, sql } from "kysely";
import { makeLogger } from "../../src/log.js";
import { openStore, type Store } from "../../src/store/store.js";

/** SQL for the address `0x<n, 40 hex digits>`, n an SQL expression (generate_series's i). */
export const hex40 = (n: string): RawBuilder<string> => sql.raw(`'0x' || lpad(to_hex(${n}), 40, '0')`);

/** A migrated in-memory store filled by `seed` (rows written straight into the tables), analyzed. */
export async function planStore(seed: (store: Store) => Promise<void>): Promise<Store> {
  const store = await openStore({ DATABASE_URL: "memory://", INDEX_DIR: "unused" }, makeLogger("silent"));
  await store.migrate();
  await seed(store);
  await sql`analyze`.execute(store.db);
  return store;
}

/** A node of EXPLAIN (ANALYZE, FORMAT JSON). */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

/** The plan `query` ran by (EXPLAIN ANALYZE). */
export async function explained(store: Store, query: CompiledQuery): Promise<PlanNode> {
  const plan = await store.db.executeQuery<{ "QUERY PLAN": { Plan: PlanNode }[] }>({
    ...query,
    sql: `explain (analyze, format json) ${query.sql}`,
  });
  const [row] = plan.rows;
  if (!row) throw new Error("EXPLAIN gave no plan");
  return (row["QUERY PLAN"][0] as { Plan: PlanNode }).Plan;
}

/** `count(node)` summed over every node of the plan. */
export function sumOver(node: PlanNode, count: (n: PlanNode) => number): number {
  return count(node) + (node.Plans ?? []).reduce((s, c) => s + sumOver(c, count), 0);
}
