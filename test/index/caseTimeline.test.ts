import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ok } from "../mcp/helpers.js";
import type { TestDocket } from "../support/index.js";
import { type IndexedWorld, indexedWorld, type SeededCase } from "./indexedWorld.js";

interface Entry {
  kind: string;
  block: number;
  time: number | null;
  txHash: string;
  round: number | null;
  side: string | null;
  outcome: string | null;
  args: Record<string, unknown>;
}

/** get_case_timeline on the seeded world: every case's votes, panels and verdicts as the chain's case view says. */
describe("case timelines (get_case_timeline)", () => {
  let world: IndexedWorld;
  let t: TestDocket;
  let mcp: Client;
  /** Every seeded case as get_case reads it, in filing order (oldest first). */
  let all: SeededCase[];
  beforeAll(async () => {
    world = await indexedWorld();
    ({ t, mcp, all } = world);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it("every seeded case: filed first, in chain order, its panel, votes and verdict as the case view says", async () => {
    expect(all.length).toBeGreaterThan(3);
    let votes = 0;
    let verdicts = 0;
    for (const c of all) {
      const r = await t.get(`/cases/${c.address}/timeline`);
      expect(r.status).toBe(200);
      const tl = r.body as { address: string; state: string; round: number; entries: Entry[] };
      expect(tl.address).toBe(c.address);
      expect(tl.state).toBe(c.state);
      const entries = tl.entries;
      expect(entries[0]?.kind).toBe("filed");
      for (const [i, e] of entries.entries()) {
        expect(e.txHash).toMatch(/^0x[0-9a-f]{64}$/);
        expect(e.time).toBeGreaterThan(0);
        if (i > 0) expect(e.block).toBeGreaterThanOrEqual(entries[i - 1]?.block as number);
      }
      const panels = entries.filter((e) => e.kind === "panel");
      if (c.judges.length > 0) expect(panels.at(-1)?.args.judges).toEqual(c.judges);
      for (const v of c.votes) {
        if (v.vote !== "plaintiff" && v.vote !== "defendant") continue;
        const cast = entries.filter(
          (e) => (e.kind === "vote" || e.kind === "vote_revealed") && e.args.judge === v.judge && e.round === tl.round,
        );
        expect(cast.map((e) => e.side)).toEqual([v.vote]);
        if (cast[0]?.kind === "vote_revealed") expect(cast[0].args.justification).toBe(v.justification);
        votes++;
      }
      if (c.votes.some((v) => v.vote === "committed")) {
        expect(entries.some((e) => e.kind === "vote_committed")).toBe(true);
      }
      // A default judgment (Defaulted) decides for the plaintiff without a verdict.
      const defaulted = entries.some((e) => e.kind === "defaulted");
      if (defaulted) expect(c.outcome).toBe("PlaintiffWon");
      else if (c.outcome === "PlaintiffWon" || c.outcome === "DefendantWon") {
        expect(entries.filter((e) => e.kind === "verdict").at(-1)?.outcome).toBe(c.outcome);
        verdicts++;
      }
      if (c.arbitration) expect(entries.some((e) => e.kind === "dispute_filed")).toBe(true);
    }
    // The seeded world has votes and verdicts to compare: the loop above checked some.
    expect(votes).toBeGreaterThan(0);
    expect(verdicts).toBeGreaterThan(0);
  });

  it("answers the same over MCP, and 404 CASE_NOT_FOUND for an address that is no case", async () => {
    const c = all[0] as SeededCase;
    expect(await ok(mcp, "get_case_timeline", { address: c.address })).toEqual(
      (await t.get(`/cases/${c.address}/timeline`)).body,
    );
    const r = await t.get(`/cases/${t.address(5)}/timeline`);
    expect([r.status, r.body.error?.code]).toEqual([404, "CASE_NOT_FOUND"]);
    const bad = await t.get("/cases/0x1234/timeline");
    expect([bad.status, bad.body.error?.code]).toEqual([400, "INVALID_ADDRESS"]);
  });
});
