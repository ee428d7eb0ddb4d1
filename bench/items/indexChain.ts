/**
 * Item 14 (issue #34, "Measured"), on the dev chain: the index beside today's scans at 2,000 cases,
 * then docket's own backfill (the follower + the writer) of 10,000 cases.
 *
 * The world (bench/lib/world.ts) is built so that each comparison has an answer to find: first 150
 * cases between two parties only (A and B), then cases between 2,000 other parties up to 2,000 in
 * all, the newest filed against A and still Summoned. So B's cases are the 150 oldest (the explorer's
 * filtered list searches only the newest 500: src/web/pages.ts SCAN_MAX), and A is in 151 open cases,
 * the newest of them a summons (the inbox reads getInvolvedCases, a page of 100 in the factory's
 * order).
 *
 * Run on its own: `node --expose-gc --import tsx bench/items/indexChain.ts` (BENCH_INDEX_CASES
 * [10000], BENCH_INDEX_SCAN_CASES [2000], BENCH_INDEX_CHAIN_OUT [bench/results.index.chain.json]).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address } from "viem";
import { loadConfig } from "../../src/config.js";
import { startDevnet } from "../../src/devnet/devnet.js";
import { type Docket, startServer } from "../../src/server.js";
import type { Store } from "../../src/store/store.js";
import { ROOT } from "../../test/support/index.js";
import { docketEnv } from "../lib/docket.js";
import { caseListPage, involvedPage } from "../lib/indexQueries.js";
import { machineInfo } from "../lib/machine.js";
import { round } from "../lib/stats.js";
import { World } from "../lib/world.js";

const num = (name: string, dflt: number) => {
  const v = process.env[name];
  return v === undefined || v === "" ? dflt : Number(v);
};
const MiB = 2 ** 20;
const gc = (globalThis as { gc?: () => void }).gc;
const say = (line: string) => process.stdout.write(`${line}\n`);

/** docket in this process with its index on (PGlite in `dir`); resolves when the index holds the head. */
async function indexedDocket(env: Record<string, string>, dir: string, head: () => Promise<bigint>) {
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  let peak = rssBefore;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 250);
  const docket = await startServer(loadConfig({ ...env, INDEX: "on", INDEX_DIR: dir, EVENT_POLL_MS: "200" }));
  const target = Number(await head());
  for (;;) {
    const at = await docket.ctx.index?.cursor();
    if (at && at.block >= target) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  clearInterval(sample);
  const seconds = (performance.now() - t0) / 1000;
  gc?.();
  return {
    docket,
    seconds,
    rssBeforeMiB: round(rssBefore / MiB, 1),
    rssPeakMiB: round(peak / MiB, 1),
    rssAfterMiB: round(process.memoryUsage().rss / MiB, 1),
  };
}

async function counts(store: Store) {
  const e = await store.db
    .selectFrom("court_events")
    .select((x) => x.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const c = await store.db
    .selectFrom("cases")
    .select((x) => x.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return { events: Number(e.n), cases: Number(c.n) };
}

async function main() {
  const total = num("BENCH_INDEX_CASES", 10_000);
  const scanAt = num("BENCH_INDEX_SCAN_CASES", 2_000);
  const machine = machineInfo();
  const t0 = performance.now();
  const devnet = await startDevnet({ seed: false });
  const dir = mkdtempSync(join(tmpdir(), "docket-bench-chain-"));
  let docket: Docket | undefined;
  try {
    const world = await World.on(devnet);
    const env = docketEnv(devnet.nodeUrl, devnet.deployment);
    const head = () => devnet.reader.getBlockNumber();
    // 150 cases between A and B only (the first two parties), then 2,000 parties.
    const parties = 2_000;
    const built = [await world.grow(150, world.agentJudges + 2)];
    built.push(await world.grow(scanAt, world.agentJudges + parties));
    const a = world.agents[world.agentJudges] as Address;
    const b = world.agents[world.agentJudges + 1] as Address;
    const oldest = world.cases[0] as Address;
    const newest = world.cases[scanAt - 1] as Address;
    say(`world: ${world.cases.length} cases (${built.reduce((s, r) => s + r.seconds, 0).toFixed(0)} s)`);

    // Item 14a: today's scans against the index, at `scanAt` cases.
    const first = await indexedDocket(env, join(dir, "scan"), head);
    docket = first.docket;
    const index = docket.ctx.index;
    if (!index) throw new Error("docket started without its index");
    const url = docket.url;
    const timed = async <T>(fn: () => Promise<T>) => {
      const t = performance.now();
      const value = await fn();
      return { ms: round(performance.now() - t, 1), value };
    };
    const explorer = await timed(async () => {
      const res = await fetch(`${url}/explorer/cases?party=${b}`, { headers: { accept: "text/html" } });
      return (await res.text()).toLowerCase();
    });
    const byIndex = await timed(() => caseListPage(index.db, { party: b.toLowerCase() }, 200));
    const inboxToday = await timed(async () => {
      const res = await fetch(`${url}/agent/${a}/inbox?limit=100`);
      return (await res.json()) as { total: number; cases: { case: string }[] };
    });
    const inboxIndex = await timed(() => involvedPage(index.db, a.toLowerCase()));
    const scan = {
      cases: scanAt,
      partyFilter: {
        // The index pages through all of them (a page of 200 here: B has 150), the scan stops at the newest 500.

        party: b,
        oldestCase: oldest,
        today: {
          route: "GET /explorer/cases?party=",
          ms: explorer.ms,
          findsOldest: explorer.value.includes(oldest.toLowerCase()),
        },
        index: {
          source: byIndex.value.source,
          ms: byIndex.ms,
          total: byIndex.value.total,
          findsOldest: byIndex.value.addresses.includes(oldest.toLowerCase()),
        },
      },
      inbox: {
        party: a,
        newestSummons: newest,
        today: {
          route: "GET /agent/{address}/inbox?limit=100",
          ms: inboxToday.ms,
          total: inboxToday.value.total,
          firstPageHoldsNewest: inboxToday.value.cases.some((c) => c.case.toLowerCase() === newest.toLowerCase()),
        },
        index: {
          source: inboxIndex.value.source,
          ms: inboxIndex.ms,
          total: inboxIndex.value.total,
          firstPageHoldsNewest: inboxIndex.value.addresses.includes(newest.toLowerCase()),
        },
      },
      backfill: { seconds: round(first.seconds, 1), ...(await counts(index.store)) },
    };
    say(JSON.stringify(scan));
    const file = process.env.BENCH_INDEX_CHAIN_OUT || join(ROOT, "bench", "results.index.chain.json");
    // Written now and again at the end: a run stopped during the larger build keeps the comparison.
    writeFileSync(
      file,
      `${JSON.stringify({ machine, seconds: Math.round((performance.now() - t0) / 1000), scan }, null, 2)}\n`,
    );
    await docket.close();
    docket = undefined;

    // Item 14b: docket's backfill of `total` cases, from the deployment's block, into a new index.
    const grow = await world.grow(total, world.agentJudges + parties);
    say(`world: ${world.cases.length} cases (+${grow.transactions} transactions in ${grow.seconds.toFixed(0)} s)`);
    const full = await indexedDocket(env, join(dir, "full"), head);
    docket = full.docket;
    const got = await counts(full.docket.ctx.index?.store as Store);
    const backfill = {
      ...got,
      seconds: round(full.seconds, 1),
      eventsPerSecond: Math.round(got.events / full.seconds),
      rssBeforeMiB: full.rssBeforeMiB,
      rssPeakMiB: full.rssPeakMiB,
      rssAfterMiB: full.rssAfterMiB,
      worldBuildSeconds: round(grow.seconds + built.reduce((s, r) => s + r.seconds, 0), 1),
    };
    say(JSON.stringify(backfill));
    const out = { machine, seconds: Math.round((performance.now() - t0) / 1000), scan, backfill };
    writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
    say(`wrote ${file} (${out.seconds} s)`);
  } finally {
    await docket?.close();
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
