import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { Kysely, PGliteDialect, PostgresDialect } from "kysely";
import { type MigrationResultSet, Migrator } from "kysely/migration";
import pg from "pg";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import { lockDir } from "./dirLock.js";
import { MIGRATIONS } from "./migrations/index.js";
import { forgetAbove } from "./rollback.js";
import type { StoreSchema } from "./schema.js";
import { memoryPGlite, saveTemplate } from "./template.js";

/**
 * The index's database (docs/index.md): one query builder (Kysely) over either engine, the
 * embedded Postgres (PGlite) or a real one (`pg`), with the same types read back from both.
 */
export interface Store {
  /** The query builder, typed by the schema of `schema.ts`. */
  readonly db: Kysely<StoreSchema>;
  /** `pglite` (embedded, in a directory or in memory) or `postgres` (DATABASE_URL). */
  readonly engine: "pglite" | "postgres";
  /** Where it is, for logs: the directory, `memory`, or the URL without its password. */
  readonly where: string;
  /**
   * Applies the migrations not applied yet, in order, each in a transaction, and gives their
   * names. Idempotent; on Postgres, processes racing here take turns on an advisory lock and the
   * later ones find nothing to do. A failed migration throws, with what was applied kept.
   */
  migrate(): Promise<string[]>;
  /** The migrations applied so far, in order. */
  applied(): Promise<string[]>;
  /**
   * Forgets everything above `blockNumber` (a reorg's fork point) in one transaction: see
   * `rollback.ts`. Says how many events and blocks it forgot, and the cases they were about.
   */
  rollbackTo(blockNumber: number): Promise<{ events: number; blocks: number; cases: string[] }>;
  /** Closes the pool or the embedded database; the store is not usable after. */
  close(): Promise<void>;
}

/** The memory-only engine's DATABASE_URL. */
export const IN_MEMORY = "memory://";

/**
 * int8 (bigint, bigserial) read as a JS number, on both engines: block numbers, log indexes and ids
 * stay far below 2^53, and a value past it is an error rather than a silently rounded number.
 */
function int8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 ${text} is past JS's safe integers`);
  return n;
}
const INT8 = 20;
const NUMERIC = 1700;
/** numeric (a uint256 job id) as its decimal string, on both engines. */
const numeric = (text: string) => text;

function pgPool(url: string, log: Logger): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") => {
        if (oid === INT8) return int8;
        if (oid === NUMERIC) return numeric;
        return pg.types.getTypeParser(oid, format as "text");
      }) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server drops (a restart, a failover) is an error on the pool: without
  // a listener it would end the process. The pool opens a new one on the next query.
  pool.on("error", (err) => log.warn({ err: err.message }, "index store: an idle Postgres connection failed"));
  return pool;
}

/**
 * Ends a pool and waits until each of its connections is closed: `pool.end()` resolves once it has
 * asked them to close, not once they have, and a server that stops in between would fail them.
 */
async function endPool(pool: pg.Pool, destroy: () => Promise<void>): Promise<void> {
  let left = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (left === 0) resolve();
    pool.on("remove", () => {
      if (--left <= 0) resolve();
    });
  });
  await destroy();
  await closed;
}

/** The URL with its password replaced, for logs. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparsable URL)";
  }
}

/**
 * Opens the index's database as configured: DATABASE_URL a postgres:// URL (a pool of `pg`
 * connections), `memory://` (PGlite in memory), or unset (PGlite persisted in INDEX_DIR, created if
 * missing, and held by this process until `close()`: see `dirLock.ts`). Nothing is migrated here:
 * call `migrate()`.
 */
export async function openStore(config: Pick<Config, "DATABASE_URL" | "INDEX_DIR">, log: Logger): Promise<Store> {
  const url = config.DATABASE_URL;
  let db: Kysely<StoreSchema>;
  let engine: Store["engine"];
  let where: string;
  let pool: pg.Pool | undefined;
  let release = () => {};
  /** An in-memory PGlite that started empty: saved as the template once migrated (`template.ts`). */
  let fresh: PGlite | undefined;
  if (url && url !== IN_MEMORY) {
    engine = "postgres";
    where = redacted(url);
    pool = pgPool(url, log);
    db = new Kysely<StoreSchema>({ dialect: new PostgresDialect({ pool }) });
  } else {
    engine = "pglite";
    const parsers = { [pgliteTypes.INT8]: int8, [pgliteTypes.NUMERIC]: numeric };
    let pglite: PGlite;
    if (url === IN_MEMORY) {
      where = "memory";
      const opened = await memoryPGlite({ parsers });
      pglite = opened.pglite;
      if (!opened.migrated) fresh = pglite;
    } else {
      where = resolve(config.INDEX_DIR);
      mkdirSync(where, { recursive: true });
      release = lockDir(where);
      try {
        pglite = await PGlite.create(where, { parsers });
      } catch (err) {
        release();
        throw err;
      }
    }
    db = new Kysely<StoreSchema>({ dialect: new PGliteDialect({ pglite }) });
  }
  // The banner names the store; the line is for debugging.
  log.debug({ engine, where }, "index store opened");

  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
  });
  const names = (results: MigrationResultSet) => {
    if (results.error) throw results.error;
    const failed = results.results?.find((r) => r.status === "Error");
    if (failed) throw new Error(`migration ${failed.migrationName} failed`);
    return (results.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  };
  let closed = false;

  return {
    db,
    engine,
    where,
    async migrate() {
      const started = performance.now();
      const done = names(await migrator.migrateToLatest());
      if (fresh) {
        await saveTemplate(fresh);
        fresh = undefined;
      }
      if (done.length > 0) {
        log.info({ migrations: done, ms: Math.round(performance.now() - started) }, "index store migrated");
      }
      return done;
    },
    async applied() {
      const all = await migrator.getMigrations();
      return all.filter((m) => m.executedAt !== undefined).map((m) => m.name);
    },
    async rollbackTo(blockNumber) {
      return db.transaction().execute((trx) => forgetAbove(trx, blockNumber));
    },
    async close() {
      if (closed) return;
      closed = true;
      // Ends the pool (pg) or closes PGlite, flushing it to its directory.
      if (pool) await endPool(pool, () => db.destroy());
      else await db.destroy();
      release();
    },
  };
}
