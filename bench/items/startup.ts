import { spawnNode } from "../../test/support/index.js";
import { median, round, sleep } from "../lib/stats.js";

/**
 * Item 6: `npm start` (node bin/docket.js start, PORT=0) from spawn to the first `GET /health` that
 * answers 200 with status "ok": anvil started, Multicall3 installed, contracts deployed, the demo
 * world seeded, HTTP listening. Median of `runs` cold starts, one after the other.
 */

export interface StartupRun {
  upMs: number;
  healthyMs: number;
}

export interface StartupResult {
  runs: StartupRun[];
  medianUpMs: number;
  medianHealthyMs: number;
  targetMs: number;
  pass: boolean;
}

export async function benchStartup(runs: number, log: (line: string) => void): Promise<StartupResult> {
  const out: StartupRun[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const child = await spawnNode(["bin/docket.js", "start"], {
      // The defaults of a first `npm start`, except any free port (RPC_URL unset: the embedded dev chain).
      env: { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", RPC_URL: "", RATE_LIMIT_PER_MINUTE: "" },
      ready: /docket is up on (http:\/\/\S+)/,
      timeoutMs: 60_000,
    });
    try {
      const upMs = performance.now() - t0;
      const url = child.match[1] as string;
      let healthyMs = Number.NaN;
      for (;;) {
        const res = await fetch(`${url}/health`).catch(() => undefined);
        const body = res ? ((await res.json().catch(() => ({}))) as { status?: string }) : {};
        if (res?.status === 200 && body.status === "ok") {
          healthyMs = performance.now() - t0;
          break;
        }
        if (performance.now() - t0 > 60_000) throw new Error(`/health not ok after 60 s: ${res?.status}`);
        await sleep(10);
      }
      out.push({ upMs: round(upMs, 0), healthyMs: round(healthyMs, 0) });
      log(`  run ${i + 1}: up after ${Math.round(upMs)} ms, /health ok after ${Math.round(healthyMs)} ms`);
    } finally {
      await child.stop();
    }
  }
  const medianHealthyMs = median(out.map((r) => r.healthyMs));
  return {
    runs: out,
    medianUpMs: median(out.map((r) => r.upMs)),
    medianHealthyMs,
    targetMs: 10_000,
    pass: medianHealthyMs < 10_000,
  };
}
