/**
 * `npm run bench`: the benchmark of issue #6, on the embedded dev chain, no network. Runs every
 * item, prints a table and writes bench/results.json. See bench/README.md for what each item
 * measures. Timings are reported, never asserted: a missed target is shown, not a failure; the
 * exit code is 1 only if an item could not run.
 *
 * Knobs (environment): BENCH_SECONDS (5), BENCH_ROUNDS (3), BENCH_SHARED_ROUNDS (5), BENCH_SIZES (10,100,1000),
 * BENCH_COLD_REQUESTS (20), BENCH_CONCURRENT (1000), BENCH_MCP_CALLS (500), BENCH_MCP_ROUNDS (5), BENCH_KEYS (100000),
 * BENCH_STARTS (3), BENCH_SOAK_SECONDS (60), BENCH_DRAW_SIZES (10,1000,10000), BENCH_DRAWS (5), BENCH_ARBITRATION_RUNS (5),
 * BENCH_OUT (bench/results.json), BENCH_ONLY (e.g. 2,3: only those items).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENTIC_COMMERCE_COURT } from "../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../src/devnet/devnet.js";
import type { Docket } from "../src/server.js";
import { ROOT, type RpcProxy, soak, spawnDocket, startRpcProxy } from "../test/support/index.js";
import { benchArbitrationGas } from "./items/arbitrationGas.js";
import { type ColdReadsSummary, measureSize, type SizeResult, summarize } from "./items/coldReads.js";
import { benchDrawGas } from "./items/drawGas.js";
import { benchEvidence } from "./items/evidence.js";
import { benchMcp, MCP_TARGET_RATIO } from "./items/mcp.js";
import { benchMemory } from "./items/memory.js";
import { benchSingleFlight } from "./items/singleFlight.js";
import { benchStartup } from "./items/startup.js";
import { benchStrictProvider } from "./items/strictProvider.js";
import { benchThroughput } from "./items/throughput.js";
import { docketEnv, startInProcess } from "./lib/docket.js";
import { machineInfo } from "./lib/machine.js";
import {
  type Failed,
  failed,
  NOT_RUN,
  type Results,
  renderMarkdown,
  type Settings,
  type Target,
} from "./lib/report.js";
import { round } from "./lib/stats.js";
import { World } from "./lib/world.js";

const num = (name: string, dflt: number) => {
  const v = process.env[name];
  return v === undefined || v === "" ? dflt : Number(v);
};

const settings: Settings = {
  connections: 50,
  warmupSeconds: 2,
  durationSeconds: num("BENCH_SECONDS", 5),
  rounds: num("BENCH_ROUNDS", 3),
  sharedRounds: num("BENCH_SHARED_ROUNDS", 5),
  rpcLatencyMs: 20,
  sizes: (process.env.BENCH_SIZES || "10,100,1000").split(",").map(Number),
  coldRequestsPerEndpoint: num("BENCH_COLD_REQUESTS", 20),
  concurrentRequests: num("BENCH_CONCURRENT", 1000),
  mcpCalls: num("BENCH_MCP_CALLS", 500),
  mcpRounds: num("BENCH_MCP_ROUNDS", 5),
  memoryKeys: num("BENCH_KEYS", 100_000),
  startupRuns: num("BENCH_STARTS", 3),
  drawPoolSizes: (process.env.BENCH_DRAW_SIZES || "10,1000,10000").split(",").map(Number),
  drawsPerSize: num("BENCH_DRAWS", 5),
  arbitrationRuns: num("BENCH_ARBITRATION_RUNS", 5),
};
const outFile = process.env.BENCH_OUT || join(ROOT, "bench", "results.json");

const t0 = performance.now();
const log = (line: string) => process.stdout.write(`${line}\n`);
const elapsed = () => `${Math.round((performance.now() - t0) / 1000)} s`;
let crashed = false;
const machine = machineInfo();
if (machine.loadAverage1mAtStart > machine.cores) {
  log(
    `note: load average ${machine.loadAverage1mAtStart} on ${machine.cores} cores: other work shares this machine, timings will be noisy`,
  );
}

/** BENCH_ONLY=2,3 runs only those items (the others are recorded as not run). */
const only = (process.env.BENCH_ONLY || "").split(",").filter(Boolean);
const wanted = (title: string) => only.length === 0 || only.includes(title.split(".")[0] ?? "");

async function item<T>(title: string, fn: () => Promise<T>): Promise<T | Failed> {
  if (!wanted(title)) return { error: NOT_RUN };
  log(`\n[${elapsed()}] ${title}`);
  try {
    return await fn();
  } catch (err) {
    crashed = true;
    const message = err instanceof Error ? err.message : String(err);
    log(`  FAILED: ${message}`);
    return { error: message.split("\n")[0] ?? message };
  }
}

let devnet: Devnet | undefined;
let proxy: RpcProxy | undefined;
let docket: Docket | undefined;
const results: Partial<Results> = { schemaVersion: 1, machine, settings };

try {
  log(`[${elapsed()}] dev chain (deployed, not seeded) and the smallest world`);
  devnet = await startDevnet({ seed: false });
  const dev = devnet;
  const world = await World.on(dev);
  const sizes = [...settings.sizes].sort((a, b) => a - b);
  const firstBuild = await world.grow(sizes[0] ?? 10, sizes[0] ?? 10);
  const sample = world.deliberating[0] ?? (world.cases[0] as string);

  // Items 1 and 4 share one docket, as `npm start` runs it, in its own process.
  if (wanted("1") || wanted("4")) {
    const child = await spawnDocket(docketEnv(dev.nodeUrl, dev.deployment));
    try {
      results.throughput = await item("1. cached GET /cases/{address} under load, beside bare servers", () =>
        benchThroughput(child.url, child.pid, sample, settings, log),
      );
      results.mcp = await item("4. MCP tools/call get_case vs GET /cases/{address}", () =>
        benchMcp(child.url, sample, { calls: settings.mcpCalls, rounds: settings.mcpRounds ?? 5, warmup: 50 }, log),
      );
    } finally {
      await child.stop();
    }
  }

  results.memory = await item(
    `5. memory after ${settings.memoryKeys.toLocaleString("en-US")} distinct cached keys`,
    () => benchMemory(docketEnv(dev.nodeUrl, dev.deployment), sample, settings.memoryKeys, log),
  );

  proxy = await startRpcProxy(dev.nodeUrl);
  proxy.setLatency(settings.rpcLatencyMs);
  docket = await startInProcess(proxy.url, dev.deployment);
  const server = docket;
  const rpcProxy = proxy;
  results.coldReads = await item(
    `2. cold reads through a ${settings.rpcLatencyMs} ms JSON-RPC proxy as the chain grows`,
    async () => {
      const measured: SizeResult[] = [];
      for (const [i, size] of sizes.entries()) {
        const build = i === 0 ? firstBuild : await world.grow(size, size);
        measured.push(await measureSize(server, rpcProxy, world, build, settings.coldRequestsPerEndpoint, log));
      }
      return summarize(settings.rpcLatencyMs, settings.coldRequestsPerEndpoint, measured);
    },
  );

  results.singleFlight = await item(
    `3. ${settings.concurrentRequests.toLocaleString("en-US")} concurrent identical cold requests (${world.cases.length} cases on chain)`,
    () =>
      benchSingleFlight(
        server,
        rpcProxy,
        {
          "GET /cases/{address}": `/cases/${world.cases[world.cases.length - 1]}`,
          "GET /validate/pending": "/validate/pending",
        },
        settings.concurrentRequests,
        log,
      ),
  );
} catch (err) {
  crashed = true;
  log(`bench setup failed: ${err instanceof Error ? err.stack : String(err)}`);
} finally {
  await docket?.close();
  await proxy?.close();
  await devnet?.stop();
}

// Last, with nothing else running: it boots its own dev chain each time.
results.startup = await item(`6. start-up, median of ${settings.startupRuns}`, () =>
  benchStartup(settings.startupRuns, log),
);

// Issue #7's load figure: docket as its own process, mixed reads and writes at 200 connections.
const soakSeconds = num("BENCH_SOAK_SECONDS", 60);
results.soak = await item(`7. soak: ${soakSeconds} s of mixed reads and writes at 200 connections`, async () => {
  const d = await spawnDocket();
  try {
    const r = await soak({ url: d.url, pid: d.pid, durationSeconds: soakSeconds, connections: 200 });
    log(
      `  ${r.requests} requests, ${r.requestsPerSecond} req/s, errors ${r.errors}, non-2xx ${r.non2xx}, RSS ${r.rssMb[0]} -> ${r.rssMb.at(-1)} MiB (growth ${r.rssGrowth}x)`,
    );
    return r;
  } finally {
    await d.stop();
  }
});

// Issue #11's draw cost: gas, counted from receipts, on a chain of its own.
results.drawGas = await item(
  `8. gas of a draw and of a new judge's stake at ${settings.drawPoolSizes.map((x) => x.toLocaleString("en-US")).join(", ")} judges`,
  () => benchDrawGas(settings.drawPoolSizes, settings.drawsPerSize, log),
);
// The same in the dev world's child court (Agentic Commerce, hidden votes): its judges' stakes count
// in the General court too, so a stake writes two trees; draws read the child's tree.
results.drawGasChild = await item(
  `8. gas of a draw and of a new judge's stake in the Agentic Commerce court (below the General court) at ${settings.drawPoolSizes.map((x) => x.toLocaleString("en-US")).join(", ")} judges`,
  () => benchDrawGas(settings.drawPoolSizes, settings.drawsPerSize, log, AGENTIC_COMMERCE_COURT),
);

// Issue #20's evidence: publishing and reading files, and a case's evidence cold and cached.
results.evidence = await item("9. evidence: publish and read 1 MiB and 10 MiB; get_case_evidence with 10 items", () =>
  benchEvidence(settings.rounds, log),
);

// Issue #22: what docket asks of a strict JSON-RPC provider, on a chain of its own.
results.strictProvider = await item(
  "10. JSON-RPC per follower poll and per read, under a strict provider's limits",
  () => benchStrictProvider(log),
);

// Issue #23: the gas of the arbitration path, from receipts, on a chain of its own.
results.arbitrationGas = await item(
  `12. gas of the arbitration path (disputeJob, the settle that rules, executeRuling, finalize) beside a plain case, median of ${settings.arbitrationRuns}`,
  () => benchArbitrationGas(settings.arbitrationRuns ?? 5, log),
);

const missing = (_what: string): Failed => ({ error: NOT_RUN });
const full: Results = {
  schemaVersion: 1,
  machine,
  settings,
  totalSeconds: round((performance.now() - t0) / 1000, 0),
  throughput: results.throughput ?? missing("throughput"),
  coldReads: results.coldReads ?? missing("cold reads"),
  singleFlight: results.singleFlight ?? missing("single flight"),
  mcp: results.mcp ?? missing("mcp"),
  memory: results.memory ?? missing("memory"),
  startup: results.startup ?? missing("start-up"),
  soak: results.soak ?? missing("soak"),
  drawGas: results.drawGas ?? missing("draw gas"),
  drawGasChild: results.drawGasChild ?? missing("draw gas, child court"),
  evidence: results.evidence ?? missing("evidence"),
  strictProvider: results.strictProvider ?? missing("strict provider"),
  arbitrationGas: results.arbitrationGas ?? missing("arbitration gas"),
  targets: [],
};
full.targets = targets(full);
writeFileSync(outFile, `${JSON.stringify(full, null, 2)}\n`);
log(`\n${renderMarkdown(full)}\n\nwrote ${outFile}`);
process.exit(crashed ? 1 : 0);

/** What the targets table says of an item that did not produce figures. */
function why(x: Failed): string {
  return x.error === NOT_RUN ? NOT_RUN : `failed: ${x.error}`;
}

function targets(r: Results): Target[] {
  const out: Target[] = [];
  const t = r.throughput;
  out.push({
    item: "1. cached case read under load",
    target: "docket >= 0.8x bare Express (req/s, on a shared core)",
    measured: failed(t)
      ? why(t)
      : `${t.sharedCore.ratioDocketToExpress}x on a shared core (rounds ${t.sharedCore.ratioDocketToExpressRounds.join(", ")}); one at a time ${t.ratioDocketToExpress}x (${t.docket.requestsPerSecond} vs ${t.express.requestsPerSecond} req/s)`,
    met: failed(t) ? false : t.pass,
  });
  const c = r.coldReads;
  if (failed(c)) {
    out.push({
      item: "2. cold reads",
      target: "section 7 budget, flat, near one round trip",
      measured: why(c),
      met: false,
    });
  } else {
    out.push(...coldTargets(c));
  }
  const s = r.singleFlight;
  if (failed(s)) out.push({ item: "3. concurrent cold reads", target: "as for one", measured: why(s), met: false });
  else {
    for (const [name, f] of Object.entries(s)) {
      out.push({
        item: `3. ${f.concurrent} concurrent cold ${name}`,
        target: `JSON-RPC as for one (${f.rpcOne})`,
        measured: `${f.rpcAll}`,
        met: f.pass,
      });
    }
  }
  const p = r.mcp;
  out.push({
    item: "4. MCP overhead (cached get_case)",
    target: `tools/call on the wire within ${MCP_TARGET_RATIO}x of HTTP (mean latency, calls alternating; median round)`,
    measured: failed(p)
      ? why(p)
      : "skipped" in p
        ? `skipped: ${p.skipped}`
        : `${p.ratioMcpFetchToHttpLatencyMedianRound !== undefined ? `${p.ratioMcpFetchToHttpLatencyMedianRound}x HTTP mean latency on the wire, median of ${p.rounds} rounds (${p.ratioRounds?.join(", ")}); all calls together ${p.ratioMcpFetchToHttpLatency}x` : `${p.ratioMcpFetchToHttpLatency}x HTTP mean latency on the wire`} (${p.mcpFetch?.meanMs} vs ${p.http.meanMs} ms); ${p.ratioMcpToHttpLatency}x through the SDK client (${p.mcp.meanMs} ms)${p.floor && p.overMs ? `; a bare server's POST is ${p.floor.ratioPostToGet}x its GET with fetch, and docket's own time over that floor is ${p.overMs.mcpFetch} ms for MCP, ${p.overMs.http} ms for GET (${p.overMs.ratio}x)` : ""}${p.nodeClient ? `; through node:http's client (its own POST ${p.nodeClient.floorRatioPostToGet}x its GET) ${p.nodeClient.ratioMedianRound}x, median round` : ""}`,
    met: failed(p) ? false : "skipped" in p ? null : p.pass,
  });
  const m = r.memory;
  out.push({
    item: `5. memory after ${failed(m) ? "?" : m.keys.toLocaleString("en-US")} keys`,
    target: "store bounded by CACHE_MAX_ENTRIES",
    measured: failed(m)
      ? why(m)
      : `${m.storeEntriesAfter} entries (bound ${m.cacheMaxEntries}); RSS ${m.rssBeforeMiB} -> ${m.rssAfterMiB} MiB`,
    met: failed(m) ? false : m.pass,
  });
  const st = r.startup;
  out.push({
    item: "6. start-up to healthy",
    target: "< 10 s (median)",
    measured: failed(st) ? why(st) : `${(st.medianHealthyMs / 1000).toFixed(2)} s`,
    met: failed(st) ? false : st.pass,
  });
  const so = r.soak;
  out.push({
    item: "7. soak, mixed reads and writes, 200 connections",
    target: "zero errors, RSS stable",
    measured: failed(so)
      ? why(so)
      : `${so.durationSeconds} s, ${so.requests} requests (${so.requestsPerSecond} req/s), ${so.errors + so.timeouts} errors, ${so.non2xx} non-2xx; RSS max ${Math.max(...so.rssMb)} MiB, growth ${so.rssGrowth}x`,
    met: failed(so) ? false : so.errors + so.timeouts + so.non2xx === 0 && so.rssGrowth < 1.5,
  });
  out.push(drawTarget(r.drawGas));
  for (const d of [r.drawGas, r.drawGasChild]) out.push(...klerosTargets(d));
  out.push(evidenceTarget(r.evidence));
  const sp = r.strictProvider;
  out.push({
    item: "10. strict provider (batches <= 10, eth_getLogs <= 500 blocks)",
    target: "no request refused for its batch or range; a quiet poll one round trip",
    measured:
      sp === undefined || failed(sp)
        ? sp === undefined
          ? NOT_RUN
          : why(sp)
        : `largest batch ${sp.maxBatchSeen}, refused ${sp.refused.batch + sp.refused.logs}; poll ${sp.poll.idle.rpc} JSON-RPC in ${sp.poll.idle.http} round trip, 2,000 blocks caught up in ${sp.poll.catchUp2000Blocks.http}`,
    met: sp === undefined || failed(sp) ? false : sp.pass && sp.poll.idle.http === 1,
  });
  return out;
}

function evidenceTarget(e: Results["evidence"]): Target {
  const item = "9. get_case_evidence, 10 items";
  const target = "one JSON-RPC request cold, none cached; each CID's content loaded once";
  if (!e) return { item, target, measured: NOT_RUN, met: null };
  if (failed(e)) return { item, target, measured: why(e), met: false };
  const c = e.caseEvidence;
  const files = e.sizes.map(
    (s) => `${s.bytes / 1048576} MiB: publish ${s.publishMBps}, read ${s.readMBps}, sha2-256 ${s.hashMBps} MB/s`,
  );
  return {
    item,
    target,
    measured: `cold ${c.cold.rpc} JSON-RPC, ${c.cold.contentLoads} loads for ${c.cids} CIDs (${c.cold.ms} ms); cached ${c.cached.rpc} (${c.cached.ms} ms); invalidated ${c.chainAgain.rpc} JSON-RPC, ${c.chainAgain.contentLoads} loads (${c.chainAgain.ms} ms). ${files.join("; ")}`,
    met: e.pass,
  };
}

/**
 * Issue #21 item 6: Kleros v2's own figures on the same anvil, a 3-juror draw at 10 / 1,000 /
 * 10,000 staked jurors and a new juror's stake (ERC-20 transfer included); ours must not exceed the
 * draw figure at each size, nor 1.2x the stake figure (taken at its upper end, 260k).
 */
function klerosTargets(d: Results["drawGas"]): Target[] {
  const KLEROS_DRAW: Record<number, number> = { 10: 545_000, 1000: 655_000, 10000: 700_000 };
  const KLEROS_STAKE = 260_000;
  if (d === undefined || failed(d)) return [];
  const where = d.court === undefined || d.court === 1 ? "General court" : `court ${d.court} (depth ${d.courtDepth})`;
  const sized = d.sizes.filter((s) => KLEROS_DRAW[s.judges] !== undefined);
  return [
    {
      item: `8. ${where}: 3-judge draw vs Kleros v2`,
      target: sized.map((s) => `<= ${(KLEROS_DRAW[s.judges] ?? 0).toLocaleString("en-US")}`).join(" / "),
      measured: sized.map((s) => s.draw.gasUsedMedian.toLocaleString("en-US")).join(" / "),
      met: sized.length > 0 && sized.every((s) => s.draw.gasUsedMedian <= (KLEROS_DRAW[s.judges] ?? 0)),
    },
    {
      item: `8. ${where}: a new judge's stake vs Kleros v2`,
      target: `<= 1.2 x ${KLEROS_STAKE.toLocaleString("en-US")} = ${(1.2 * KLEROS_STAKE).toLocaleString("en-US")}`,
      measured: d.sizes.map((s) => s.stakeNewJudge.gasUsedMedian.toLocaleString("en-US")).join(" / "),
      met: d.sizes.every((s) => s.stakeNewJudge.gasUsedMedian <= 1.2 * KLEROS_STAKE),
    },
  ];
}

function drawTarget(d: Results["drawGas"]): Target {
  const item = "8. gas of a 3-judge draw as the judge pool grows";
  if (d === undefined || failed(d)) {
    return { item, target: "O(log n)", measured: d === undefined ? NOT_RUN : why(d), met: false };
  }
  const lo = d.sizes[0];
  const hi = d.sizes[d.sizes.length - 1];
  const judges = (x: number) => x.toLocaleString("en-US");
  return {
    item,
    target: `O(log n): at ${judges(hi?.judges ?? 0)} judges within log2(${judges(hi?.judges ?? 0)}) / log2(${judges(lo?.judges ?? 0)}) = ${d.logRatioLargestToSmallest}x of at ${judges(lo?.judges ?? 0)} (O(n): ${judges(d.poolRatioLargestToSmallest)}x)`,
    measured: `${d.sizes.map((s) => s.draw.gasUsedMedian.toLocaleString("en-US")).join(" / ")} gas (${d.ratioLargestToSmallest.draw}x); 5-judge appeal draw ${d.ratioLargestToSmallest.appealDraw}x`,
    met:
      d.ratioLargestToSmallest.draw <= d.logRatioLargestToSmallest &&
      d.ratioLargestToSmallest.appealDraw <= d.logRatioLargestToSmallest,
  };
}

function coldTargets(c: ColdReadsSummary): Target[] {
  const out: Target[] = [];
  const sizes = c.sizes;
  const names = Object.keys(sizes[0]?.endpoints ?? {});
  for (const name of names) {
    const rpcs = sizes.map((s) => s.endpoints[name]?.rpcMax ?? Number.NaN);
    const budget = sizes[0]?.endpoints[name]?.budget ?? 0;
    const failedAt = sizes.filter((s) => (s.endpoints[name]?.errors ?? 0) > 0);
    out.push({
      item: `2. cold ${name}: JSON-RPC`,
      target: `<= ${budget} at every size`,
      measured: `${rpcs.join(" / ")}${failedAt.map((s) => `; FAILED at ${s.cases} cases: ${s.endpoints[name]?.firstError}`).join("")}`,
      met: rpcs.every((x) => x <= budget) && failedAt.length === 0,
    });
  }
  for (const name of names) {
    const p50 = sizes.map((s) => s.endpoints[name]?.p50Ms ?? Number.NaN);
    out.push({
      item: `2. cold ${name}: p50 as the chain grows`,
      target: `largest size within 1.5x of smallest`,
      measured: `${p50.map((x) => `${x} ms`).join(" / ")} (${c.flatness[name]}x)`,
      met: (c.flatness[name] ?? Number.POSITIVE_INFINITY) <= 1.5,
    });
  }
  out.push({
    item: "2. cold case read vs one RPC round trip",
    target: "within 1.5x at every size",
    measured: `${c.caseReadOverRoundTrip.map((x) => `${x}x`).join(" / ")} (round trip p50 ${sizes.map((s) => `${s.bareRoundTripP50Ms}`).join(" / ")} ms)`,
    met: c.caseReadOverRoundTrip.every((x) => x <= 1.5),
  });
  const largest = sizes[sizes.length - 1];
  if (largest) {
    const pending = largest.gas.views["getDeliberatingCases(0,100)"];
    const oldScan = largest.gas.views["getOpenCases(Deliberating)"];
    out.push({
      item: `2. eth_call gas of /validate/pending's view at ${largest.openCases} open cases`,
      target: `under the ${largest.gas.blockGasLimit.toLocaleString("en-US")} default call gas cap, whatever the size`,
      measured: `${pending?.gasUsed.toLocaleString("en-US")} gas for a page of 100 Deliberating cases (the old scan of every open case: ${oldScan?.gasUsed.toLocaleString("en-US")}, capped at ~${c.pendingView.openCasesAtGasCap.toLocaleString("en-US")} open cases)`,
      met: pending?.defaultCallOk ?? false,
    });
    const failures = sizes.flatMap((s) =>
      s.gas.failures.map((f) => `at ${s.openCases} open cases / ${s.agents} agents: ${f}`),
    );
    out.push({
      item: "2. views that fail a plain eth_call (gas)",
      target: "none that docket uses",
      measured: failures.length === 0 ? "none" : failures.join("; "),
      met: sizes.every((s) =>
        Object.values(s.gas.views).every((v) => v.defaultCallOk || v.usedBy.startsWith("not used")),
      ),
    });
  }
  return out;
}
