import type { Docket } from "../../src/server.js";
import type { RpcProxy } from "../../test/support/index.js";
import { clearCache } from "../lib/docket.js";
import { round } from "../lib/stats.js";

/**
 * Item 3: N concurrent identical requests on a cold cache, through the latency proxy, against one
 * such request alone. Single-flight means the N together make the JSON-RPC requests one makes.
 */

export interface SingleFlightFigures {
  concurrent: number;
  rpcOne: number;
  rpcAll: number;
  rpcByMethod: Record<string, number>;
  ok200: number;
  /** Answered by the shared chain read (MISS) or from the cache it filled (HIT). */
  xCacheMiss: number;
  xCacheHit: number;
  wallMs: number;
  pass: boolean;
}

export async function benchSingleFlight(
  docket: Docket,
  proxy: RpcProxy,
  paths: Record<string, string>,
  concurrent: number,
  log: (line: string) => void,
): Promise<Record<string, SingleFlightFigures>> {
  const out: Record<string, SingleFlightFigures> = {};
  for (const [name, path] of Object.entries(paths)) {
    await clearCache(docket);
    proxy.reset();
    const one = await fetch(`${docket.url}${path}`);
    await one.arrayBuffer();
    const rpcOne = proxy.count;

    await clearCache(docket);
    proxy.reset();
    const t0 = performance.now();
    const answers = await Promise.all(
      Array.from({ length: concurrent }, async () => {
        const res = await fetch(`${docket.url}${path}`);
        await res.arrayBuffer();
        return { status: res.status, xCache: res.headers.get("x-cache") };
      }),
    );
    const wallMs = performance.now() - t0;
    const rpcAll = proxy.count;
    const f: SingleFlightFigures = {
      concurrent,
      rpcOne,
      rpcAll,
      rpcByMethod: proxy.byMethod,
      ok200: answers.filter((a) => a.status === 200).length,
      xCacheMiss: answers.filter((a) => a.xCache === "MISS").length,
      xCacheHit: answers.filter((a) => a.xCache === "HIT").length,
      wallMs: round(wallMs, 0),
      pass: rpcAll <= rpcOne && answers.every((a) => a.status === 200),
    };
    out[name] = f;
    log(
      `  ${name}: ${concurrent} concurrent cold -> ${rpcAll} JSON-RPC (one alone: ${rpcOne}); ${f.xCacheMiss} MISS, ${f.xCacheHit} HIT, ${f.wallMs} ms`,
    );
  }
  return out;
}
