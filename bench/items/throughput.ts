import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { type Started, spawnNode } from "../../test/support/index.js";
import { mean, median, round } from "../lib/stats.js";

/**
 * Item 1: cached GET /cases/{address} under load (autocannon, 50 connections), beside a bare Express
 * route and a bare node:http server that answer the very bytes docket answers. Each server runs in
 * a child process of its own; autocannon runs here.
 *
 * Two kinds of rounds:
 * - one server at a time (rounds alternate the order): requests/s and latency of each alone;
 * - shared-core rounds: docket, bare Express and Express+security pinned to one CPU and loaded at
 *   the same moment. The kernel gives each the same share of that CPU, so their requests/s compare
 *   what a request costs each; a neighbour slowing the machine down slows all three at once. On a
 *   shared machine the one-at-a-time ratio swings from round to round (0.4x to 1.8x was seen
 *   between Express and Express+security, about 10% apart); the shared-core ratio holds within a
 *   few percent, so the target is judged on it (the median of its rounds).
 */

export interface LoadFigures {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMeanMs: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface ThroughputResult {
  path: string;
  bodyBytes: number;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  rounds: number;
  docket: LoadFigures;
  express: LoadFigures;
  nodeHttp: LoadFigures;
  /** Express plus docket's security middleware (helmet, CORS) and nothing else: informational. */
  expressSecurity: LoadFigures;
  /** docket / bare Express requests/s, one server at a time (means over the rounds). */
  ratioDocketToExpress: number;
  ratioDocketToNodeHttp: number;
  ratioExpressToNodeHttp: number;
  ratioExpressSecurityToExpress: number;
  ratioDocketToExpressSecurity: number;
  sharedCore: SharedCoreResult;
  targetRatioDocketToExpress: number;
  /** Judged on `sharedCore.ratioDocketToExpress`. */
  pass: boolean;
}

export interface SharedCoreResult {
  /** Whether the servers could be pinned to one CPU (Linux `taskset`); if not, they only share the machine. */
  pinned: boolean;
  cpu: number | null;
  rounds: number;
  durationSeconds: number;
  /** Medians over the rounds. */
  requestsPerSecond: { docket: number; express: number; expressSecurity: number };
  /** docket / bare Express, median of the rounds' ratios; each round's in `ratioDocketToExpressRounds`. */
  ratioDocketToExpress: number;
  ratioDocketToExpressRounds: number[];
  ratioExpressSecurityToExpress: number;
  ratioDocketToExpressSecurity: number;
}

export interface ThroughputOptions {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  rounds: number;
  sharedRounds: number;
}

/** Pins every thread of a process to `cpus` (a taskset list, e.g. "1" or "0-3"); false if that cannot be done here. */
function pin(pid: number, cpus: string): boolean {
  const r = spawnSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
  return r.status === 0;
}

async function load(url: string, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration: seconds, pipelining: 1 });
}

function figures(runs: autocannon.Result[]): LoadFigures {
  return {
    requestsPerSecond: round(mean(runs.map((r) => r.requests.average)), 0),
    latencyP50Ms: round(mean(runs.map((r) => r.latency.p50)), 2),
    latencyP99Ms: round(mean(runs.map((r) => r.latency.p99)), 2),
    latencyMeanMs: round(mean(runs.map((r) => r.latency.mean)), 2),
    requests: runs.reduce((n, r) => n + r.requests.total, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

/** `docketUrl` is a docket (RATE_LIMIT_PER_MINUTE=0, LOG_LEVEL=silent), process `docketPid`, that can read `caseAddress`. */
export async function benchThroughput(
  docketUrl: string,
  docketPid: number,
  caseAddress: string,
  opts: ThroughputOptions,
  log: (line: string) => void,
): Promise<ThroughputResult> {
  const path = `/cases/${caseAddress}`;
  // Fill docket's cache, then take the body it answers from the cache.
  const first = await fetch(`${docketUrl}${path}`);
  if (first.status !== 200) throw new Error(`GET ${path} answered ${first.status}`);
  await first.arrayBuffer();
  const cached = await fetch(`${docketUrl}${path}`);
  const body = Buffer.from(await cached.arrayBuffer());
  if (cached.headers.get("x-cache") !== "HIT")
    throw new Error(`GET ${path} is not cached: ${cached.headers.get("x-cache")}`);

  const file = join(tmpdir(), `docket-bench-body-${process.pid}.json`);
  writeFileSync(file, body);
  const bare: Started[] = [];
  try {
    for (const kind of ["express", "http", "express-security"]) {
      bare.push(
        await spawnNode(["--import", "tsx", "bench/lib/bareServer.ts", kind], {
          env: { BODY_FILE: file },
          ready: /listening on (http:\/\/\S+)/,
        }),
      );
    }
    const [expressUrl, httpUrl, securityUrl] = bare.map((b) => b.match[1] as string) as [string, string, string];
    for (const u of [expressUrl, httpUrl, securityUrl]) {
      const same = Buffer.from(await (await fetch(`${u}${path}`)).arrayBuffer());
      if (!same.equals(body)) throw new Error(`${u} does not serve docket's bytes`);
    }

    const targets = [
      { name: "docket", url: `${docketUrl}${path}` },
      { name: "express", url: `${expressUrl}${path}` },
      { name: "nodeHttp", url: `${httpUrl}${path}` },
      { name: "expressSecurity", url: `${securityUrl}${path}` },
    ] as const;
    const runs: Record<string, autocannon.Result[]> = { docket: [], express: [], nodeHttp: [], expressSecurity: [] };
    for (const t of targets) await load(t.url, opts.connections, opts.warmupSeconds);
    for (let r = 0; r < opts.rounds; r++) {
      // Alternate the order from round to round.
      const order = r % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) {
        const res = await load(t.url, opts.connections, opts.durationSeconds);
        runs[t.name]?.push(res);
        log(
          `  ${t.name.padEnd(15)} round ${r + 1}: ${Math.round(res.requests.average)} req/s, p50 ${res.latency.p50} ms, p99 ${res.latency.p99} ms`,
        );
      }
    }
    const sharedCore = await sharedCoreRounds(
      [
        { name: "docket", url: `${docketUrl}${path}`, pid: docketPid },
        { name: "express", url: `${expressUrl}${path}`, pid: bare[0]?.pid as number },
        { name: "expressSecurity", url: `${securityUrl}${path}`, pid: bare[2]?.pid as number },
      ],
      opts,
      log,
    );
    const docket = figures(runs.docket ?? []);
    const express = figures(runs.express ?? []);
    const nodeHttp = figures(runs.nodeHttp ?? []);
    const expressSecurity = figures(runs.expressSecurity ?? []);
    const ratioDocketToExpress = round(docket.requestsPerSecond / express.requestsPerSecond, 3);
    return {
      path: "/cases/{address}",
      bodyBytes: body.length,
      connections: opts.connections,
      warmupSeconds: opts.warmupSeconds,
      durationSeconds: opts.durationSeconds,
      rounds: opts.rounds,
      docket,
      express,
      nodeHttp,
      expressSecurity,
      ratioDocketToExpress,
      ratioDocketToNodeHttp: round(docket.requestsPerSecond / nodeHttp.requestsPerSecond, 3),
      ratioExpressToNodeHttp: round(express.requestsPerSecond / nodeHttp.requestsPerSecond, 3),
      ratioExpressSecurityToExpress: round(expressSecurity.requestsPerSecond / express.requestsPerSecond, 3),
      ratioDocketToExpressSecurity: round(docket.requestsPerSecond / expressSecurity.requestsPerSecond, 3),
      sharedCore,
      targetRatioDocketToExpress: 0.8,
      pass: sharedCore.ratioDocketToExpress >= 0.8 && docket.non2xx === 0 && docket.errors === 0,
    };
  } finally {
    for (const b of bare) await b.stop();
  }
}

/** The shared-core rounds (see the top of this file); docket is unpinned again afterwards. */
async function sharedCoreRounds(
  servers: { name: "docket" | "express" | "expressSecurity"; url: string; pid: number }[],
  opts: ThroughputOptions,
  log: (line: string) => void,
): Promise<SharedCoreResult> {
  const cores = availableParallelism();
  // The last CPU for the servers; autocannon (this process) keeps the others. One CPU: nothing to pin.
  const cpu = cores - 1;
  const pinned = cores >= 2 && servers.every((s) => pin(s.pid, String(cpu)));
  const rps: Record<string, number[]> = { docket: [], express: [], expressSecurity: [] };
  try {
    log(
      pinned
        ? `  shared-core rounds: the three servers pinned to CPU ${cpu}`
        : "  shared-core rounds: could not pin (no taskset): servers share the machine",
    );
    await Promise.all(servers.map((s) => load(s.url, opts.connections, opts.warmupSeconds)));
    for (let r = 0; r < opts.sharedRounds; r++) {
      const results = await Promise.all(servers.map((s) => load(s.url, opts.connections, opts.durationSeconds)));
      for (const [i, s] of servers.entries()) {
        const res = results[i] as autocannon.Result;
        if (res.non2xx > 0 || res.errors > 0) throw new Error(`${s.name}: ${res.non2xx} non-2xx, ${res.errors} errors`);
        rps[s.name]?.push(res.requests.average);
      }
      const [d, e, x] = [rps.docket?.[r], rps.express?.[r], rps.expressSecurity?.[r]] as [number, number, number];
      log(
        `  shared core     round ${r + 1}: docket ${Math.round(d)}, express ${Math.round(e)}, express+security ${Math.round(x)} req/s: docket/express ${round(d / e, 3)}`,
      );
    }
  } finally {
    if (pinned) for (const s of servers) pin(s.pid, `0-${cores - 1}`);
  }
  const per = (a: string, b: string) => (rps[a] ?? []).map((v, i) => v / ((rps[b] ?? [])[i] as number));
  const ratios = per("docket", "express");
  return {
    pinned,
    cpu: pinned ? cpu : null,
    rounds: opts.sharedRounds,
    durationSeconds: opts.durationSeconds,
    requestsPerSecond: {
      docket: round(median(rps.docket ?? []), 0),
      express: round(median(rps.express ?? []), 0),
      expressSecurity: round(median(rps.expressSecurity ?? []), 0),
    },
    ratioDocketToExpress: round(median(ratios), 3),
    ratioDocketToExpressRounds: ratios.map((v) => round(v, 3)),
    ratioExpressSecurityToExpress: round(median(per("expressSecurity", "express")), 3),
    ratioDocketToExpressSecurity: round(median(per("docket", "expressSecurity")), 3),
  };
}
