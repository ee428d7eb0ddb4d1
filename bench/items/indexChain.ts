/**
 * Item 14 (issue #34, "Measured" and "Done when"), on the dev chain: the index beside the scans docket
 * answered with before it, at 2,000 cases; the issue's "Done when" at 5,000 cases (a party's and a
 * judge's oldest and newest case in a filtered list, what is due soonest on their inbox's first page,
 * counts over everything); then docket's own backfill (the follower + the writer) of 10,000 cases.
 *
 * The world (bench/lib/world.ts) is built so that each comparison has an answer to find: first 150
 * cases between two parties only (A and B), then cases between 2,000 other parties up to 2,000 in
 * all, the newest filed against A and still Summoned. So B's cases are the 150 oldest (the explorer's
 * filtered list searches only the newest 500: src/web/pages.ts SCAN_MAX), and A is in 151 open cases,
 * the newest of them a summons (the inbox reads getInvolvedCases, a page of 100 in the factory's
 * order).
 *
 * Run on its own: `node --expose-gc --import tsx bench/items/indexChain.ts` (BENCH_INDEX_CASES
 * [10000], BENCH_INDEX_SCAN_CASES [2000], BENCH_INDEX_DONE_CASES [5000], BENCH_INDEX_CHAIN_OUT
 * [bench/results.index.chain.json]).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address, PublicClient } from "viem";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import { loadConfig } from "../../src/config.js";
import { startDevnet } from "../../src/devnet/devnet.js";
import { type Docket, startServer } from "../../src/server.js";
import type { Store } from "../../src/store/store.js";
import { ROOT } from "../../test/support/index.js";
import { docketEnv } from "../lib/docket.js";
import { machineInfo } from "../lib/machine.js";
import { round } from "../lib/stats.js";
import { involvedFirstPage, partyScan } from "../lib/todayScans.js";
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

interface Page {
  total: number;
  items: { address: string }[];
  nextCursor: string | null;
}
interface InboxPage {
  total: number;
  nextOffset: number | null;
  requiredNow: number;
  actionsNow: number;
  cases: { case: string; actions: { required: boolean; deadline: number | null }[] }[];
}
const getJson = async <T>(url: string): Promise<T> => {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
};
const timed = async <T>(fn: () => Promise<T>) => {
  const t = performance.now();
  const value = await fn();
  return { ms: round(performance.now() - t, 1), value };
};

/** Every page of a filtered GET /cases, by its cursor: the cases newest first, the total, the first page's time. */
async function walkCases(url: string, filter: string, limit = 100) {
  const addresses: string[] = [];
  let total = -1;
  let cursor: string | null = null;
  let firstPageMs = 0;
  let pages = 0;
  do {
    const page: { ms: number; value: Page } = await timed(() =>
      getJson<Page>(`${url}/cases?${filter}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`),
    );
    if (pages++ === 0) firstPageMs = page.ms;
    total = page.value.total;
    addresses.push(...page.value.items.map((i) => i.address.toLowerCase()));
    cursor = page.value.nextCursor;
  } while (cursor);
  return { total, addresses, pages, firstPageMs };
}

/** Every page of an inbox, by nextOffset. */
async function walkInbox(url: string, who: Address, limit = 20) {
  const pages: InboxPage[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page: InboxPage = await getJson<InboxPage>(`${url}/agent/${who}/inbox?limit=${limit}&offset=${offset}`);
    pages.push(page);
    offset = page.nextOffset;
  }
  return pages;
}

/**
 * Issue #34's "Done when" at `n` cases: a party and a judge see their oldest and their newest case in
 * a filtered list (walked by cursor), and what is due soonest on the first page of their inbox, with
 * counts over everything due (the pages' required actions summed, the chain's own count of their
 * open cases). The expectations come from the world the bench built, not from the index.
 */
async function doneWhen(url: string, world: World, reader: PublicClient, factory: Address, party: Address) {
  // Filing order as the factory lists it (a round's filings are mined in the order the node takes
  // them, not the order the world sent them).
  const order = new Map<string, number>();
  for (let offset = 0n; ; offset += 500n) {
    const [total, page] = await reader.readContract({
      address: factory,
      abi: caseFactoryAbi,
      functionName: "getCases",
      args: [offset, 500n],
    });
    for (const c of page) order.set(c.toLowerCase(), order.size);
    if (offset + 500n >= total) break;
  }
  const lowered = (xs: readonly string[]) =>
    xs.map((x) => x.toLowerCase()).sort((x, y) => (order.get(x) ?? -1) - (order.get(y) ?? -1));
  const ofParty = lowered(
    world.cases.filter((c) => {
      const p = world.partiesOf(c);
      return p.plaintiff === party || p.defendant === party;
    }),
  );
  // The agent judge seated on the most panels.
  const seats = new Map<Address, number>();
  for (const c of world.cases) for (const j of world.panelOf(c) ?? []) seats.set(j, (seats.get(j) ?? 0) + 1);
  const judge = [...seats.entries()].sort((x, y) => y[1] - x[1])[0]?.[0];
  if (!judge) throw new Error("no panel was drawn");
  const ofJudge = lowered(world.cases.filter((c) => world.panelOf(c)?.includes(judge)));
  const check = async (who: Address, filter: string, want: string[]) => {
    const got = await walkCases(url, filter);
    const oldest = want[0] as string;
    const newest = want.at(-1) as string;
    const inbox = await timed(() => walkInbox(url, who));
    const pages = inbox.value;
    const required = pages.flatMap((p) => p.cases.flatMap((c) => c.actions.filter((a) => a.required)));
    const deadlines = required.map((a) => a.deadline ?? Number.POSITIVE_INFINITY);
    const firstRequired = pages[0]?.cases[0]?.actions.find((a) => a.required);
    const [chainOpen] = await reader.readContract({
      address: factory,
      abi: caseFactoryAbi,
      functionName: "getInvolvedCases",
      args: [who, 0n, 1n],
    });
    return {
      address: who,
      list: {
        filter,
        total: got.total,
        expected: want.length,
        pages: got.pages,
        firstPageMs: got.firstPageMs,
        newestFirst: got.addresses[0] === newest,
        oldestLast: got.addresses.at(-1) === oldest,
        holdsOldestAndNewest: got.addresses.includes(oldest) && got.addresses.includes(newest),
      },
      inbox: {
        firstPageMs: inbox.ms,
        pages: pages.length,
        total: pages[0]?.total,
        chainOpenCases: Number(chainOpen),
        requiredNow: pages[0]?.requiredNow,
        requiredOverAllPages: required.length,
        soonestDeadlineFirst:
          firstRequired === undefined
            ? required.length === 0
            : (firstRequired.deadline ?? Number.POSITIVE_INFINITY) === Math.min(...deadlines),
      },
    };
  };
  return {
    cases: world.cases.length,
    party: await check(party, `party=${party}`, ofParty),
    judge: await check(judge, `judge=${judge}`, ofJudge),
  };
}

async function main() {
  const total = num("BENCH_INDEX_CASES", 10_000);
  const scanAt = num("BENCH_INDEX_SCAN_CASES", 2_000);
  const doneAt = num("BENCH_INDEX_DONE_CASES", 5_000);
  const machine = machineInfo();
  const t0 = performance.now();
  const devnet = await startDevnet({ seed: false });
  const dir = mkdtempSync(join(tmpdir(), "docket-bench-chain-"));
  let docket: Docket | undefined;
  const file = process.env.BENCH_INDEX_CHAIN_OUT || join(ROOT, "bench", "results.index.chain.json");
  const out: Record<string, unknown> = { machine };
  // Written after each part: a run stopped during a larger build keeps what it measured.
  const save = () => {
    out.seconds = Math.round((performance.now() - t0) / 1000);
    writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  };
  try {
    const world = await World.on(devnet);
    const env = docketEnv(devnet.nodeUrl, devnet.deployment);
    const head = () => devnet.reader.getBlockNumber();
    const factory = devnet.deployment.factory;
    // 150 cases between A and B only (the first two parties), then 2,000 parties.
    const parties = 2_000;
    const built = [await world.grow(150, world.agentJudges + 2)];
    built.push(await world.grow(scanAt, world.agentJudges + parties));
    const a = world.agents[world.agentJudges] as Address;
    const b = world.agents[world.agentJudges + 1] as Address;
    const oldest = (world.cases[0] as Address).toLowerCase();
    const newest = (world.cases[scanAt - 1] as Address).toLowerCase();
    say(`world: ${world.cases.length} cases (${built.reduce((s, r) => s + r.seconds, 0).toFixed(0)} s)`);

    // Item 14a: today's scans against the index, at `scanAt` cases.
    const first = await indexedDocket(env, join(dir, "scan"), head);
    docket = first.docket;
    const url = docket.url;
    const explorer = await timed(() => partyScan(url, b));
    const byIndex = await timed(() => walkCases(url, `party=${b}`));
    const inboxToday = await timed(() => involvedFirstPage(devnet.reader, factory, a));
    const inboxIndex = await timed(() => getJson<InboxPage>(`${url}/agent/${a}/inbox?limit=100`));
    const lower = (xs: { case: string }[]) => xs.map((x) => x.case.toLowerCase());
    out.scan = {
      cases: scanAt,
      partyFilter: {
        // The index pages through all of them (by cursor, 100 a page: B has 150), the scan stops at the newest 500.
        party: b,
        oldestCase: oldest,
        today: {
          how: "the explorer's filter before the index: the newest 500 cases read and filtered (bench/lib/todayScans.ts)",
          ms: explorer.ms,
          total: explorer.value.total,
          findsOldest: explorer.value.addresses.map((x) => x.toLowerCase()).includes(oldest),
        },
        index: {
          route: "GET /cases?party=&limit=100, every page by cursor",
          ms: byIndex.ms,
          firstPageMs: byIndex.value.firstPageMs,
          total: byIndex.value.total,
          findsOldest: byIndex.value.addresses.includes(oldest),
        },
      },
      inbox: {
        party: a,
        newestSummons: newest,
        today: {
          how: "the inbox's first page before the index: the factory's getInvolvedCases(who, 0, 100)",
          ms: inboxToday.ms,
          total: inboxToday.value.total,
          firstPageHoldsNewest: inboxToday.value.addresses.map((x) => x.toLowerCase()).includes(newest),
        },
        index: {
          route: "GET /agent/{address}/inbox?limit=100",
          ms: inboxIndex.ms,
          total: inboxIndex.value.total,
          firstPageHoldsNewest: lower(inboxIndex.value.cases).includes(newest),
        },
      },
      backfill: { seconds: round(first.seconds, 1), ...(await counts(first.docket.ctx.index?.store as Store)) },
    };
    say(JSON.stringify(out.scan));
    save();
    await docket.close();
    docket = undefined;

    // Issue #34's "Done when", at `doneAt` cases, on a docket that indexed them from the start.
    if (doneAt > world.cases.length) await world.grow(doneAt, world.agentJudges + parties);
    const done = await indexedDocket(env, join(dir, "done"), head);
    docket = done.docket;
    out.doneWhen = await doneWhen(docket.url, world, devnet.reader, factory, b);
    say(JSON.stringify(out.doneWhen));
    save();
    await docket.close();
    docket = undefined;

    // Item 14b: docket's backfill of `total` cases, from the deployment's block, into a new index.
    const grow = await world.grow(total, world.agentJudges + parties);
    say(`world: ${world.cases.length} cases (+${grow.transactions} transactions in ${grow.seconds.toFixed(0)} s)`);
    const full = await indexedDocket(env, join(dir, "full"), head);
    docket = full.docket;
    const got = await counts(full.docket.ctx.index?.store as Store);
    out.backfill = {
      ...got,
      seconds: round(full.seconds, 1),
      eventsPerSecond: Math.round(got.events / full.seconds),
      rssBeforeMiB: full.rssBeforeMiB,
      rssPeakMiB: full.rssPeakMiB,
      rssAfterMiB: full.rssAfterMiB,
    };
    say(JSON.stringify(out.backfill));
    save();
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
