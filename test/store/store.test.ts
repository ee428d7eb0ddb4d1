import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { makeLogger } from "../../src/log.js";
import { MIGRATIONS } from "../../src/store/migrations/index.js";
import { IN_MEMORY, openStore, type Store } from "../../src/store/store.js";
import { templatePath } from "../../src/store/template.js";
import { type PostgresServer, ROOT, spawnNode, startPostgres } from "../support/index.js";

/**
 * The index's store (docs/index.md), the same suite on each engine it runs on: PGlite persisted in
 * a directory, PGlite in memory, and a real Postgres this file starts (test/support/postgres.ts).
 */
const log = makeLogger("silent");
const ALL = Object.keys(MIGRATIONS);
const hash = (n: number, salt = 0) => `0x${(n * 1000 + salt).toString(16).padStart(64, "0")}`;
const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

let postgres: PostgresServer;
let dirs: string[] = [];
let databases = 0;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

interface Engine {
  name: string;
  /** A fresh, empty database's settings. */
  fresh(): Promise<{ DATABASE_URL?: string; INDEX_DIR: string }>;
  /** Whether a second open of the same settings sees the first's data. */
  persists: boolean;
}

const engines: Engine[] = [
  {
    name: "PGlite in a directory",
    persists: true,
    async fresh() {
      const dir = mkdtempSync(join(tmpdir(), "docket-index-"));
      dirs.push(dir);
      return { INDEX_DIR: join(dir, "index") };
    },
  },
  {
    name: "PGlite in memory",
    persists: false,
    async fresh() {
      return { DATABASE_URL: IN_MEMORY, INDEX_DIR: "unused" };
    },
  },
  {
    name: "Postgres",
    persists: true,
    async fresh() {
      return { DATABASE_URL: await postgres.createDatabase(`store_${++databases}`), INDEX_DIR: "unused" };
    },
  },
];

/** Accepts blocks `from`..`to`, each with `perBlock` events about case 1 and its parties. */
async function fill(store: Store, from: number, to: number, perBlock: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    await store.db
      .insertInto("chain_blocks")
      .values({ number: n, hash: hash(n), parent_hash: hash(n - 1), timestamp: 1_700_000_000 + n * 12 })
      .execute();
    for (let i = 0; i < perBlock; i++) {
      const { id } = await store.db
        .insertInto("court_events")
        .values({
          block_number: n,
          block_hash: hash(n),
          log_index: i,
          tx_hash: hash(n, i + 1),
          address: addr(0xcafe),
          name: "VoteCast",
          args: JSON.stringify({ judge: addr(100 + i), side: 1, weight: "1000000000000000000000" }),
          case_address: addr(1),
          job_id: i === 0 ? "115792089237316195423570985008687907853269984665640564039457584007913129639935" : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await store.db
        .insertInto("court_event_addresses")
        .values([
          { event_id: id, address: addr(100 + i), role: "judge" },
          { event_id: id, address: addr(2), role: "claimant" },
        ])
        .execute();
    }
  }
}

const tables = async (store: Store) =>
  (
    await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'public' order by table_name`.execute(
      store.db,
    )
  ).rows.map((r) => r.table_name);

for (const engine of engines) {
  describe(`the store on ${engine.name}`, () => {
    it("migrates from empty, records what it applied, and a second migrate (or a reopen) is a no-op", async () => {
      const settings = await engine.fresh();
      const store = await openStore(settings, log);
      try {
        expect(store.engine).toBe(engine.name === "Postgres" ? "postgres" : "pglite");
        // An in-memory store may start from the migrated template (template.ts; tested below).
        const before = await store.applied();
        if (engine.persists) expect(before).toEqual([]);
        else expect([[], ALL]).toContainEqual(before);
        expect(await store.migrate()).toEqual(ALL.filter((m) => !before.includes(m)));
        expect(await store.applied()).toEqual(ALL);
        expect(await tables(store)).toEqual(
          expect.arrayContaining(["chain_blocks", "court_event_addresses", "court_events", "ingest_cursor"]),
        );
        expect(await store.migrate()).toEqual([]);
        await fill(store, 1, 1, 1);
      } finally {
        await store.close();
      }
      if (!engine.persists) return;
      const again = await openStore(settings, log);
      try {
        expect(await again.applied()).toEqual(ALL);
        expect(await again.migrate()).toEqual([]);
        const events = await again.db.selectFrom("court_events").selectAll().execute();
        expect(events).toHaveLength(1);
      } finally {
        await again.close();
      }
    });

    describe("once migrated", () => {
      let store: Store;
      beforeAll(async () => {
        store = await openStore(await engine.fresh(), log);
        await store.migrate();
        await fill(store, 1, 5, 3);
      });
      afterAll(async () => {
        await store?.close();
      });

      it("reads int8 as numbers, a uint256 job id as its decimal string, args as JSON, on every engine", async () => {
        const e = await store.db
          .selectFrom("court_events")
          .selectAll()
          .where("block_number", "=", 2)
          .where("log_index", "=", 0)
          .executeTakeFirstOrThrow();
        expect(typeof e.id).toBe("number");
        expect(e.block_number).toBe(2);
        expect(e.job_id).toBe("115792089237316195423570985008687907853269984665640564039457584007913129639935");
        expect(e.args).toEqual({ judge: addr(100), side: 1, weight: "1000000000000000000000" });
        const b = await store.db
          .selectFrom("chain_blocks")
          .selectAll()
          .where("number", "=", 5)
          .executeTakeFirstOrThrow();
        expect(b).toEqual({ number: 5, hash: hash(5), parent_hash: hash(4), timestamp: 1_700_000_060 });
      });

      it("gives events ids that grow in chain order, and finds them by case, by address and from an id", async () => {
        const ids = (await store.db.selectFrom("court_events").select("id").orderBy("id").execute()).map((r) => r.id);
        expect(ids).toHaveLength(15);
        expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] as number))).toBe(true);
        const byCase = await store.db
          .selectFrom("court_events")
          .select("id")
          .where("case_address", "=", addr(1))
          .execute();
        expect(byCase).toHaveLength(15);
        const judged = await store.db
          .selectFrom("court_event_addresses")
          .select("event_id")
          .where("address", "=", addr(101))
          .orderBy("event_id")
          .execute();
        expect(judged).toHaveLength(5);
        const after = await store.db
          .selectFrom("court_events")
          .select("id")
          .where("id", ">", ids[9] as number)
          .orderBy("id")
          .execute();
        expect(after.map((r) => r.id)).toEqual(ids.slice(10));
      });

      it("refuses a log stored twice (block hash, log index), and a replay that says so inserts nothing", async () => {
        const dup = {
          block_number: 3,
          block_hash: hash(3),
          log_index: 1,
          tx_hash: hash(3, 9),
          address: addr(0xcafe),
          name: "VoteCast",
          args: JSON.stringify({}),
          case_address: addr(1),
          job_id: null,
        };
        await expect(store.db.insertInto("court_events").values(dup).execute()).rejects.toMatchObject({
          code: "23505",
        });
        const replayed = await store.db
          .insertInto("court_events")
          .values(dup)
          .onConflict((oc) => oc.columns(["block_hash", "log_index"]).doNothing())
          .returning("id")
          .execute();
        expect(replayed).toEqual([]);
        expect(await count(store, 3)).toBe(3);
      });

      it("refuses an event of a block it never accepted, and a hash or address not in lower-case hex", async () => {
        const base = {
          block_number: 9,
          block_hash: hash(9),
          log_index: 0,
          tx_hash: hash(9, 1),
          address: addr(0xcafe),
          name: "X",
          args: JSON.stringify({}),
          case_address: null,
          job_id: null,
        };
        // 23503: foreign key (no block 9); 23514: a check constraint.
        await expect(store.db.insertInto("court_events").values(base).execute()).rejects.toMatchObject({
          code: "23503",
        });
        await expect(
          store.db
            .insertInto("court_events")
            .values({
              ...base,
              block_number: 1,
              block_hash: hash(1),
              log_index: 7,
              address: addr(0xcafe).toUpperCase(),
            })
            .execute(),
        ).rejects.toMatchObject({ code: "23514" });
      });

      it("rolls back to a block: the events above it, who they concerned and the blocks go; new ids still grow", async () => {
        const before = await store.db
          .selectFrom("court_events")
          .select(sql<number>`max(id)`.as("max"))
          .executeTakeFirstOrThrow();
        expect(await store.rollbackTo(3)).toMatchObject({ events: 6, blocks: 2 });
        expect(await count(store, 4)).toBe(0);
        expect(await count(store, 3)).toBe(3);
        const blocks = await store.db.selectFrom("chain_blocks").select("number").orderBy("number").execute();
        expect(blocks.map((b) => b.number)).toEqual([1, 2, 3]);
        const orphans = await store.db
          .selectFrom("court_event_addresses")
          .select("event_id")
          .where("event_id", ">", before.max - 6)
          .execute();
        expect(orphans).toEqual([]);
        expect(await store.rollbackTo(3)).toEqual({ events: 0, blocks: 0, cases: [] });
        // The new branch's block 4: its events get ids past every id given before (a client's
        // resume point never names a different event).
        await fill(store, 4, 4, 1);
        const fresh = await store.db
          .selectFrom("court_events")
          .select("id")
          .where("block_number", "=", 4)
          .executeTakeFirstOrThrow();
        expect(fresh.id).toBeGreaterThan(before.max);
      });

      it("keeps the ingest's cursor, one per chain and deployment", async () => {
        const cursor = { chain_id: 31337, factory: addr(0xfac), block_number: 3, block_hash: hash(3) };
        await store.db.insertInto("ingest_cursor").values(cursor).execute();
        await store.db
          .insertInto("ingest_cursor")
          .values({ ...cursor, block_number: 4, block_hash: hash(4) })
          .onConflict((oc) =>
            oc.columns(["chain_id", "factory"]).doUpdateSet((eb) => ({
              block_number: eb.ref("excluded.block_number"),
              block_hash: eb.ref("excluded.block_hash"),
            })),
          )
          .execute();
        const rows = await store.db.selectFrom("ingest_cursor").selectAll().execute();
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ chain_id: 31337, block_number: 4, block_hash: hash(4) });
        expect(rows[0]?.updated_at).toBeInstanceOf(Date);
      });
    });

    it("closes everything: a process that opens, migrates and closes it exits by itself", async () => {
      const settings = await engine.fresh();
      const env = { ...process.env, ...settings, LOG_LEVEL: "silent" };
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", join(ROOT, "test/store/openMigrateClose.ts")],
        { env, cwd: ROOT, timeout: 30_000, killSignal: "SIGKILL" },
      );
      expect(stdout).toBe(`closed after ${ALL.length} migrations\n`);
    });
  });
}

const count = async (store: Store, block: number) =>
  (
    await store.db
      .selectFrom("court_events")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("block_number", "=", block)
      .executeTakeFirstOrThrow()
  ).n;

describe("an in-memory store", () => {
  it("starts from the migrated template a first one saved, empty; an unreadable template is replaced", async () => {
    const first = await openStore({ DATABASE_URL: IN_MEMORY, INDEX_DIR: "unused" }, log);
    await first.migrate();
    await fill(first, 1, 1, 1);
    await first.close();
    expect(statSync(templatePath()).size).toBeGreaterThan(0);

    const second = await openStore({ DATABASE_URL: IN_MEMORY, INDEX_DIR: "unused" }, log);
    try {
      expect(await second.applied()).toEqual(ALL);
      expect(await second.migrate()).toEqual([]);
      expect(await second.db.selectFrom("court_events").selectAll().execute()).toEqual([]);
    } finally {
      await second.close();
    }

    writeFileSync(templatePath(), "not a tar file");
    const third = await openStore({ DATABASE_URL: IN_MEMORY, INDEX_DIR: "unused" }, log);
    try {
      expect(await third.applied()).toEqual([]);
      expect(await third.migrate()).toEqual(ALL);
    } finally {
      await third.close();
    }
    const fourth = await openStore({ DATABASE_URL: IN_MEMORY, INDEX_DIR: "unused" }, log);
    try {
      expect(await fourth.applied()).toEqual(ALL);
    } finally {
      await fourth.close();
    }
  });
});

describe("the embedded store's directory", () => {
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), "docket-index-"));
    dirs.push(d);
    return join(d, "index");
  };

  it("is one process's: a second open is refused, saying which process holds it, until the first closes", async () => {
    const INDEX_DIR = dir();
    const first = await openStore({ INDEX_DIR }, log);
    try {
      await expect(openStore({ INDEX_DIR }, log)).rejects.toThrow(
        new RegExp(`index directory .* is in use by process ${process.pid}@`),
      );
    } finally {
      await first.close();
    }
    const second = await openStore({ INDEX_DIR }, log);
    await second.close();
  });

  it("is taken over from a process killed with SIGKILL, with what it had written", async () => {
    const INDEX_DIR = dir();
    const holder = await spawnNode(["--import", "tsx", join(ROOT, "test/store/openMigrateClose.ts")], {
      env: { INDEX_DIR, HOLD: "1", LOG_LEVEL: "silent" },
      ready: /holding/,
    });
    // While it lives, the directory is its.
    await expect(openStore({ INDEX_DIR }, log)).rejects.toThrow(/is in use by process/);
    holder.proc.kill("SIGKILL");
    await holder.stop();
    const store = await openStore({ INDEX_DIR }, log);
    try {
      expect(await store.applied()).toEqual(ALL);
      expect(await store.migrate()).toEqual([]);
      const blocks = await store.db.selectFrom("chain_blocks").select("number").execute();
      expect(blocks).toEqual([{ number: 1 }]);
    } finally {
      await store.close();
    }
  });

  it("is taken over from an earlier process that had this one's pid (a container's pid 1 after a restart)", async () => {
    const INDEX_DIR = dir();
    mkdirSync(INDEX_DIR, { recursive: true });
    writeFileSync(join(INDEX_DIR, "owner.lock"), `${process.pid}@${hostname()}`);
    const store = await openStore({ INDEX_DIR }, log);
    await store.close();
  });
});

describe("the store on Postgres, shared by processes", () => {
  it("two migrations racing on one database leave one schema, each migration applied once", async () => {
    const url = await postgres.createDatabase("race");
    const stores = await Promise.all([0, 1, 2].map(() => openStore({ DATABASE_URL: url, INDEX_DIR: "unused" }, log)));
    try {
      const results = await Promise.all(stores.map((s) => s.migrate()));
      // One applied them all; the others waited on the lock and found nothing to do.
      expect(results.filter((r) => r.length > 0)).toEqual([ALL]);
      expect(results.filter((r) => r.length === 0)).toHaveLength(2);
      const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        stores[0]?.db as Store["db"],
      );
      expect(recorded.rows.map((r) => r.name)).toEqual(ALL);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
    // close() resolves once every connection is gone, not once it was asked to go.
    const admin = await openStore({ DATABASE_URL: postgres.url, INDEX_DIR: "unused" }, log);
    try {
      const left = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity where datname = 'race'`.execute(admin.db);
      expect(left.rows[0]?.n).toBe(0);
    } finally {
      await admin.close();
    }
  });
});

describe("DATABASE_URL", () => {
  it("takes a postgres:// URL or memory://, and refuses anything else with one clear line", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@db:5432/docket" }).DATABASE_URL).toBe(
      "postgres://u:p@db:5432/docket",
    );
    expect(loadConfig({ DATABASE_URL: "postgresql://db/docket" }).DATABASE_URL).toBe("postgresql://db/docket");
    expect(loadConfig({ DATABASE_URL: "memory://" }).DATABASE_URL).toBe(IN_MEMORY);
    expect(loadConfig({}).INDEX_DIR).toBe("data/index");
    expect(() => loadConfig({ DATABASE_URL: "mysql://db/docket" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: "mysql://db/docket" })).toThrow(/DATABASE_URL/);
  });
});
