/**
 * Item 13 (issue #34, "Measured"): the index filled with generated court events through its real
 * ingest (rows.ts + IndexWriter.persist, with the generator as its ChainFacts), on PGlite (on disk, as
 * `docket start` keeps it) and on a real Postgres: the rate and the bench process's memory at each
 * checkpoint; then the query costs at a small and a large store, both engines.
 *
 * Run on its own: `node --expose-gc --import tsx bench/items/indexScale.ts` (knobs: BENCH_INDEX_EVENTS
 * [1000000] and BENCH_INDEX_CASES [100000]: the large store is filled until it holds both,
 * BENCH_INDEX_IN_FLIGHT [200]: cases open at once in both stores,
 * BENCH_INDEX_CHECKPOINTS [25000,100000,250000,500000,1000000]: rate, memory and the reads' costs at each and at the end, BENCH_INDEX_SMALL_CASES [1000],
 * BENCH_INDEX_QUERIES [15], BENCH_INDEX_ENGINES [pglite,postgres], BENCH_INDEX_OUT
 * [bench/results.index.json]).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChainAccess } from "../../src/chain/access.js";
import { IndexWriter } from "../../src/index/writer.js";
import { makeLogger } from "../../src/log.js";
import { openStore, type Store } from "../../src/store/store.js";
import { ROOT, startPostgres } from "../../test/support/index.js";
import { CourtEventGenerator, GEN_FACTORY } from "../lib/courtEvents.js";
import { type IndexQuery, indexQueries } from "../lib/indexQueries.js";
import { machineInfo } from "../lib/machine.js";
import { median, round } from "../lib/stats.js";

const num = (name: string, dflt: number) => {
  const v = process.env[name];
  return v === undefined || v === "" ? dflt : Number(v);
};
const list = (name: string, dflt: string) => (process.env[name] || dflt).split(",").filter(Boolean);

export interface Checkpoint {
  events: number;
  cases: number;
  seconds: number;
  /** Events per second since the last checkpoint. */
  eventsPerSecond: number;
  rssMiB: number;
  heapUsedMiB: number;
  /** The reads, timed on the store as it is at this checkpoint. */
  queries: QueryCost[];
}

export interface QueryCost {
  query: string;
  /** Which code ran it: the helpers' function, or a placeholder query of the same shape. */
  source: string;
  p50Ms: number;
  p90Ms: number;
}

export interface StoreSize {
  cases: number;
  events: number;
  /** Events per second filling it (the whole fill). */
  eventsPerSecond: number;
  rssMiB: number;
  heapUsedMiB: number;
  queries: QueryCost[];
}

export interface EngineResult {
  engine: string;
  checkpoints: Checkpoint[];
  /** Query costs at the small store and at the large one. */
  small: StoreSize;
  /** The large store's checkpoints carry its query costs as it grows; `large` is its last. */
  large?: StoreSize;
  /** Each read's p50 at the large store over its p50 at the small one (the target: at most 2). */
  ratios?: { query: string; smallP50Ms: number; largeP50Ms: number; ratio: number }[];
}

/** The large store's reads over the small one's, by p50. */
export function ratios(small: StoreSize, large: StoreSize): NonNullable<EngineResult["ratios"]> {
  return large.queries.map((q, i) => {
    const s = small.queries[i]?.p50Ms ?? Number.NaN;
    return { query: q.query, smallP50Ms: s, largeP50Ms: q.p50Ms, ratio: round(q.p50Ms / s, 2) };
  });
}

const MiB = 2 ** 20;
const gc = (globalThis as { gc?: () => void }).gc;
const memory = () => {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { rssMiB: round(m.rss / MiB, 1), heapUsedMiB: round(m.heapUsed / MiB, 1) };
};

/** The writer's chain, as far as it asks: an id, the factory its cursor is keyed by, the batch limit. */
const benchChain = { chainId: 31337, factory: GEN_FACTORY, limits: { batchMax: 10 } } as unknown as ChainAccess;

/** Events of one follower step (a backfill step of ~100 blocks at this mix). */
const STEP = 2_000;

/** Fills `store` with `total` generated events (and on until `cases` cases are filed), reporting at each checkpoint and at the end. */
export async function fill(
  store: Store,
  gen: CourtEventGenerator,
  total: number,
  checkpoints: number[],
  say: (line: string) => void = () => {},
  onCheckpoint: (so: Checkpoint[]) => void = () => {},
  time: () => Promise<QueryCost[]> = async () => [],
  cases = 0,
): Promise<Checkpoint[]> {
  const writer = new IndexWriter(store, benchChain, makeLogger("silent"), { fromBlock: 1n, facts: gen });
  await writer.anchor({ genesis: `0x${"00".repeat(32)}`, head: 0n, target: 0n });
  const out: Checkpoint[] = [];
  let done = 0;
  let since = { at: performance.now(), events: 0 };
  const t0 = performance.now();
  const marks = [...checkpoints].sort((a, b) => a - b);
  const more = () => done < total || gen.casesFiled < cases;
  while (more()) {
    const { logs, meta } = gen.step(done < total ? Math.min(STEP, total - done) : STEP);
    await writer.persist(logs, meta);
    done += logs.length;
    const last = !more() && checkpoints.length > 0;
    if ((marks.length > 0 && done >= (marks[0] as number)) || last) {
      while (marks.length > 0 && done >= (marks[0] as number)) marks.shift();
      const now = performance.now();
      const cp = {
        events: done,
        cases: gen.casesFiled,
        seconds: round((now - t0) / 1000, 1),
        eventsPerSecond: Math.round((done - since.events) / ((now - since.at) / 1000)),
        ...memory(),
        queries: await time(),
      };
      out.push(cp);
      onCheckpoint(out);
      say(
        `  ${cp.events} events, ${cp.cases} cases: ${cp.eventsPerSecond} events/s, rss ${cp.rssMiB} MiB (${cp.seconds} s)`,
      );
      since = { at: performance.now(), events: done };
    }
  }
  return out;
}

/** Each query `runs` times over varied arguments: p50/p90 in ms. */
export async function timeQueries(
  store: Store,
  gen: CourtEventGenerator,
  queries: IndexQuery[],
  runs: number,
): Promise<QueryCost[]> {
  const out: QueryCost[] = [];
  for (const q of queries) {
    await q.run(store.db, gen, 0); // warm
    const ms: number[] = [];
    for (let i = 1; i <= runs; i++) {
      const t = performance.now();
      await q.run(store.db, gen, i);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    out.push({
      query: q.name,
      source: q.source,
      p50Ms: round(median(ms), 2),
      p90Ms: round(ms[Math.floor(ms.length * 0.9)] ?? 0, 2),
    });
  }
  return out;
}

async function count(store: Store) {
  const [e, c] = await Promise.all([
    store.db
      .selectFrom("court_events")
      .select((x) => x.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    store.db
      .selectFrom("cases")
      .select((x) => x.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { events: Number(e.n), cases: Number(c.n) };
}

/** Parties in the large store (the generator's default); the small one has as many cases per party. */
const LARGE_PARTIES = 2_000;

/** One engine: a small store (BENCH_INDEX_SMALL_CASES cases) and the large one (BENCH_INDEX_EVENTS events). */
export async function benchEngine(
  engine: string,
  open: (name: string) => Promise<Store>,
  opts: { events: number; cases: number; inFlight: number; checkpoints: number[]; smallCases: number; runs: number },
  say: (line: string) => void,
  partial: (r: Partial<EngineResult>) => void = () => {},
): Promise<EngineResult> {
  const queries = await indexQueries();
  say(`${engine}: small store, ${opts.smallCases} cases`);
  const small = await open("small");
  // Both stores keep as many cases in flight, so the open set (what an inbox or the pending list
  // holds) is the same size at both and only the history behind it grows.
  // ... and as many cases per party (the large store's 2,000 parties scaled down), so a party's
  // filtered page holds a full page and counts as many cases at both sizes: only the table grows.
  const sgen = new CourtEventGenerator({
    inFlight: Math.min(opts.inFlight, Math.ceil(opts.smallCases / 5)),
    parties: Math.max(2, Math.round((LARGE_PARTIES * opts.smallCases) / opts.cases)),
  });
  const smallResult = await (async () => {
    const t = performance.now();
    await fill(small, sgen, 0, [], undefined, undefined, undefined, opts.smallCases);
    const seconds = (performance.now() - t) / 1000;
    const sized = await count(small);
    const sq = await timeQueries(small, sgen, queries, opts.runs);
    return { ...sized, eventsPerSecond: Math.round(sized.events / seconds), ...memory(), queries: sq };
  })().finally(() => small.close());
  say(`${engine}: large store, ${opts.events} events and ${opts.cases} cases`);
  const large = await open("large");
  const lgen = new CourtEventGenerator({ inFlight: opts.inFlight, parties: LARGE_PARTIES });
  try {
    const t = performance.now();
    const checkpoints = await fill(
      large,
      lgen,
      opts.events,
      opts.checkpoints,
      say,
      (so) => partial({ engine, small: smallResult, checkpoints: so }),
      () => timeQueries(large, lgen, queries, opts.runs),
      opts.cases,
    );
    const last = checkpoints[checkpoints.length - 1];
    const sized = await count(large);
    const largeResult = last && {
      ...sized,
      eventsPerSecond: Math.round(sized.events / ((performance.now() - t) / 1000)),
      rssMiB: last.rssMiB,
      heapUsedMiB: last.heapUsedMiB,
      queries: last.queries,
    };
    return {
      engine,
      checkpoints,
      small: smallResult,
      large: largeResult,
      ratios: largeResult && ratios(smallResult, largeResult),
    };
  } finally {
    await large.close();
  }
}

async function main() {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  if (!gc) say("note: run with node --expose-gc for memory after a forced GC");
  const opts = {
    events: num("BENCH_INDEX_EVENTS", 1_000_000),
    cases: num("BENCH_INDEX_CASES", 100_000),
    inFlight: num("BENCH_INDEX_IN_FLIGHT", 200),
    checkpoints: list("BENCH_INDEX_CHECKPOINTS", "25000,100000,250000,500000,1000000").map(Number),
    smallCases: num("BENCH_INDEX_SMALL_CASES", 1_000),
    runs: num("BENCH_INDEX_QUERIES", 15),
  };
  const engines = list("BENCH_INDEX_ENGINES", "pglite,postgres");
  const t0 = performance.now();
  const machine = machineInfo();
  const log = makeLogger("silent");
  const results: Partial<EngineResult>[] = [];
  const file = process.env.BENCH_INDEX_OUT || join(ROOT, "bench", "results.index.json");
  // Written after each checkpoint too: a run stopped half-way keeps what it measured.
  const write = (so: Partial<EngineResult>[], done: boolean) =>
    writeFileSync(
      file,
      `${JSON.stringify({ machine, settings: { ...opts, engines, stepEvents: STEP }, seconds: Math.round((performance.now() - t0) / 1000), done, engines: so }, null, 2)}\n`,
    );
  const partial = (r: Partial<EngineResult>) => write([...results, r], false);
  for (const engine of engines) {
    if (engine === "pglite") {
      const dir = mkdtempSync(join(tmpdir(), "docket-bench-index-"));
      try {
        const open = async (name: string) => {
          const s = await openStore({ DATABASE_URL: undefined, INDEX_DIR: join(dir, name) }, log);
          await s.migrate();
          return s;
        };
        results.push(await benchEngine("pglite", open, opts, say, partial));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else if (engine === "postgres") {
      const pg = await startPostgres();
      try {
        const open = async (name: string) => {
          const s = await openStore(
            { DATABASE_URL: await pg.createDatabase(`bench_${name}`), INDEX_DIR: "unused" },
            log,
          );
          await s.migrate();
          return s;
        };
        results.push(await benchEngine("postgres", open, opts, say, partial));
      } finally {
        await pg.stop();
      }
    }
  }
  write(results, true);
  say(`wrote ${file} (${Math.round((performance.now() - t0) / 1000)} s)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
