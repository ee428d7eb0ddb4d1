import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Listener } from "../events/helpers.js";
import { TestDocket, until } from "../support/index.js";

/** INDEX_RETENTION: the writer prunes events older than it; cases stay; a pruned id is a gap. */
describe("index retention", () => {
  let t: TestDocket;
  beforeAll(async () => {
    t = await TestDocket.shared({ INDEX_RETENTION: "3" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("prunes the events of blocks older than the last three, keeps every case, and a pruned id is a gap", async () => {
    await t.indexed();
    const index = t.docket.ctx.index;
    if (!index) throw new Error("no index");
    const db = index.db;
    const oldest = await db.selectFrom("court_events").selectAll().orderBy("id").executeTakeFirstOrThrow();
    const casesBefore = await db.selectFrom("cases").select("address").execute();
    const cursor = (await index.cursor())?.block as number;
    const done = await index.prune();
    expect(done?.keptFrom).toBe(cursor - 2);
    expect(done?.events).toBeGreaterThan(0);
    const left = await db.selectFrom("court_events").select("block_number").execute();
    expect(left.every((r) => r.block_number >= cursor - 2)).toBe(true);
    expect(await db.selectFrom("cases").select("address").execute()).toHaveLength(casesBefore.length);
    expect((await t.get("/health")).body.index).toMatchObject({ role: "writer", prunedBelow: cursor - 2 });
    const id = `${oldest.block_number}-${oldest.log_index}-${oldest.block_hash.slice(2, 10)}`;
    const l = await Listener.open(t.url, "", id);
    try {
      await until("the gap", () => l.received.length >= 1);
      expect(l.received[0]?.type).toBe("events.gap");
    } finally {
      l.close();
    }
  });
});
