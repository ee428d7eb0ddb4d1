import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ok } from "../mcp/helpers.js";
import type { TestDocket } from "../support/index.js";
import { type IndexedWorld, indexedWorld, type SeededCase } from "./indexedWorld.js";

/** get_agent_history and get_judge_history on the seeded world, against the chain's case views. */
describe("agent and judge histories", () => {
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

  /** Every page of `path`, by cursor, `key` holding the page's items. */
  async function walk(path: string, key: string) {
    const items: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    let total = -1;
    do {
      const r: { status: number; body: Record<string, unknown> } = await t.get(
        `${path}?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(r.status).toBe(200);
      items.push(...(r.body[key] as Record<string, unknown>[]));
      cursor = r.body.nextCursor as string | null;
      total = r.body.total as number;
    } while (cursor);
    return { items, total };
  }

  it("an agent's cases as a party, each with its result as the chain's case view says", async () => {
    const agent = all[0]?.plaintiff as string;
    const { items, total } = await walk(`/agent/${agent}/history`, "cases");
    expect(items.length).toBe(total);
    expect(new Set(items.map((c) => c.case)).size).toBe(items.length);
    const asParty = all.filter((c) => c.plaintiff === agent || c.defendant === agent);
    expect(items.filter((c) => c.result !== null).map((c) => c.case)).toEqual(asParty.map((c) => c.address).reverse());
    const results = new Set<unknown>();
    for (const c of asParty) {
      const h = items.find((i) => i.case === c.address) as Record<string, unknown>;
      const plaintiff = c.plaintiff === agent;
      let expected: string;
      if (c.state === "Defaulted") expected = plaintiff ? "won_by_default" : "defaulted";
      else if (c.state === "Dismissed") expected = "dismissed";
      else if (c.state === "Resolved" && c.outcome)
        expected = (c.outcome === "PlaintiffWon") === plaintiff ? "won" : "lost";
      else if (c.state === "Appealed") continue;
      else expected = "undecided";
      expect([c.address, c.state, h.result]).toEqual([c.address, c.state, expected]);
      results.add(h.result);
    }
    expect(results.size).toBeGreaterThan(1);
    expect(await ok(mcp, "get_agent_history", { address: agent, limit: 100 })).toEqual(
      (await t.get(`/agent/${agent}/history?limit=100`)).body,
    );
  });

  it("a judge's rounds: its votes, whether they sided with the verdict, and its stake's movements", async () => {
    const decided = all.find(
      (c) => c.state === "Resolved" && c.votes.some((v) => v.vote === "plaintiff" || v.vote === "defendant"),
    );
    const seat = decided?.votes.find((v) => v.vote === "plaintiff" || v.vote === "defendant");
    if (!decided || !seat) throw new Error("the seeded world has no resolved case with a vote");
    const { items, total } = await walk(`/judges/history/${seat.judge}`, "rounds");
    expect(new Set(items.map((r) => `${r.case}:${r.round}`)).size).toBe(items.length);
    expect(total).toBe(new Set(items.map((r) => r.case)).size);
    const round = items.filter((r) => r.case === decided.address).at(0) as Record<string, unknown>;
    expect(round).toMatchObject({
      vote: seat.vote,
      verdict: decided.outcome,
      withVerdict: (seat.vote === "plaintiff") === (decided.outcome === "PlaintiffWon"),
      noShow: false,
    });
    const h = (await t.get(`/judges/history/${seat.judge}`)).body;
    expect(
      h.stakes.some((s: { event: string; amount: string }) => s.event === "JudgeStaked" && BigInt(s.amount) > 0n),
    ).toBe(true);
    expect(await ok(mcp, "get_judge_history", { address: seat.judge })).toEqual(h);
  });

  it("refuses a forged cursor and a bad address in the envelope", async () => {
    const r = await t.get(`/judges/history/${t.address(3)}?cursor=bm9wZQ`);
    expect([r.status, r.body.error?.code]).toEqual([400, "INVALID_INPUT"]);
    const bad = await t.get("/agent/0x12/history");
    expect([bad.status, bad.body.error?.code]).toEqual([400, "INVALID_ADDRESS"]);
  });
});
