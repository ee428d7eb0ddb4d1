import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, ok } from "../mcp/helpers.js";
import { TestDocket } from "../support/index.js";
import { type IndexedWorld, indexedWorld, type SeededCase } from "./indexedWorld.js";

/** list_cases with filters, from the index, on the seeded world: both doors, paging, bad values. */
describe("case queries (list_cases with filters)", () => {
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

  it("without filters answers as the service interface says, from the chain", async () => {
    const r = await t.get("/cases?limit=3&offset=1");
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["total", "cases", "offset", "limit"]);
    expect(r.body.offset).toBe(1);
    expect(r.body.cases).toEqual(all.slice(1, 4).map((c) => c.address));
  });

  it("a party's list holds every case it is plaintiff or defendant of, newest first, on both doors", async () => {
    const party = all[0]?.plaintiff as string;
    const mine = all.filter((c) => c.plaintiff === party || c.defendant === party).map((c) => c.address);
    expect(mine.length).toBeGreaterThan(1);
    const r = await t.get(`/cases?party=${party.toLowerCase()}&limit=100`);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(mine.length);
    expect(r.body.cases).toEqual([...mine].reverse());
    expect(r.body.nextCursor).toBeNull();
    const first = r.body.items.at(-1);
    expect(first).toMatchObject({ address: mine[0], plaintiff: all[0]?.plaintiff, defendant: all[0]?.defendant });
    expect(await ok(mcp, "list_cases", { party, limit: 100 })).toEqual(r.body);
  });

  it("a judge's list holds its oldest and newest case", async () => {
    const judge = all.find((c) => c.judges.length > 0)?.judges[0] as string;
    const judged = all.filter((c) => c.judges.includes(judge)).map((c) => c.address);
    const r = await t.get(`/cases?judge=${judge}&limit=100`);
    expect(r.body.cases).toContain(judged[0]);
    expect(r.body.cases).toContain(judged.at(-1));
    expect(r.body.total).toBe(r.body.cases.length);
  });

  it("finds a seeded claim by its words, and combines filters", async () => {
    const target = all.find((c) => c.claimDescription.split(/\s+/).length > 2) as SeededCase;
    const words = target.claimDescription.split(/\s+/).slice(0, 3).join(" ");
    const r = await t.get(`/cases?q=${encodeURIComponent(words)}&limit=100`);
    expect(r.body.cases).toContain(target.address);
    const both = await t.get(
      `/cases?q=${encodeURIComponent(words)}&party=${target.defendant}&court=${r.body.items[0].court}&limit=100`,
    );
    expect(both.body.cases).toContain(target.address);
    const none = await t.get(`/cases?q=${encodeURIComponent(words)}&filedBefore=1&limit=100`);
    expect(none.body).toMatchObject({ total: 0, cases: [], nextCursor: null });
  });

  it("pages by cursor with no duplicate and no skip while cases are filed between pages", async () => {
    const party = t.address(1).toLowerCase();
    const before = (await t.get(`/cases?party=${party}&limit=100`)).body.cases as string[];
    const seen: string[] = [];
    let cursor: string | null = null;
    let filed = 0;
    do {
      const page: { body: { cases: string[]; nextCursor: string | null } } = await t.get(
        `/cases?party=${party}&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...page.body.cases);
      cursor = page.body.nextCursor;
      if (filed < 2) {
        await t.fileOnChain(1, 2, `paging case ${filed}`);
        filed++;
        await t.indexed();
      }
    } while (cursor);
    expect(seen).toEqual(before);
    const after = (await t.get(`/cases?party=${party}&limit=100`)).body;
    expect(after.total).toBe(before.length + 2);
  });

  it("refuses bad filters in the envelope: 400/422 and a cursor of another shape; offset does not apply to a filtered list", async () => {
    const bad: [string, number, string][] = [
      ["party=0x123", 400, "INVALID_ADDRESS"],
      ["state=Sleeping", 422, "VALIDATION_ERROR"],
      ["court=0", 422, "VALIDATION_ERROR"],
      ["filedAfter=soon", 422, "VALIDATION_ERROR"],
      ["q=", 422, "VALIDATION_ERROR"],
      ["state=Resolved&cursor=bm9wZQ", 400, "INVALID_INPUT"],
    ];
    for (const [query, status, code] of bad) {
      const r = await t.get(`/cases?${query}`);
      expect([query, r.status, r.body.error?.code]).toEqual([query, status, code]);
    }
    const ignored = await t.get("/cases?state=Resolved&offset=5");
    expect(ignored.status).toBe(200);
    expect(ignored.body.cases).toEqual((await t.get("/cases?state=Resolved")).body.cases);
    const r = await call(mcp, "list_cases", { state: "Resolved", cursor: "bm9wZQ" });
    expect(r.isError).toBe(true);
  });

  it("answers 503 INDEX_UNAVAILABLE for a filter when docket runs without its index, and the chain's list still", async () => {
    const off = await TestDocket.shared({ INDEX: "off" });
    try {
      const r = await off.get("/cases?state=Resolved");
      expect([r.status, r.body.error?.code]).toEqual([503, "INDEX_UNAVAILABLE"]);
      expect((await off.get("/cases?limit=2")).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
