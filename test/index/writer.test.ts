import { sql } from "kysely";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticLogs, courtEvents } from "../../src/chain/courtLogs.js";
import { IndexWriter } from "../../src/index/writer.js";
import { makeLogger } from "../../src/log.js";
import { openStore, type Store } from "../../src/store/store.js";
import { request, TestDocket } from "../support/index.js";

/** The writer alone, on the seeded world: every court log of the chain in one step, then checked against the API. */
describe("index writer", () => {
  let t: TestDocket;
  let store: Store;
  beforeAll(async () => {
    t = await TestDocket.shared();
    store = await openStore({ DATABASE_URL: "memory://", INDEX_DIR: "unused" }, makeLogger("silent"));
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
    await t?.close();
  });

  it("stores every court log of the seeded chain once, with its cases, parties and panels", async () => {
    const chain = t.chain;
    const head = await chain.reader.getBlockNumber();
    const raw = await chain.reader.getLogs({ events: courtEvents, fromBlock: 0n, toBlock: head, strict: true });
    const logs = authenticLogs(raw, chain);
    const writer = new IndexWriter(store, chain, makeLogger("silent"), { fromBlock: 1n });
    const genesis = (await chain.reader.getBlock({ blockNumber: 0n })).hash;
    expect(await writer.anchor({ genesis, head, target: head })).toEqual({ block: 0n });
    await writer.persist(logs, { fromBlock: 1n, toBlock: head, target: head, catchingUp: true });
    // Again: a replayed step stores nothing twice.
    await writer.persist(logs, { fromBlock: 1n, toBlock: head, target: head, catchingUp: true });
    const events = await store.db
      .selectFrom("court_events")
      .select((e) => e.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(events.n)).toBe(logs.length);
    const list = (await request(t.url, "/cases?limit=100&offset=0")).body as { total: number; cases: string[] };
    const cases = await store.db.selectFrom("cases").selectAll().execute();
    expect(cases.length).toBe(list.total);
    for (const addr of list.cases) {
      const { case: c } = (await request(t.url, `/cases/${addr}`)).body as {
        case: { state: string; plaintiff: string; defendant: string; judges: string[]; claimDescription?: string };
      };
      const row = cases.find((r) => r.address === addr.toLowerCase());
      expect(row, addr).toBeDefined();
      expect(row?.state).toBe(c.state);
      expect(row?.plaintiff).toBe(c.plaintiff.toLowerCase());
      const judges = await store.db
        .selectFrom("case_participants")
        .select("address")
        .where("case_address", "=", addr.toLowerCase())
        .where("role", "=", "judge")
        .execute();
      for (const j of c.judges) expect(judges.map((x) => x.address)).toContain(j.toLowerCase());
    }
    const cursor = await writer.cursor();
    expect(cursor?.block_number).toBe(Number(head));
    expect(cursor?.genesis_hash).toBe(genesis);
  });

  it("keeps the case table from bloating (PGlite runs no autovacuum): it vacuums as its rows are rewritten", async () => {
    // Every step rewrites each case it touches (its status); PGlite runs no autovacuum, so without
    // the writer's own VACUUM each rewrite leaves a dead row version in the table and its indexes.
    const own = await openStore({ DATABASE_URL: "memory://", INDEX_DIR: "unused" }, makeLogger("silent"));
    try {
      await own.migrate();
      const chain = t.chain;
      const head = await chain.reader.getBlockNumber();
      const raw = await chain.reader.getLogs({ events: courtEvents, fromBlock: 0n, toBlock: head, strict: true });
      const logs = authenticLogs(raw, chain);
      const writer = new IndexWriter(own, chain, makeLogger("silent"), { fromBlock: 1n, vacuumEvery: 1 });
      const genesis = (await chain.reader.getBlock({ blockNumber: 0n })).hash;
      await writer.anchor({ genesis, head, target: head });
      const size = async () =>
        Number((await sql<{ n: number }>`select pg_relation_size('cases') as n`.execute(own.db)).rows[0]?.n);
      await writer.persist(logs, { fromBlock: 1n, toBlock: head, target: head, catchingUp: true });
      const first = await size();
      // A step written again rewrites every case it touches, as a busy chain's steps do.
      for (let i = 0; i < 40; i++) {
        await writer.persist(logs, { fromBlock: 1n, toBlock: head, target: head, catchingUp: true });
      }
      expect(await size()).toBeLessThanOrEqual(first * 3);
    } finally {
      await own.close();
    }
  });

  it("a new genesis under a stored index: on the embedded dev chain (a new one each start) said at info, elsewhere a warning", async () => {
    const own = await openStore({ DATABASE_URL: "memory://", INDEX_DIR: "unused" }, makeLogger("silent"));
    const lines: { level: number; msg: string }[] = [];
    const log = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    try {
      await own.migrate();
      const chain = t.chain;
      const head = await chain.reader.getBlockNumber();
      const genesis = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;
      const step = { fromBlock: 1n, toBlock: 1n, target: 1n, catchingUp: true };
      // A first chain stored (its cursor), then a new genesis seen by a writer on each kind of chain.
      const first = new IndexWriter(own, chain, log, { fromBlock: 1n });
      await first.anchor({ genesis: genesis(1), head, target: head });
      await first.persist([], step);
      const dev = new IndexWriter(own, chain, log, { fromBlock: 1n, devChain: true });
      expect(await dev.anchor({ genesis: genesis(2), head, target: head })).toEqual({ block: 0n });
      await dev.persist([], step);
      const external = new IndexWriter(own, chain, log, { fromBlock: 1n });
      expect(await external.anchor({ genesis: genesis(3), head, target: head })).toEqual({ block: 0n });
      const said = lines.filter((l) => l.msg.startsWith("index: a new dev chain") || l.msg.includes("reset"));
      expect(said.map((l) => [l.level, l.msg])).toEqual([
        [30, "index: a new dev chain (each start boots one): indexing it"],
        [40, "index: the chain was reset (new genesis): indexing it again"],
      ]);
    } finally {
      await own.close();
    }
  });
});
