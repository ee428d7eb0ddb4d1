import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticLogs, courtEvents } from "../../src/chain/courtLogs.js";
import { request, TestDocket } from "../support/index.js";

/** docket's own follower fills its index: the seeded world backfilled at start, then what is mined live. */
describe("index ingest through the follower", () => {
  let t: TestDocket;
  beforeAll(async () => {
    t = await TestDocket.shared();
  });
  afterAll(async () => {
    await t?.close();
  });

  const stored = async () => {
    const db = t.docket.ctx.index?.db;
    if (!db) throw new Error("no index");
    return db.selectFrom("court_events").select(["block_hash", "log_index", "name"]).orderBy("id").execute();
  };
  const chainLogs = async () => {
    const head = await t.chain.reader.getBlockNumber();
    const raw = await t.chain.reader.getLogs({ events: courtEvents, fromBlock: 0n, toBlock: head, strict: true });
    return authenticLogs(raw, t.chain);
  };

  it("backfills every court log of the seeded chain, once each, with every case", async () => {
    await t.indexed();
    const [rows, logs] = await Promise.all([stored(), chainLogs()]);
    expect(rows.map((r) => `${r.block_hash}:${r.log_index}:${r.name}`)).toEqual(
      logs.map((l) => `${l.blockHash.toLowerCase()}:${l.logIndex}:${l.eventName}`),
    );
    const list = (await request(t.url, "/cases?limit=1&offset=0")).body as { total: number };
    const cases = await t.docket.ctx.index?.db.selectFrom("cases").select("address").execute();
    expect(cases?.length).toBe(list.total);
  });

  it("stores what is mined afterwards, live, and says how far it is", async () => {
    const before = (await stored()).length;
    // A judge stakes: one court event (JudgeStaked), mined now.
    await t.write("/judges/stake", { address: t.address(9), amount: "50000000000000000" }, 9);
    await t.indexed();
    const rows = await stored();
    expect(rows.length).toBeGreaterThan(before);
    expect(rows.at(-1)?.name).toBe("JudgeStaked");
    const cursor = await t.docket.ctx.index?.cursor();
    expect(cursor?.block).toBe(Number(await t.chain.reader.getBlockNumber()));
  });
});
