import { readFileSync } from "node:fs";
import autocannon from "autocannon";

/** Resident memory of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

export interface SoakResult {
  durationSeconds: number;
  connections: number;
  requests: number;
  requestsPerSecond: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** RSS sampled every second over the run. */
  rssMb: number[];
  /** RSS sampled every second over the warm-up before it (which runs until RSS stops climbing). */
  warmupRssMb: number[];
  /** Highest RSS in the last third of the run over the highest in the first third (1 = flat). */
  rssGrowth: number;
  /** Socket-level errors by message, if any. */
  errorKinds: Record<string, number>;
  /** Reorgs made on the dev chain during the run (see `reorgRpcUrl`). */
  reorgs: number;
  /** Answers by HTTP status. */
  statusCodes: Record<string, number>;
}

/** One raw JSON-RPC request to the dev chain (anvil's snapshot and mining methods). */
async function devRpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await res.json()) as { result?: unknown }).result;
}

/**
 * Real reorgs, one per `everyMs`, until stopped: snapshot, mine two blocks, let the follower see
 * them, revert to the snapshot and mine three others. Resolves to how many were made.
 */
function churnReorgs(rpcUrl: string, everyMs: number): { stop(): Promise<number> } {
  let stopped = false;
  const sleep = () => new Promise((r) => setTimeout(r, everyMs / 2));
  const loop = (async () => {
    let made = 0;
    while (!stopped) {
      const id = await devRpc(rpcUrl, "evm_snapshot");
      for (let i = 0; i < 2; i++) await devRpc(rpcUrl, "evm_mine");
      await sleep();
      await devRpc(rpcUrl, "evm_revert", [id]);
      for (let i = 0; i < 3; i++) await devRpc(rpcUrl, "evm_mine");
      made++;
      await sleep();
    }
    return made;
  })();
  return {
    stop: async () => {
      stopped = true;
      return loop;
    },
  };
}

/**
 * Warm up under the same load (JIT, connection pools, cache fill, and V8 growing its heap to the
 * load's working size) until resident memory stops climbing: no new high for 4 s in a row, after
 * at least 6 s and at most 30 s. A fixed 3 s was too short on a slow machine: the heap was still
 * growing to its plateau when the measured run began, and that one-time growth read as a leak.
 * Resolves to the RSS samples taken (one a second).
 */
async function warmUp(
  url: string,
  pid: number,
  connections: number,
  requests: autocannon.Request[],
): Promise<number[]> {
  const samples: number[] = [rssMb(pid)];
  let high = samples[0] as number;
  let sinceHigh = 0;
  await new Promise<void>((resolve, reject) => {
    const run = autocannon({ url, connections, duration: 30, requests, timeout: 30 }, (err) =>
      err ? reject(err) : resolve(),
    );
    const timer = setInterval(() => {
      const now = rssMb(pid);
      samples.push(now);
      // A new high must beat the old one by more than noise (2%) to restart the count.
      if (now > high * 1.02) sinceHigh = 0;
      else sinceHigh++;
      high = Math.max(high, now);
      if (samples.length > 6 && sinceHigh >= 4) {
        clearInterval(timer);
        run.stop();
      }
    }, 1000);
    run.on("done", () => clearInterval(timer));
  });
  return samples;
}

/**
 * Mixed reads and writes against a running docket: every read endpoint over the seeded cases and
 * agents, and writes (vote reveals, stakes, registrations, evidence) that invalidate and hold keys, so
 * the chain keeps being read under load.
 */
export async function soak(opts: {
  url: string;
  pid: number;
  durationSeconds: number;
  connections: number;
  /** The dev chain's JSON-RPC: make a real reorg on it every `reorgEveryMs` while loaded. */
  reorgRpcUrl?: string;
  reorgEveryMs?: number;
}): Promise<SoakResult> {
  const get = async (path: string) => (await fetch(`${opts.url}${path}`)).json() as Promise<Record<string, never>>;
  const list = (await get("/cases?limit=100")) as unknown as { cases: string[] };
  const agents = (await get("/agent/discover?limit=100")) as unknown as { agents: { address: string }[] };
  const cases = list.cases;
  const who = agents.agents.map((a) => a.address);
  const json = { "content-type": "application/json" };
  const requests: autocannon.Request[] = [];
  for (const [i, c] of cases.entries()) {
    const a = who[i % who.length] as string;
    requests.push(
      { method: "GET", path: `/cases/${c}` },
      { method: "GET", path: "/cases?limit=20&offset=0" },
      { method: "GET", path: "/validate/pending" },
      { method: "GET", path: `/agent/${a}` },
      { method: "GET", path: "/stats/overview" },
      { method: "GET", path: "/agent/discover" },
      { method: "GET", path: "/judges/pool" },
      { method: "GET", path: `/validate/stats/${a}` },
      { method: "GET", path: `/judges/stake/${a}` },
      {
        // A write on the case that needs no signer: a reveal without `from` is only built.
        method: "POST",
        path: `/cases/${c}/reveal`,
        headers: json,
        body: JSON.stringify({ plaintiff_wins: i % 2 === 0, salt: `0x${"11".repeat(32)}` }),
      },
      {
        method: "POST",
        path: "/judges/stake",
        headers: json,
        body: JSON.stringify({ address: a, amount: "500000000000000000" }),
      },
      {
        method: "POST",
        path: "/agent/self-register",
        headers: json,
        body: JSON.stringify({ address: a, name: `soak-${i}` }),
      },
    );
  }
  const warmup = await warmUp(opts.url, opts.pid, opts.connections, requests);
  const samples: number[] = [rssMb(opts.pid)];
  const timer = setInterval(() => samples.push(rssMb(opts.pid)), 1000);
  const errorKinds: Record<string, number> = {};
  const reorgs = opts.reorgRpcUrl ? churnReorgs(opts.reorgRpcUrl, opts.reorgEveryMs ?? 2_000) : undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      // A generous per-request timeout: on a loaded machine a slow answer is not an error.
      { url: opts.url, connections: opts.connections, duration: opts.durationSeconds, requests, timeout: 30 },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    run.on("reqError", (e: Error) => {
      errorKinds[e.message] = (errorKinds[e.message] ?? 0) + 1;
    });
  });
  clearInterval(timer);
  const reorgsMade = (await reorgs?.stop()) ?? 0;
  samples.push(rssMb(opts.pid));
  const third = Math.max(1, Math.floor(samples.length / 3));
  const first = Math.max(...samples.slice(0, third));
  const last = Math.max(...samples.slice(-third));
  return {
    durationSeconds: opts.durationSeconds,
    connections: opts.connections,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    rssMb: samples,
    warmupRssMb: warmup,
    rssGrowth: Math.round((last / first) * 100) / 100,
    errorKinds,
    reorgs: reorgsMade,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, (v as { count: number }).count]),
    ),
  };
}
