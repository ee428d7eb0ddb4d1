import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectHttp } from "../mcp/helpers.js";
import { TestDocket } from "../support/index.js";

/** A seeded case as get_case reads it (the fields the index suites compare with). */
export interface SeededCase {
  address: string;
  state: string;
  plaintiff: string;
  defendant: string;
  judges: string[];
  claimDescription: string;
  outcome: string | null;
  votes: { judge: string; vote: string | null; justification: string }[];
  arbitration: unknown;
}

/** What the index's read suites start from: the seeded world indexed, an MCP client, every case as the chain reads it. */
export interface IndexedWorld {
  t: TestDocket;
  mcp: Client;
  /** Every seeded case, oldest filing first. */
  all: SeededCase[];
  close(): Promise<void>;
}

export async function indexedWorld(): Promise<IndexedWorld> {
  const t = await TestDocket.shared();
  await t.indexed();
  const mcp = await connectHttp("2025-11-25", `${t.url}/mcp`);
  const list = (await t.get("/cases?limit=100&offset=0")).body as { cases: string[] };
  const all = await Promise.all(list.cases.map(async (a) => (await t.get(`/cases/${a}`)).body.case as SeededCase));
  return {
    t,
    mcp,
    all,
    close: async () => {
      await mcp.close();
      await t.close();
    },
  };
}
