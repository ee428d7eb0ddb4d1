import { request } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { operations } from "../../src/operations/registry.js";
import { type Docket, startServer } from "../../src/server.js";
import { forSuite, TestDocket } from "../support/index.js";
import {
  call,
  connect,
  connectHttp,
  ERAS,
  expectAllTools,
  expectErrorCodes,
  ok,
  registerFlow,
  voteFlow,
} from "./helpers.js";

/** A raw HTTP exchange, so the Host header can be anything (fetch will not forge it). */
function raw(url: string, opts: { method: string; path: string; host?: string; body?: string }) {
  const u = new URL(url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method: opts.method,
        path: opts.path,
        headers: {
          ...(opts.host ? { host: opts.host } : {}),
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
        },
      },
      (res) => {
        let body = "";
        res.on("data", (d: Buffer) => {
          body += d.toString();
          // An event stream stays open: the first event is enough.
          if (res.headers["content-type"]?.startsWith("text/event-stream")) res.destroy();
        });
        res.on("close", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

describe("MCP over HTTP, on the API's own port", () => {
  let docket: Docket;
  let rpcUrl: string;
  beforeAll(async () => {
    docket = (await TestDocket.shared()).docket;
    rpcUrl = docket.ctx.chain.publicRpcUrl as string;
  });
  afterAll(async () => {
    await docket?.close();
  });

  describe.each(ERAS)("Streamable HTTP at /mcp (stateless), protocol %s", (era) => {
    let client: Client;
    forSuite(async () => (client = await connectHttp(era, `${docket.url}/mcp`)));

    it("lists every tool and reads", async () => {
      await expectAllTools(client);
      expect(await ok(client, "get_health")).toMatchObject({ status: "ok", chainId: 31337, rpcUrl });
    });

    // The seed has one case to vote on: the 2026-07-28 client votes; the 2025 one registers an agent.
    it("a write: sign the unsigned_tx, broadcast, and read its effect back", async () => {
      if (era === "2026-07-28") await voteFlow(client, rpcUrl);
      else await registerFlow(client, rpcUrl, 16);
    });

    it("errors carry docket's codes", async () => {
      await expectErrorCodes(client);
    });

    it("serves concurrent clients, each request on a server of its own", async () => {
      const clients = await Promise.all([1, 2, 3].map(() => connectHttp(era, `${docket.url}/mcp`)));
      const healths = await Promise.all(clients.map((c) => ok(c, "get_health")));
      expect(healths.map((h) => h.status)).toEqual(["ok", "ok", "ok"]);
      await Promise.all(clients.map((c) => c.close()));
    });

    it("has no sessions: GET and DELETE are 405 with a JSON-RPC error", async () => {
      for (const method of ["GET", "DELETE"]) {
        const res = await fetch(`${docket.url}/mcp`, { method, headers: { accept: "text/event-stream" } });
        expect(res.status).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
        expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
      }
    });
  });

  describe("legacy SSE at GET /sse + POST /messages", () => {
    let client: Client;
    forSuite(async () => (client = await connect(new SSEClientTransport(new URL(`${docket.url}/sse`)))));

    it("lists every tool and reads", async () => {
      await expectAllTools(client);
      const { cases } = await ok(client, "list_cases", { limit: 100 });
      // The cases the SSE test's own votes have not added to: the seeded ones.
      expect(cases).toHaveLength(docket.dev?.devnet.seed?.cases.length ?? -1);
    });

    it("self_register_agent for a free dev account: sign, broadcast, and get_agent shows it", async () => {
      await registerFlow(client, rpcUrl, 15);
    });

    it("errors carry docket's codes", async () => {
      await expectErrorCodes(client);
    });

    it("a message for an unknown session is refused", async () => {
      const res = await fetch(`${docket.url}/messages?sessionId=nope`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: initialize,
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringMatching(/session/) } });
    });
  });

  describe("DNS rebinding protection (bound to 127.0.0.1)", () => {
    it.each([
      ["POST", "/mcp"],
      ["GET", "/sse"],
      ["POST", "/messages?sessionId=x"],
    ])("%s %s with a foreign Host header is refused with 403", async (method, path) => {
      const r = await raw(docket.url, {
        method,
        path,
        host: "evil.example:80",
        body: method === "POST" ? initialize : undefined,
      });
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body)).toMatchObject({ error: { message: "Invalid Host: evil.example" } });
    });

    it("localhost and 127.0.0.1 Host headers are served", async () => {
      const port = new URL(docket.url).port;
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
        const r = await raw(docket.url, { method: "POST", path: "/mcp", host, body: initialize });
        expect(r.status).toBe(200);
        expect(r.body).toContain('"serverInfo"');
      }
      const sse = await raw(docket.url, { method: "GET", path: "/sse", host: `localhost:${port}` });
      expect(sse.body).toMatch(/^event: endpoint\ndata: \/messages\?sessionId=/);
    });
  });

  describe.each(ERAS)("per-request tool selection, protocol %s", (era) => {
    const names = (pred: (op: (typeof operations)[number]) => boolean) =>
      operations
        .filter(pred)
        .map((op) => op.name)
        .sort();
    const listed = async (path: string, headers?: Record<string, string>) => {
      const c = await connect(
        new StreamableHTTPClientTransport(new URL(`${docket.url}${path}`), { requestInit: { headers } }),
      );
      const { tools } = await c.listTools();
      return { c, names: tools.map((t) => t.name).sort() };
    };

    it("X-MCP-Toolsets and X-MCP-Readonly narrow tools/list, and a tool left out is unknown", async () => {
      const { c, names: got } = await listed("/mcp", { "X-MCP-Toolsets": "cases, judges", "X-MCP-Readonly": "true" });
      expect(got).toEqual(names((op) => ["cases", "judges"].includes(op.toolset) && op.kind === "read"));
      expect(await ok(c, "get_judge_pool")).toMatchObject({});
      // A write of the same toolsets and a read of another are outside: refused as unknown tools.
      for (const name of ["vote_on_case", "get_health"]) {
        await expect(c.callTool({ name, arguments: {} })).rejects.toThrow(new RegExp(`unknown tool: ${name}`));
      }
      await c.close();
    });

    it("the path chooses too: /mcp/x/{toolsets}, /mcp/x/{toolsets}/readonly, /mcp/readonly", async () => {
      const agents = await listed("/mcp/x/agents");
      expect(agents.names).toEqual(names((op) => op.toolset === "agents"));
      const reads = await listed("/mcp/x/agents,system/readonly");
      expect(reads.names).toEqual(names((op) => ["agents", "system"].includes(op.toolset) && op.kind === "read"));
      const all = await listed("/mcp/readonly", { "X-MCP-Readonly": "off" });
      expect(all.names).toEqual(names((op) => op.kind === "read"));
      // Headers narrow the path's selection further; X-MCP-Tools names single tools.
      const one = await listed("/mcp/x/agents", { "X-MCP-Tools": "get_agent,get_health" });
      expect(one.names).toEqual(["get_agent"]);
      // Twice: the second get_agent is a cached read, answered on the fast path for the selection.
      for (let i = 0; i < 2; i++) {
        const r = await call(one.c, "get_agent", { address: devAccount(1).address });
        expect(r.body.error?.code ?? r.body.agent?.address).toBeDefined();
        await expect(one.c.callTool({ name: "get_health", arguments: {} })).rejects.toThrow(/unknown tool: get_health/);
      }
      await Promise.all([agents.c, reads.c, all.c, one.c].map((c) => c.close()));
    });

    it("an unknown toolset, or a selection of nothing, is 400 INVALID_INPUT", async () => {
      for (const [path, headers] of [
        ["/mcp/x/nope", {}],
        ["/mcp", { "x-mcp-toolsets": "cases,nope" }],
        ["/mcp/x/agents/readonly", { "x-mcp-tools": "self_register_agent" }],
      ] as const) {
        const res = await fetch(`${docket.url}${path}`, {
          method: "POST",
          headers: { ...headers, accept: "application/json, text/event-stream", "content-type": "application/json" },
          body: initialize,
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ error: { code: "INVALID_INPUT" } });
      }
    });

    it("DOCKET_TOOLS is the upper bound: a request narrows it, never widens it", async () => {
      const narrow = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", DOCKET_TOOLS: "cases" }), {
        chain: docket.ctx.chain,
      });
      try {
        const wide = await connectHttp(era, `${narrow.url}/mcp/x/cases,judges`, { "X-MCP-Readonly": "yes" });
        const { tools } = await wide.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(names((op) => op.toolset === "cases" && op.kind === "read"));
        await expect(wide.callTool({ name: "get_judge_pool", arguments: {} })).rejects.toThrow(/unknown tool/);
        await wide.close();
        const res = await fetch(`${narrow.url}/mcp/x/judges`, {
          method: "POST",
          headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
          body: initialize,
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          error: { code: "INVALID_INPUT", details: { offered: expect.any(Array) } },
        });
      } finally {
        await narrow.close();
      }
    });

    it("a session's tools are chosen by the headers that open it (/mcp/session, /sse)", async () => {
      const headers = { "X-MCP-Toolsets": "system" };
      for (const t of [
        new StreamableHTTPClientTransport(new URL(`${docket.url}/mcp/session`), { requestInit: { headers } }),
        new SSEClientTransport(new URL(`${docket.url}/sse`), {
          eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...init?.headers, ...headers } }) },
        }),
      ]) {
        const c = await connect(t);
        const { tools } = await c.listTools();
        expect(tools.map((x) => x.name).sort()).toEqual(names((op) => op.toolset === "system"));
        await c.close();
      }
    });
  });

  it("DOCKET_TOOLS applies over HTTP too", async () => {
    const narrow = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", DOCKET_TOOLS: "read" }), {
      chain: docket.ctx.chain,
    });
    try {
      const c = await connect(new StreamableHTTPClientTransport(new URL(`${narrow.url}/mcp`)));
      const { tools } = await c.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        operations
          .filter((op) => op.kind === "read")
          .map((op) => op.name)
          .sort(),
      );
      await c.close();
    } finally {
      await narrow.close();
    }
    await expect(
      startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", DOCKET_TOOLS: "nope" }), { chain: docket.ctx.chain }),
    ).rejects.toThrow(/DOCKET_TOOLS: unknown toolset or tool 'nope'/);
  });

  it("closing docket ends open SSE sessions instead of hanging on them", async () => {
    const own = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent" }), { chain: docket.ctx.chain });
    const client = await connect(new SSEClientTransport(new URL(`${own.url}/sse`)));
    expect(await ok(client, "get_health")).toMatchObject({ status: "ok" });
    // A second session, watched at the socket: its event stream must end when docket closes.
    const u = new URL(own.url);
    let opened!: () => void;
    const open = new Promise<void>((r) => {
      opened = r;
    });
    const ended = new Promise<string>((resolve, reject) => {
      request({ host: u.hostname, port: u.port, path: "/sse", headers: { accept: "text/event-stream" } }, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => {
          body += d.toString();
          opened();
        });
        res.on("end", () => resolve(body));
      })
        .on("error", reject)
        .end();
    });
    await open;
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("docket.close() hung on the open SSE stream")), 3000);
    });
    try {
      await Promise.race([own.close(), hung]);
    } finally {
      clearTimeout(timer);
    }
    expect(await ended).toMatch(/^event: endpoint\n/);
    await client.close();
  });
});
