import type { SoakResult } from "../../test/support/index.js";
import type { ArbitrationGasResult } from "../items/arbitrationGas.js";
import type { ColdReadsSummary, ViewGas } from "../items/coldReads.js";
import type { DrawGasResult, DrawGasSize } from "../items/drawGas.js";
import type { EvidenceBenchResult } from "../items/evidence.js";
import type { McpResult, SequentialFigures } from "../items/mcp.js";
import type { MemoryResult } from "../items/memory.js";
import type { SingleFlightFigures } from "../items/singleFlight.js";
import type { StartupResult } from "../items/startup.js";
import type { StrictProviderResult } from "../items/strictProvider.js";
import type { ThroughputResult } from "../items/throughput.js";
import type { MachineInfo } from "./machine.js";

/** bench/results.json. Keys are stable; numbers carry their unit in the key name. */
export interface Results {
  schemaVersion: 1;
  machine: MachineInfo;
  settings: Settings;
  totalSeconds: number;
  throughput: ThroughputResult | Failed;
  coldReads: ColdReadsSummary | Failed;
  singleFlight: Record<string, SingleFlightFigures> | Failed;
  mcp: McpResult | Failed;
  memory: MemoryResult | Failed;
  startup: StartupResult | Failed;
  soak: SoakResult | Failed;
  /** Absent from results written before item 8 existed. */
  drawGas?: DrawGasResult | Failed;
  /** The same in a court below the General court (absent before courts existed). */
  drawGasChild?: DrawGasResult | Failed;
  /** Absent from results written before item 9 existed. */
  evidence?: EvidenceBenchResult | Failed;
  /** Absent from results written before item 10 existed. */
  strictProvider?: StrictProviderResult | Failed;
  /** Absent from results written before item 12 existed. */
  arbitrationGas?: ArbitrationGasResult | Failed;
  targets: Target[];
}

export interface Settings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  rounds: number;
  sharedRounds: number;
  rpcLatencyMs: number;
  sizes: number[];
  coldRequestsPerEndpoint: number;
  concurrentRequests: number;
  mcpCalls: number;
  /** Item 4's rounds (absent before they existed: one round). */
  mcpRounds?: number;
  memoryKeys: number;
  startupRuns: number;
  drawPoolSizes: number[];
  drawsPerSize: number;
  /** Repeats of item 12 (absent before it existed). */
  arbitrationRuns?: number;
}

export interface Failed {
  error: string;
}

export interface Target {
  item: string;
  target: string;
  measured: string;
  met: boolean | null;
}

/** The error of an item left out (BENCH_ONLY) or never reached. */
export const NOT_RUN = "not run";

function failedText(x: Failed): string {
  return x.error === NOT_RUN ? "not run" : `failed: ${x.error}`;
}

export function failed(x: unknown): x is Failed {
  return typeof x === "object" && x !== null && "error" in x;
}

const n = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined || Number.isNaN(v)
    ? "-"
    : v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A markdown table with padded columns: readable in a terminal, and as biome formats markdown. */
function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows].map((r) => r.map(String));
  const widths = head.map((_, i) => Math.max(3, ...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => `| ${widths.map((w, i) => (r[i] ?? "").padEnd(w)).join(" | ")} |`;
  const [first, ...rest] = cells;
  return [line(first ?? []), line(widths.map((w) => "-".repeat(w))), ...rest.map(line)].join("\n");
}

/** The whole report as markdown (readable in a terminal too). */
export function renderMarkdown(r: Results): string {
  const out: string[] = [];
  const m = r.machine;
  out.push(
    `Machine: ${m.cpuModel}, ${m.cores} cores, ${m.totalMemoryGiB} GiB, Node ${m.nodeVersion}, ${m.platform}; ${m.date}; load average at start ${m.loadAverage1mAtStart ?? "?"} (bench took ${n(r.totalSeconds)} s)`,
  );

  out.push("", "**Targets**", "");
  out.push(
    table(
      ["item", "target", "measured", "met"],
      r.targets
        .filter((t) => t.measured !== NOT_RUN)
        .map((t) => [t.item, t.target, t.measured, t.met === null ? "n/a" : t.met ? "yes" : "**no**"]),
    ),
  );

  const t = r.throughput;
  out.push("", `**1. Cached GET /cases/{address}, ${r.settings.connections} connections (autocannon)**`, "");
  if (failed(t)) out.push(failedText(t));
  else {
    const shared = t.sharedCore;
    const row = (name: string, f: ThroughputResult["docket"], sharedRps?: number, sharedRatio?: number) => [
      name,
      n(f.requestsPerSecond),
      n(f.latencyP50Ms, 1),
      n(f.latencyP99Ms, 1),
      n(f.requestsPerSecond / t.express.requestsPerSecond, 2),
      sharedRps === undefined ? "(not run)" : n(sharedRps),
      sharedRatio === undefined ? "" : n(sharedRatio, 2),
    ];
    out.push(
      table(
        [
          "server (same JSON bytes)",
          "alone: req/s",
          "p50 ms",
          "p99 ms",
          "x bare Express",
          "shared core: req/s",
          "x bare Express",
        ],
        [
          row("docket", t.docket, shared.requestsPerSecond.docket, shared.ratioDocketToExpress),
          row("bare Express", t.express, shared.requestsPerSecond.express, 1),
          row("bare node:http", t.nodeHttp),
          row(
            "Express + docket's helmet/CORS only",
            t.expressSecurity,
            shared.requestsPerSecond.expressSecurity,
            shared.ratioExpressSecurityToExpress,
          ),
        ],
      ),
    );
    out.push(
      "",
      `Alone: one server loaded at a time, ${t.rounds} rounds of ${t.durationSeconds} s each after ${t.warmupSeconds} s warm-up (means). ` +
        `Shared core: ${shared.pinned ? `docket and the two Express servers pinned to CPU ${shared.cpu}` : "docket and the two Express servers (not pinned: no taskset)"} and loaded at the same moment, ${shared.rounds} rounds of ${shared.durationSeconds} s (medians); ` +
        `docket / bare Express per round: ${shared.ratioDocketToExpressRounds.map((x) => n(x, 2)).join(", ")}. ` +
        `Body ${t.bodyBytes} bytes; docket errors ${t.docket.errors}, non-2xx ${t.docket.non2xx}.`,
    );
  }

  const c = r.coldReads;
  out.push(
    "",
    `**2. Cold reads through a ${r.settings.rpcLatencyMs} ms-per-request JSON-RPC proxy (p50 ms; JSON-RPC requests)**`,
    "",
  );
  if (failed(c)) out.push(failedText(c));
  else {
    const sizes = c.sizes;
    const head = [
      "endpoint",
      ...sizes.map((s) => `p50 @${n(s.cases)}`),
      "largest / smallest",
      ...sizes.map((s) => `RPC @${n(s.cases)}`),
      "budget",
    ];
    const rows: (string | number)[][] = Object.keys(sizes[0]?.endpoints ?? {}).map((name) => [
      name,
      ...sizes.map((s) =>
        s.endpoints[name]?.errors ? `FAILED (${s.endpoints[name]?.errors})` : n(s.endpoints[name]?.p50Ms, 1),
      ),
      n(c.flatness[name], 2),
      ...sizes.map((s) => n(s.endpoints[name]?.rpcMax)),
      `<= ${sizes[0]?.endpoints[name]?.budget}`,
    ]);
    rows.push([
      "bare JSON-RPC round trip (eth_call)",
      ...sizes.map((s) => n(s.bareRoundTripP50Ms, 1)),
      "",
      ...sizes.map(() => "1"),
      "",
    ]);
    out.push(table(head, rows));
    out.push(
      "",
      `Cases and agents on chain: ${sizes.map((s) => `${n(s.cases)}/${n(s.agents)} (${n(s.deliberating)} Deliberating, built in ${n(s.buildSeconds, 1)} s)`).join(", ")}. ${c.requestsPerEndpoint} cold requests per endpoint and size. Cold case read / bare round trip: ${c.caseReadOverRoundTrip.map((x) => n(x, 2)).join(", ")}.`,
    );
    out.push(
      "",
      `Gas of the views behind the aggregate reads (eth_estimateGas; "FAILS": a plain eth_call runs out of gas at the block gas limit, ${n(sizes[0]?.gas.blockGasLimit)}):`,
      "",
    );
    const views = Object.keys(sizes[0]?.gas.views ?? {});
    out.push(
      table(
        ["view", "used by", ...sizes.map((s) => `gas @${n(s.openCases)} open / ${n(s.agents)} agents`)],
        views.map((v) => [
          v,
          sizes[0]?.gas.views[v]?.usedBy ?? "",
          ...sizes.map((s) => {
            const g = s.gas.views[v];
            return g ? `${n(g.gasUsed)}${g.defaultCallOk ? "" : " FAILS"}` : "-";
          }),
        ]),
      ),
    );
    out.push(
      "",
      `getOpenCases(Deliberating) costs ~${n(c.pendingView.gasPerOpenCase)} gas per open case at this mix (1 in 10 Deliberating): it reaches the cap at ~${n(c.pendingView.openCasesAtGasCap)} open cases. Split: ~${n(c.pendingView.gasPerOpenCaseStateRead)} gas to read each open case's state, ~${n(c.pendingView.gasPerSummary)} more per Deliberating summary, so even with none Deliberating it fails at ~${n(c.pendingView.openCasesAtGasCapNoneDeliberating)} open cases. At the node it takes ${sizes.map((s) => `${n(s.gas.pendingViewNodeMs, 1)}`).join(" / ")} ms, ${sizes.map((s) => `${n(s.gas.pendingViewDecodedMs, 1)}`).join(" / ")} ms with viem's decoding (no proxy).`,
    );
  }

  const s = r.singleFlight;
  out.push("", `**3. ${n(r.settings.concurrentRequests)} concurrent identical cold requests**`, "");
  if (failed(s)) out.push(failedText(s));
  else {
    out.push(
      table(
        [
          "request",
          "JSON-RPC for one",
          `JSON-RPC for ${n(r.settings.concurrentRequests)}`,
          "MISS / HIT",
          "200s",
          "wall ms",
        ],
        Object.entries(s).map(([name, f]) => [
          name,
          f.rpcOne,
          f.rpcAll,
          `${f.xCacheMiss} / ${f.xCacheHit}`,
          f.ok200,
          n(f.wallMs),
        ]),
      ),
    );
  }

  const p = r.mcp;
  out.push(
    "",
    "**4. MCP `tools/call get_case` (Streamable HTTP, SDK client) vs GET /cases/{address}, cached, one call in flight, alternating**",
    "",
  );
  if (failed(p)) out.push(failedText(p));
  else if ("skipped" in p) out.push(`skipped: ${p.skipped}`);
  else {
    // Each row: a kind of call and its figures; the plain-fetch, floor and node:http rows when the run has them.
    const rows: [string, SequentialFigures | undefined][] = [
      ["HTTP GET", p.http],
      ["MCP tools/call", p.mcp],
      ["MCP tools/call, plain fetch", p.mcpFetch],
      ["bare node:http GET (floor)", p.floor?.get],
      ["bare node:http POST (floor)", p.floor?.post],
      ["HTTP GET, node:http client", p.nodeClient?.http],
      ["MCP tools/call, node:http client", p.nodeClient?.mcp],
      ["bare GET (floor), node:http client", p.nodeClient?.floorGet],
      ["bare POST (floor), node:http client", p.nodeClient?.floorPost],
    ];
    out.push(
      table(
        ["front end", "calls", "mean ms", "p50 ms", "p99 ms", "calls/s"],
        rows.flatMap(([name, f]) =>
          f ? [[name, f.calls, n(f.meanMs, 2), n(f.p50Ms, 2), n(f.p99Ms, 2), n(f.callsPerSecond)]] : [],
        ),
      ),
    );
    out.push(
      "",
      `MCP / HTTP mean latency: ${n(p.ratioMcpToHttpLatency, 2)}x (by plain fetch: ${p.ratioMcpFetchToHttpLatency === undefined ? "n/a" : `${n(p.ratioMcpFetchToHttpLatency, 2)}x`}); throughput ratio ${n(p.ratioMcpToHttpThroughput, 2)}; same body: ${p.sameBody}.`,
    );
    if (p.ratioRounds && p.ratioMcpFetchToHttpLatencyMedianRound !== undefined) {
      out.push(
        "",
        `By plain fetch, round by round (${p.rounds} rounds of ${n((p.calls / (p.rounds ?? 1)) as number)} calls of each kind, alternating): ${p.ratioRounds.map((r) => `${n(r, 2)}x`).join(", ")}; median ${n(p.ratioMcpFetchToHttpLatencyMedianRound, 2)}x (what the target is judged on).`,
      );
    }
    if (p.floor && p.overMs) {
      out.push(
        "",
        `The floor: a bare server's POST costs ${n(p.floor.ratioPostToGet, 2)}x its GET with fetch, before any server work. docket's own time over that floor: ${n(p.overMs.mcpFetch, 3)} ms for the MCP call, ${n(p.overMs.http, 3)} ms for the GET (${n(p.overMs.ratio, 2)}x).`,
      );
    }
    if (p.nodeClient) {
      const c = p.nodeClient;
      out.push(
        "",
        `Through node:http's own client (each round, in an alternation of its own after fetch's), whose POST costs ${n(c.floorRatioPostToGet, 2)}x its GET on the bare server: MCP / HTTP ${c.ratioRounds.map((r) => `${n(r, 2)}x`).join(", ")} by round; median ${n(c.ratioMedianRound, 2)}x (reported, not judged).`,
      );
    }
  }

  const mem = r.memory;
  out.push("", "**5. Memory: distinct cached keys, default bound**", "");
  if (failed(mem)) out.push(failedText(mem));
  else {
    out.push(
      table(
        ["keys written", "RSS MiB", "heap used MiB", "entries in store"],
        [
          ["0", n(mem.rssBeforeMiB, 1), n(mem.heapUsedBeforeMiB, 1), "0"],
          ...mem.checkpoints.map((k) => [n(k.keysWritten), n(k.rssMiB, 1), n(k.heapUsedMiB, 1), n(k.storeEntries)]),
        ],
      ),
    );
    out.push("", `CACHE_MAX_ENTRIES ${n(mem.cacheMaxEntries)}; each entry a ${mem.bodyBytes}-byte case body.`);
  }

  const st = r.startup;
  out.push("", "**6. Start-up: `node bin/docket.js start` to a healthy /health (dev chain deployed and seeded)**", "");
  if (failed(st)) out.push(failedText(st));
  else {
    out.push(
      table(
        ["run", '"docket is up" ms', "/health ok ms"],
        [
          ...st.runs.map((x, i) => [i + 1, n(x.upMs), n(x.healthyMs)]),
          ["median", n(st.medianUpMs), n(st.medianHealthyMs)],
        ],
      ),
    );
  }
  out.push("", ...renderDrawGas(r.drawGas));
  if (r.drawGasChild !== undefined) out.push("", ...renderDrawGas(r.drawGasChild));
  out.push("", ...renderStrictProvider(r.strictProvider));
  out.push("", ...renderArbitrationGas(r.arbitrationGas));
  return out.join("\n");
}

function renderArbitrationGas(a: Results["arbitrationGas"]): string[] {
  const out = [
    "**12. Gas of the arbitration path (an ERC-8183 job judged by the General court), beside a plain case**",
    "",
  ];
  if (a === undefined || failed(a)) return [...out, a === undefined ? NOT_RUN : failedText(a)];
  const rows = a.rows.map((r) => [r.what, n(r.median), `${n(Math.min(...r.gas))}-${n(Math.max(...r.gas))}`]);
  out.push(table(["transaction", `gasUsed, median of ${a.runs}`, "range"], rows));
  return out;
}

function renderStrictProvider(s: Results["strictProvider"]): string[] {
  const out = ["**10. JSON-RPC asked of a strict provider (batches <= 10, eth_getLogs <= 500 blocks)**", ""];
  if (s === undefined || failed(s)) return [...out, s === undefined ? NOT_RUN : failedText(s)];
  const rows: (string | number)[][] = [
    ["follower poll, nothing new", s.poll.idle.rpc, s.poll.idle.http],
    ["follower poll, one new block", s.poll.oneBlock.rpc, s.poll.oneBlock.http],
    ["follower poll after 2,000 blocks missed", s.poll.catchUp2000Blocks.rpc, s.poll.catchUp2000Blocks.http],
    ["follower poll finding a 12-block reorg", s.poll.reorg12Blocks.rpc, s.poll.reorg12Blocks.http],
    ...Object.entries(s.reads).map(([name, c]) => [`cold ${name}`, c.rpc, c.http]),
  ];
  out.push(table(["what", "JSON-RPC requests", "HTTP requests"], rows));
  out.push("", `Largest batch: ${s.maxBatchSeen}; refused by the provider: ${JSON.stringify(s.refused)}.`);
  return out;
}

function renderDrawGas(d: Results["drawGas"]): string[] {
  const where =
    d !== undefined && !failed(d) && d.court !== undefined && d.court !== 1
      ? ` in court ${d.court}, ${d.courtDepth} below the General court (a stake writes ${(d.courtDepth ?? 0) + 1} trees)`
      : " in the General court";
  const out = [
    `**8. Gas of a draw (\`assignJudgesRandom\`) and of a new judge's stake as the judge pool grows${where}**`,
    "",
  ];
  if (d === undefined || failed(d)) return [...out, d === undefined ? NOT_RUN : failedText(d)];
  const g = (f: DrawGasSize["draw"]) => `${n(f.gasUsedMedian)} (${n(f.gasUsedMin)}-${n(f.gasUsedMax)})`;
  out.push(
    table(
      [
        "judges in pool",
        "draw, 3-judge panel: gas",
        "appeal draw, 5-judge panel: gas",
        "stakeAsJudge, new judge: gas",
        "pool grown in s (stakes, blocks)",
      ],
      d.sizes.map((s) => [
        n(s.judges),
        g(s.draw),
        g(s.appealDraw),
        g(s.stakeNewJudge),
        `${n(s.poolBuildSeconds, 1)} (${n(s.poolBuildTransactions)}, ${n(s.poolBuildBlocks)})`,
      ]),
    ),
  );
  const lo = d.sizes[0];
  const hi = d.sizes[d.sizes.length - 1];
  const per = (xs: number[]) => xs.map((x) => n(x)).join(", ");
  out.push(
    "",
    `gasUsed from receipts: median (min-max) of ${lo?.draw.transactions} draws of different cases, and of ${lo?.stakeNewJudge.transactions} new judges each alone in a block; ` +
      `stakes spread from the minimum to 10x; ${d.hiddenVotes ? "hidden" : "public"} votes; item took ${n(d.seconds)} s. ` +
      `From ${n(lo?.judges)} to ${n(hi?.judges)} judges (${n(d.poolRatioLargestToSmallest)}x the pool) a draw costs ${n(d.ratioLargestToSmallest.draw, 2)}x the gas, an appeal draw ${n(d.ratioLargestToSmallest.appealDraw, 2)}x, a new judge's stake ${n(d.ratioLargestToSmallest.stakeNewJudge, 2)}x; ` +
      `an O(log n) cost may grow at most ${n(d.logRatioLargestToSmallest, 2)}x. ` +
      `Gas added per doubling of the pool, between consecutive sizes: draw ${per(d.gasPerPoolDoubling.draw)}; appeal draw ${per(d.gasPerPoolDoubling.appealDraw)}: it does not grow with the pool, so gas ~ a + b log2(n) (an O(n) cost would add twice as much with each doubling).`,
  );
  const views = Object.keys(d.sizes[0]?.poolViews ?? {});
  if (views.length > 0) {
    const cell = (v: ViewGas | undefined) =>
      v === undefined ? "" : `${n(v.gasUsed)}${v.defaultCallOk ? "" : " FAILS"}`;
    out.push(
      "",
      'The registry\'s judge-pool views at each size (eth_estimateGas; "FAILS": a plain eth_call runs out of gas at the 30,000,000 cap):',
      "",
      table(
        ["view", "used by", ...d.sizes.map((s) => `gas @${n(s.judges)} judges`)],
        views.map((k) => [k, d.sizes[0]?.poolViews?.[k]?.usedBy ?? "", ...d.sizes.map((s) => cell(s.poolViews?.[k]))]),
      ),
    );
  }
  return out;
}
