import { type Address, encodeFunctionData, type Hex, maxUint256, toHex } from "viem";
import { caseFactoryAbi, courtRegistryAbi } from "../../src/chain/abi/generated.js";
import { makeChain, makePublicClient } from "../../src/chain/client.js";
import { readDeliberating } from "../../src/chain/reads/cases.js";
import type { Docket } from "../../src/server.js";
import type { RpcProxy } from "../../test/support/index.js";
import { clearCache } from "../lib/docket.js";
import { rpc } from "../lib/rpc.js";
import { mean, percentile, round } from "../lib/stats.js";
import type { World } from "../lib/world.js";

/**
 * Item 2: cold reads through the latency-injecting JSON-RPC proxy (every request to the node pays
 * `latencyMs`, like a remote node), as the chain grows. docket runs in this process, pointed at the
 * proxy; before each request its cache is emptied (and case reads use a different case each time),
 * so every request is a miss that goes to the chain. Each request is timed from the client and its
 * JSON-RPC requests are counted at the proxy.
 */

export interface Endpoint {
  name: string;
  budget: number;
  path: (world: World, i: number) => string;
}

export const ENDPOINTS: Endpoint[] = [
  {
    name: "GET /cases/{address}",
    budget: 2,
    // Spread over the whole list: old and new cases alike.
    path: (w, i) => `/cases/${w.cases[Math.floor((i * 7919) % w.cases.length)]}`,
  },
  { name: "GET /validate/pending", budget: 3, path: () => "/validate/pending" },
  { name: "GET /stats/overview", budget: 3, path: () => "/stats/overview" },
  { name: "GET /agent/discover", budget: 3, path: () => "/agent/discover" },
  // The first agent judge sits on panels across the world: the busiest inbox there is.
  { name: "GET /agent/{address}/inbox", budget: 3, path: (w) => `/agent/${w.agents[0]}/inbox` },
  { name: "GET /keeper/actions", budget: 3, path: () => "/keeper/actions" },
];

export interface EndpointFigures {
  requests: number;
  p50Ms: number;
  p90Ms: number;
  meanMs: number;
  maxMs: number;
  rpcMax: number;
  rpcMin: number;
  budget: number;
  withinBudget: boolean;
  /** JSON-RPC methods of the most expensive request. */
  rpcByMethod: Record<string, number>;
  bodyBytes: number;
  /** Requests that did not answer 200 (their latency is left out), and the first answer. */
  errors: number;
  firstError?: string;
}

export interface ViewGas {
  /** Which docket request makes this eth_call, or "not used by docket". */
  usedBy: string;
  /** Gas the call needs (eth_estimateGas with a 1,000,000,000 allowance, so it is known even past the cap). */
  gasUsed: number;
  /** Whether a plain eth_call (no gas given: the node's default cap, here the block gas limit) succeeds. */
  defaultCallOk: boolean;
  /** The node's answer when it does not. */
  error?: string;
}

export interface GasFigures {
  blockGasLimit: number;
  views: Record<string, ViewGas>;
  /** anvil running getDeliberatingCases(0,100) (behind /validate/pending) itself, raw eth_call, no proxy (median of 5). */
  pendingViewNodeMs: number;
  /** The same read as docket makes it (viem, batched through Multicall3, decoded), no proxy (median of 5). */
  pendingViewDecodedMs: number;
  /** Views whose plain eth_call fails at this size: which call, gas needed, the node's error. */
  failures: string[];
}

export interface SizeResult {
  cases: number;
  agents: number;
  openCases: number;
  deliberating: number;
  buildSeconds: number;
  buildTransactions: number;
  /** One bare JSON-RPC eth_call (factory.getCase) through the proxy: the floor of a cold read. */
  bareRoundTripP50Ms: number;
  endpoints: Record<string, EndpointFigures>;
  gas: GasFigures;
  /** What the cold answers said, checked against what was built. */
  checks: { pendingTotal: number; statsTotalCases: number; statsAgents: number; ok: boolean };
}

// biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field
type Json = any;

async function coldRequest(docket: Docket, proxy: RpcProxy, path: string) {
  await clearCache(docket);
  proxy.reset();
  const t0 = performance.now();
  const res = await fetch(`${docket.url}${path}`);
  const text = await res.text();
  const ms = performance.now() - t0;
  const cost = { ms, rpc: proxy.count, byMethod: proxy.byMethod, bytes: text.length };
  // A failed read is recorded, not thrown: past some size an aggregate view may not fit an eth_call.
  if (res.status !== 200) return { ...cost, error: `${res.status} ${text.slice(0, 300)}`, body: undefined };
  const xCache = res.headers.get("x-cache");
  if (xCache !== "MISS") throw new Error(`GET ${path} was not a cache miss (X-Cache: ${xCache})`);
  return { ...cost, error: undefined, body: JSON.parse(text) as Json };
}

/** One bare JSON-RPC eth_call of factory.getCase(addr) through the proxy, timed. */
async function bareCall(proxyUrl: string, factory: Address, addr: Address): Promise<number> {
  const data = encodeFunctionData({ abi: caseFactoryAbi, functionName: "getCase", args: [addr] });
  const t0 = performance.now();
  await rpc(proxyUrl, "eth_call", [{ to: factory, data }, "latest"]);
  return performance.now() - t0;
}

const ALLOWANCE = toHex(1_000_000_000n);

export async function viewGas(rpcUrl: string, to: Address, data: Hex, usedBy: string): Promise<ViewGas> {
  const gasUsed = Number(BigInt(await rpc<Hex>(rpcUrl, "eth_estimateGas", [{ to, data, gas: ALLOWANCE }])));
  try {
    await rpc(rpcUrl, "eth_call", [{ to, data }, "latest"]);
    return { usedBy, gasUsed, defaultCallOk: true };
  } catch (err) {
    return { usedBy, gasUsed, defaultCallOk: false, error: (err as Error).message };
  }
}

/** Median time of `n` calls; NaN if the call fails (a view past the gas cap). */
async function medianMs(n: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    try {
      await fn();
    } catch {
      return Number.NaN;
    }
    times.push(performance.now() - t0);
  }
  return round(percentile(times, 50), 2);
}

/** Gas of the views behind the aggregate reads, straight at the node (no proxy). */
export async function measureGas(rpcUrl: string, world: World, docket: Docket): Promise<GasFigures> {
  const open = (filter: boolean) =>
    encodeFunctionData({
      abi: caseFactoryAbi,
      functionName: "getOpenCases",
      args: [filter, filter ? 3 : 0, 0n, maxUint256],
    });
  const agents = (limit: number) =>
    encodeFunctionData({ abi: courtRegistryAbi, functionName: "getAgents", args: [0n, BigInt(limit)] });
  const block = await rpc<{ gasLimit: Hex }>(rpcUrl, "eth_getBlockByNumber", ["latest", false]);
  const f = world.factory;
  const r = world.registry;
  const deliberating = encodeFunctionData({
    abi: caseFactoryAbi,
    functionName: "getDeliberatingCases",
    args: [0n, 100n],
  });
  const views: Record<string, ViewGas> = {
    "getDeliberatingCases(0,100)": await viewGas(rpcUrl, f, deliberating, "GET /validate/pending (default page)"),
    "getOpenCases(Deliberating)": await viewGas(rpcUrl, f, open(true), "not used by docket (its old scan)"),
    "getOpenCases(all)": await viewGas(rpcUrl, f, open(false), "not used by docket"),
    "getAgents(0,20)": await viewGas(rpcUrl, r, agents(20), "GET /agent/discover (default page)"),
    "getAgents(0,100)": await viewGas(rpcUrl, r, agents(100), "GET /agent/discover?limit=100 (largest page)"),
    "getAgents(0,all)": await viewGas(rpcUrl, r, agents(world.agents.length), "not used by docket (pages <= 100)"),
    "getCaseStatuses(0,100)": await viewGas(
      rpcUrl,
      f,
      encodeFunctionData({ abi: caseFactoryAbi, functionName: "getCaseStatuses", args: [0n, 100n] }),
      "GET /keeper/actions (default page)",
    ),
    "getInvolvedCases(judge,0,100)": await viewGas(
      rpcUrl,
      f,
      encodeFunctionData({
        abi: caseFactoryAbi,
        functionName: "getInvolvedCases",
        args: [world.agents[0] as Address, 0n, 100n],
      }),
      "GET /agent/{address}/inbox (the first judge, default page)",
    ),
    getJudgePool: await viewGas(
      rpcUrl,
      r,
      encodeFunctionData({ abi: courtRegistryAbi, functionName: "getJudgePool", args: [0n, 20n] }),
      "GET /judges/pool (default page)",
    ),
  };
  // Same client settings as docket's, straight at the node: node time plus viem's encoding and decoding.
  const direct = { ...docket.ctx.chain, reader: makePublicClient(makeChain(31337, rpcUrl)) };
  return {
    blockGasLimit: Number(BigInt(block.gasLimit)),
    views,
    pendingViewNodeMs: await medianMs(5, () => rpc(rpcUrl, "eth_call", [{ to: f, data: deliberating }, "latest"])),
    pendingViewDecodedMs: await medianMs(5, () => readDeliberating(direct, 0, 100)),
    failures: Object.entries(views)
      .filter(([, v]) => !v.defaultCallOk)
      .map(([name, v]) => `${name} (${v.usedBy}) needs ${v.gasUsed} gas: ${v.error}`),
  };
}

/** Measures every endpoint `requests` times, cold, on the world as it is now. */
export async function measureSize(
  docket: Docket,
  proxy: RpcProxy,
  world: World,
  build: { seconds: number; transactions: number },
  requests: number,
  log: (line: string) => void,
): Promise<SizeResult> {
  const endpoints: Record<string, EndpointFigures> = {};
  const lastBody: Record<string, Json> = {};
  // One request each first: connections open, code paths compiled, as in a server that has run a while.
  for (const e of ENDPOINTS) await coldRequest(docket, proxy, e.path(world, requests));
  const bareTarget = world.cases[0] as Address;
  await bareCall(proxy.url, world.factory, bareTarget);
  const times = new Map<string, number[]>(ENDPOINTS.map((e) => [e.name, []]));
  const worst = new Map<string, { rpc: number; byMethod: Record<string, number> }>();
  const rpcMin = new Map<string, number>();
  const bytes = new Map<string, number>();
  const bareTimes: number[] = [];
  const errors = new Map<string, number>();
  const firstError = new Map<string, string>();
  // Interleaved (each endpoint once, then again), so a burst of noise on a shared machine hits all alike.
  for (let i = 0; i < requests; i++) {
    for (const e of ENDPOINTS) {
      const r = await coldRequest(docket, proxy, e.path(world, i));
      if (r.error !== undefined) {
        errors.set(e.name, (errors.get(e.name) ?? 0) + 1);
        firstError.set(e.name, firstError.get(e.name) ?? r.error);
      } else times.get(e.name)?.push(r.ms);
      if (r.rpc > (worst.get(e.name)?.rpc ?? -1)) worst.set(e.name, { rpc: r.rpc, byMethod: r.byMethod });
      rpcMin.set(e.name, Math.min(rpcMin.get(e.name) ?? Number.POSITIVE_INFINITY, r.rpc));
      if (r.error === undefined) {
        bytes.set(e.name, r.bytes);
        lastBody[e.name] = r.body;
      }
    }
    bareTimes.push(await bareCall(proxy.url, world.factory, bareTarget));
  }
  for (const e of ENDPOINTS) {
    const t = times.get(e.name) ?? [];
    const w = worst.get(e.name) ?? { rpc: Number.NaN, byMethod: {} };
    endpoints[e.name] = {
      requests,
      p50Ms: round(percentile(t, 50)),
      p90Ms: round(percentile(t, 90)),
      meanMs: round(mean(t)),
      maxMs: round(Math.max(...t)),
      rpcMax: w.rpc,
      rpcMin: rpcMin.get(e.name) ?? Number.NaN,
      budget: e.budget,
      withinBudget: w.rpc <= e.budget,
      rpcByMethod: w.byMethod,
      bodyBytes: bytes.get(e.name) ?? 0,
      errors: errors.get(e.name) ?? 0,
      ...(firstError.has(e.name) ? { firstError: firstError.get(e.name) } : {}),
    };
  }
  const bare = percentile(bareTimes, 50);
  const gas = await measureGas(proxy.upstream, world, docket);
  const pending = lastBody["GET /validate/pending"];
  const stats = lastBody["GET /stats/overview"];
  const checks = {
    pendingTotal: pending?.total,
    statsTotalCases: stats?.totalCases,
    statsAgents: stats?.agents,
    ok:
      pending?.total === world.deliberating.length &&
      stats?.totalCases === world.cases.length &&
      stats?.agents === world.agents.length,
  };
  const size: SizeResult = {
    cases: world.cases.length,
    agents: world.agents.length,
    openCases: stats?.openCases,
    deliberating: world.deliberating.length,
    buildSeconds: round(build.seconds),
    buildTransactions: build.transactions,
    bareRoundTripP50Ms: round(bare),
    endpoints,
    gas,
    checks,
  };
  log(
    `  ${size.cases} cases / ${size.agents} agents (built in ${size.buildSeconds} s, ${size.buildTransactions} txs); bare round trip p50 ${size.bareRoundTripP50Ms} ms`,
  );
  for (const [name, f] of Object.entries(endpoints)) {
    log(
      `    ${name.padEnd(24)} p50 ${f.p50Ms} ms  p90 ${f.p90Ms} ms  rpc ${f.rpcMax} ${JSON.stringify(f.rpcByMethod)}${f.errors ? `  ${f.errors} FAILED: ${f.firstError}` : ""}`,
    );
  }
  log(
    `    gas (block limit ${gas.blockGasLimit}): ${Object.entries(gas.views)
      .map(([k, v]) => `${k} ${v.gasUsed}${v.defaultCallOk ? "" : " FAILS"}`)
      .join(", ")}; pending view ${gas.pendingViewNodeMs} ms at the node, ${gas.pendingViewDecodedMs} ms decoded`,
  );
  if (!checks.ok) log(`    CHECK FAILED: ${JSON.stringify(checks)}`);
  return size;
}

export interface PendingViewGas {
  /** Gas per open case at this mix, between the two largest sizes. */
  gasPerOpenCase: number;
  /** Open cases at which the call reaches the block gas limit, same mix. */
  openCasesAtGasCap: number;
  /**
   * The same cost split, at the largest size, from getOpenCases(all) (a summary of every open case)
   * and getOpenCases(Deliberating) (state of every open case, summary of the Deliberating ones):
   * what reading one open case's state costs, what one summary adds.
   */
  gasPerOpenCaseStateRead: number;
  gasPerSummary: number;
  /** Open cases at which the call reaches the cap even if none of them is Deliberating. */
  openCasesAtGasCapNoneDeliberating: number;
}

export interface ColdReadsSummary {
  rpcLatencyMs: number;
  requestsPerEndpoint: number;
  sizes: SizeResult[];
  /** p50 at the largest size over p50 at the smallest, per endpoint (target <= 1.5). */
  flatness: Record<string, number>;
  /** Cold case read p50 over the bare round trip p50, per size (target <= 1.5). */
  caseReadOverRoundTrip: number[];
  /**
   * getOpenCases(Deliberating), behind /validate/pending, loops over every open case: its gas per
   * open case (between the two largest sizes) and the number of open cases (same mix: 1 in 10
   * Deliberating) at which it would reach the block gas limit, where a plain eth_call fails.
   */
  pendingView: PendingViewGas;
  targets: { rpcBudget: boolean; flat: boolean; caseWithinRoundTrip: boolean };
  pass: boolean;
}

export function summarize(rpcLatencyMs: number, requests: number, sizes: SizeResult[]): ColdReadsSummary {
  const first = sizes[0];
  const last = sizes[sizes.length - 1];
  const flatness: Record<string, number> = {};
  for (const e of ENDPOINTS) {
    const a = first?.endpoints[e.name]?.p50Ms ?? Number.NaN;
    const b = last?.endpoints[e.name]?.p50Ms ?? Number.NaN;
    flatness[e.name] = round(b / a, 2);
  }
  const caseReadOverRoundTrip = sizes.map((s) =>
    round((s.endpoints[ENDPOINTS[0]?.name as string]?.p50Ms ?? Number.NaN) / s.bareRoundTripP50Ms, 2),
  );
  const view = "getOpenCases(Deliberating)";
  const prev = sizes[sizes.length - 2] ?? first;
  const pendingView: PendingViewGas = {
    gasPerOpenCase: Number.NaN,
    openCasesAtGasCap: Number.NaN,
    gasPerOpenCaseStateRead: Number.NaN,
    gasPerSummary: Number.NaN,
    openCasesAtGasCapNoneDeliberating: Number.NaN,
  };
  if (prev && last && last.openCases > prev.openCases) {
    const g1 = prev.gas.views[view]?.gasUsed ?? Number.NaN;
    const g2 = last.gas.views[view]?.gasUsed ?? Number.NaN;
    const perCase = (g2 - g1) / (last.openCases - prev.openCases);
    pendingView.gasPerOpenCase = round(perCase, 0);
    pendingView.openCasesAtGasCap = Math.floor(last.openCases + (last.gas.blockGasLimit - g2) / perCase);
  }
  if (last && last.openCases > last.deliberating) {
    // all ~ n (read + summary); deliberating ~ n read + d summary (fixed costs neglected).
    const all = last.gas.views["getOpenCases(all)"]?.gasUsed ?? Number.NaN;
    const del = last.gas.views[view]?.gasUsed ?? Number.NaN;
    const summary = (all - del) / (last.openCases - last.deliberating);
    const read = all / last.openCases - summary;
    pendingView.gasPerSummary = round(summary, 0);
    pendingView.gasPerOpenCaseStateRead = round(read, 0);
    pendingView.openCasesAtGasCapNoneDeliberating = Math.floor(last.gas.blockGasLimit / read);
  }
  const targets = {
    rpcBudget: sizes.every((s) => Object.values(s.endpoints).every((e) => e.withinBudget)),
    flat: Object.values(flatness).every((r) => r <= 1.5),
    caseWithinRoundTrip: caseReadOverRoundTrip.every((r) => r <= 1.5),
  };
  return {
    rpcLatencyMs,
    requestsPerEndpoint: requests,
    sizes,
    flatness,
    caseReadOverRoundTrip,
    pendingView,
    targets,
    pass:
      targets.rpcBudget &&
      targets.flat &&
      targets.caseWithinRoundTrip &&
      sizes.every((s) => s.checks.ok && Object.values(s.endpoints).every((e) => e.errors === 0)),
  };
}
