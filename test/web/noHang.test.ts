import { mkdtempSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createApp } from "../../src/http/app.js";
import { mountMcp } from "../../src/mcp/http.js";
import type { Ctx } from "../../src/operations/kernel/operation.js";
import { operations } from "../../src/operations/registry.js";
import { createContext } from "../../src/server.js";
import { mountExplorer } from "../../src/web/explorer.js";
import { connectHttp, type Json } from "../mcp/helpers.js";
import {
  type ChainLease,
  externalChainEnv,
  type LogLine,
  leaseChain,
  type RpcProxy,
  startRpcProxy,
} from "../support/index.js";

/**
 * No request can hang (issue 32): a page, an asset, a tool that fails, a template that is missing,
 * a chain read that never returns, each answered within a second, with its status and envelope (or
 * an error page that cannot itself fail), and no unhandled rejection anywhere.
 *
 * The faults are real: the templates and the stylesheet are read from a directory that holds none
 * (the explorer's `files` option), the chain is read through the fault-injecting JSON-RPC proxy,
 * and the last-resort timeout is RESPONSE_TIMEOUT_MS set below RPC_TIMEOUT_MS. The app is docket's
 * own (createApp with the MCP transports and the explorer mounted as startServer mounts them).
 */

const WITHIN_MS = 1_000;
const RESPONSE_TIMEOUT_MS = 500;

let lease: ChainLease;
let proxy: RpcProxy;
let ctx: Ctx;
const logs: LogLine[] = [];
const rejections: unknown[] = [];
const onRejection = (err: unknown) => rejections.push(err);
const servers: Server[] = [];

/**
 * A docket app on the leased chain behind the proxy (all sharing one context and cache); `empty`
 * takes the explorer's files away, `responseTimeoutMs` is RESPONSE_TIMEOUT_MS (0: none).
 */
async function serve(empty: boolean, responseTimeoutMs = 0): Promise<string> {
  const nowhere = mkdtempSync(join(tmpdir(), "docket-no-views-"));
  const app = createApp(ctx, operations, {
    rateLimitPerMinute: 0,
    responseTimeoutMs,
    mount: (a, security, front) => {
      mountMcp(a, ctx, { security, front, host: "127.0.0.1", operations, tools: operations });
      mountExplorer(a, ctx, operations, {
        security,
        ...(empty ? { files: { views: nowhere, styles: join(nowhere, "explorer.css") } } : {}),
      });
    },
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Timed {
  status: number;
  type: string;
  text: string;
  ms: number;
}

/** One GET, failing the test if it is not answered within WITHIN_MS. */
async function get(url: string, accept = "text/html"): Promise<Timed> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { accept }, signal: AbortSignal.timeout(WITHIN_MS * 3) });
  const text = await res.text();
  const ms = performance.now() - t0;
  expect(ms, `${url} took ${Math.round(ms)} ms`).toBeLessThan(WITHIN_MS);
  return { status: res.status, type: res.headers.get("content-type") ?? "", text, ms };
}

const seeded = (label: string) => {
  const c = lease.devnet.seed?.cases.find((x) => x.label.startsWith(label));
  if (!c) throw new Error(`no seeded case ${label}`);
  return c.address;
};

beforeAll(async () => {
  process.on("unhandledRejection", onRejection);
  lease = await leaseChain();
  proxy = await startRpcProxy(lease.devnet.rpcUrl);
  const log = pino({ level: "info", base: undefined }, { write: (l: string) => void logs.push(JSON.parse(l)) });
  const config = loadConfig(externalChainEnv(lease.devnet, { RPC_URL: proxy.url, LOG_LEVEL: "info" }));
  ({ ctx } = await createContext(config, { log }));
});

afterAll(async () => {
  process.off("unhandledRejection", onRejection);
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await ctx?.cache.close();
  await ctx?.evidence.close();
  await proxy?.close();
  await lease?.devnet.stop();
});

describe("no request can hang", () => {
  it("every template missing: each page answers with the fallback page and its status; the stylesheet with the envelope", async () => {
    // The pages' reads cached first (through the real templates), so what is timed is the failure alone.
    const warm = await serve(false);
    for (const path of ["/", "/explorer/cases", `/explorer/cases/${seeded("active")}`]) {
      expect((await fetch(warm + path, { headers: { accept: "text/html" } })).status, path).toBe(200);
    }
    const url = await serve(true);
    const pages: [string, number, string][] = [
      ["/", 500, "INTERNAL_ERROR"],
      ["/explorer/cases", 500, "INTERNAL_ERROR"],
      [`/explorer/cases/${seeded("active")}`, 500, "INTERNAL_ERROR"],
      ["/explorer/cases/0xnot-an-address", 400, "INVALID_ADDRESS"],
      ["/explorer/nope", 404, "NOT_FOUND"],
    ];
    for (const [path, status, code] of pages) {
      const r = await get(url + path);
      expect(r.status, path).toBe(status);
      expect(r.type, path).toMatch(/text\/html/);
      expect(r.text, path).toContain(code);
    }
    const css = await get(`${url}/explorer/assets/explorer.css`, "text/css,*/*");
    expect(css.status).toBe(500);
    expect(JSON.parse(css.text)).toMatchObject({ error: { code: "INTERNAL_ERROR" } });
    expect(logs.some((l) => /error page failed too/.test(l.msg))).toBe(true);
  });

  it("a page, a route and a tool whose chain read fails: the error page, the envelope, an isError result", async () => {
    const url = await serve(false);
    const client = await connectHttp("2025-11-25", `${url}/mcp`);
    await ctx.cache.store.delete(["*"]);
    // A JSON-RPC error is final (a busy or unreachable node would be retried for RPC_RETRY_BUDGET_MS).
    await proxy.setFault("error");
    try {
      const page = await get(`${url}/explorer/cases/${seeded("summoned")}`);
      expect(page.status).toBe(500);
      expect(page.text).toContain("RPC_ERROR");
      expect(page.text).toContain("<main"); // the explorer's own error page, in its layout
      const route = await get(`${url}/cases/${seeded("summoned")}`, "application/json");
      expect(route.status).toBe(500);
      expect(JSON.parse(route.text)).toMatchObject({ error: { code: "RPC_ERROR" } });
      const t0 = performance.now();
      const tool = (await client.callTool({
        name: "get_case",
        arguments: { address: seeded("summoned") },
      })) as Json;
      expect(performance.now() - t0).toBeLessThan(WITHIN_MS);
      expect(tool.isError).toBe(true);
      expect(tool.structuredContent).toMatchObject({ error: { code: "RPC_ERROR" } });
    } finally {
      await proxy.setFault("none");
      await client.close();
    }
  });

  it("a chain read that never returns (RPC_TIMEOUT_MS above RESPONSE_TIMEOUT_MS): 503 in the envelope at the deadline", async () => {
    const url = await serve(false, RESPONSE_TIMEOUT_MS);
    await proxy.setFault("timeout");
    try {
      // An address nothing has read yet: no page before cached it.
      const nobody = `0x${"12".repeat(20)}`;
      for (const path of [`/cases/${nobody}`, `/explorer/cases/${nobody}`]) {
        const r = await get(url + path);
        expect(r.status, path).toBe(503);
        expect(r.ms, path).toBeGreaterThanOrEqual(RESPONSE_TIMEOUT_MS - 50);
        expect(JSON.parse(r.text), path).toMatchObject({
          error: { code: "SERVICE_UNAVAILABLE", details: { timeoutMs: RESPONSE_TIMEOUT_MS } },
        });
      }
    } finally {
      await proxy.setFault("none");
    }
    expect(logs.filter((l) => /had no answer in time/.test(l.msg))).toHaveLength(2);
  });

  it("nothing was left as an unhandled rejection", async () => {
    // Let anything late (a handler finishing after the deadline) settle first.
    await new Promise((r) => setTimeout(r, 200));
    expect(rejections).toEqual([]);
    expect(logs.filter((l) => /unhandled/i.test(l.msg))).toEqual([]);
  });
});
