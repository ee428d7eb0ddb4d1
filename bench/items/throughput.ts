import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { type Started, spawnNode } from "../lib/child.js";
import { mean, round } from "../lib/stats.js";

/**
 * Item 1: cached GET /cases/{address} under load (autocannon, 50 connections), beside a bare Express
 * route and a bare node:http server that answer the very bytes docket answers. Each server runs in
 * a child process of its own; autocannon runs here. Rounds alternate the three servers so that
 * drift on a shared machine hits them alike.
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
  ratioDocketToExpress: number;
  ratioDocketToNodeHttp: number;
  ratioExpressToNodeHttp: number;
  ratioExpressSecurityToExpress: number;
  ratioDocketToExpressSecurity: number;
  targetRatioDocketToExpress: number;
  pass: boolean;
}

export interface ThroughputOptions {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  rounds: number;
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

/** `docketUrl` is a docket (RATE_LIMIT_PER_MINUTE=0, LOG_LEVEL=silent) that can read `caseAddress`. */
export async function benchThroughput(
  docketUrl: string,
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
      targetRatioDocketToExpress: 0.8,
      pass: ratioDocketToExpress >= 0.8 && docket.non2xx === 0 && docket.errors === 0,
    };
  } finally {
    for (const b of bare) await b.stop();
  }
}
