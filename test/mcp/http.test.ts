import { request } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { operations } from "../../src/operations/registry.js";
import { type Docket, startServer } from "../../src/server.js";
import { connect, expectAllTools, expectErrorCodes, ok, registerFlow, voteFlow } from "./helpers.js";

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
    docket = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent" }));
    rpcUrl = docket.ctx.court.publicRpcUrl as string;
  });
  afterAll(async () => {
    await docket?.close();
  });

  describe("Streamable HTTP at /mcp (stateless)", () => {
    let client: Client;
    beforeAll(async () => {
      client = await connect(new StreamableHTTPClientTransport(new URL(`${docket.url}/mcp`)));
    });
    afterAll(async () => {
      await client?.close();
    });

    it("lists every tool and reads", async () => {
      await expectAllTools(client);
      expect(await ok(client, "get_health")).toMatchObject({ status: "ok", chainId: 31337, rpcUrl });
    });

    it("vote_on_case as a judge: sign the unsigned_tx, broadcast, and get_case shows the vote", async () => {
      await voteFlow(client, rpcUrl);
    });

    it("errors carry docket's codes", async () => {
      await expectErrorCodes(client);
    });

    it("serves concurrent clients, each request on a server of its own", async () => {
      const clients = await Promise.all(
        [1, 2, 3].map(() => connect(new StreamableHTTPClientTransport(new URL(`${docket.url}/mcp`)))),
      );
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
    beforeAll(async () => {
      client = await connect(new SSEClientTransport(new URL(`${docket.url}/sse`)));
    });
    afterAll(async () => {
      await client?.close();
    });

    it("lists every tool and reads", async () => {
      await expectAllTools(client);
      const { cases } = await ok(client, "list_cases", { limit: 100 });
      // The cases the SSE test's own votes have not added to: the seeded ones.
      expect(cases).toHaveLength(docket.ctx.court.devnet?.seed?.cases.length ?? -1);
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

  it("DOCKET_TOOLS applies over HTTP too", async () => {
    const narrow = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", DOCKET_TOOLS: "read" }), {
      court: docket.ctx.court,
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
      startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", DOCKET_TOOLS: "nope" }), { court: docket.ctx.court }),
    ).rejects.toThrow(/DOCKET_TOOLS: unknown toolset or tool 'nope'/);
  });

  it("closing docket ends open SSE sessions instead of hanging on them", async () => {
    const own = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent" }), { court: docket.ctx.court });
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
