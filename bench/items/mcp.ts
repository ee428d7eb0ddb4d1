import { isDeepStrictEqual } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mean, percentile, round } from "../lib/stats.js";

/**
 * Item 4: what MCP costs over plain HTTP for the same cached read. `tools/call get_case` over
 * Streamable HTTP (`/mcp`, the official SDK client, as an agent would call it) against
 * `GET /cases/{address}` with fetch, both sequential (one call in flight), both cached.
 */

export interface SequentialFigures {
  calls: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  callsPerSecond: number;
}

export type McpResult =
  | { skipped: string }
  | {
      calls: number;
      http: SequentialFigures;
      mcp: SequentialFigures;
      /** MCP mean latency over HTTP mean latency (1 = no overhead). */
      ratioMcpToHttpLatency: number;
      /** MCP calls/s over HTTP requests/s. */
      ratioMcpToHttpThroughput: number;
      sameBody: boolean;
    };

async function sequential(n: number, call: () => Promise<void>): Promise<SequentialFigures> {
  const times: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  const total = performance.now() - t0;
  return {
    calls: n,
    meanMs: round(mean(times), 3),
    p50Ms: round(percentile(times, 50), 3),
    p99Ms: round(percentile(times, 99), 3),
    callsPerSecond: round((n / total) * 1000, 0),
  };
}

export async function benchMcp(
  docketUrl: string,
  caseAddress: string,
  opts: { calls: number; warmup: number },
  log: (line: string) => void,
): Promise<McpResult> {
  const client = new Client({ name: "docket-bench", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${docketUrl}/mcp`)));
  } catch (err) {
    log(`  /mcp does not answer (${(err as Error).message.split("\n")[0]}): skipped`);
    return { skipped: "no /mcp" };
  }
  try {
    // As real clients do first; it also primes the client's output-schema validators.
    await client.listTools();
    const url = `${docketUrl}/cases/${caseAddress}`;
    let httpBody: unknown;
    let mcpBody: unknown;
    const viaHttp = async () => {
      const res = await fetch(url);
      httpBody = await res.json();
      if (res.status !== 200) throw new Error(`GET /cases/{address} answered ${res.status}`);
    };
    const viaMcp = async () => {
      const r = await client.callTool({ name: "get_case", arguments: { address: caseAddress } });
      if (r.isError) throw new Error(`get_case failed: ${JSON.stringify(r.structuredContent)}`);
      mcpBody = r.structuredContent;
    };
    for (let i = 0; i < opts.warmup; i++) {
      await viaHttp();
      await viaMcp();
    }
    const http = await sequential(opts.calls, viaHttp);
    const mcp = await sequential(opts.calls, viaMcp);
    log(
      `  HTTP ${http.meanMs} ms mean (${http.callsPerSecond}/s), MCP ${mcp.meanMs} ms mean (${mcp.callsPerSecond}/s)`,
    );
    return {
      calls: opts.calls,
      http,
      mcp,
      ratioMcpToHttpLatency: round(mcp.meanMs / http.meanMs, 2),
      ratioMcpToHttpThroughput: round(mcp.callsPerSecond / http.callsPerSecond, 3),
      sameBody: isDeepStrictEqual(httpBody, mcpBody),
    };
  } finally {
    await client.close();
  }
}
