import { type Socket, connect as tcp } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import type { Devnet } from "../../src/devnet/devnet.js";
import { type Docket, startServer } from "../../src/server.js";
import { externalChainEnv, leaseChain, until } from "../support/index.js";

/**
 * The MCP HTTP transports against hostile or careless clients: a browser page on a foreign origin
 * (the spec's Origin check), too many SSE sessions, and an SSE client that never reads its stream
 * (the SDK's SSE transport ignores backpressure, so docket bounds what a session may queue).
 */

let devnet: Devnet;
const servers: Docket[] = [];

async function boot(env: Record<string, string> = {}): Promise<Docket> {
  const d = await startServer(loadConfig(externalChainEnv(devnet, { RATE_LIMIT_PER_MINUTE: "0", ...env })));
  servers.push(d);
  return d;
}

async function client(transport: SSEClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const c = new Client({ name: "bounds-test", version: "1.0.0" });
  await c.connect(transport);
  return c;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  devnet = (await leaseChain()).devnet;
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await devnet?.stop();
});

describe("Origin on /mcp, /sse, /messages", () => {
  const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };

  it("CORS_ORIGINS=* (default): a foreign page is 403 ORIGIN_NOT_ALLOWED; loopback pages and clients without Origin work", async () => {
    const d = await boot();
    const evil = { origin: "https://evil.example" };
    for (const r of [
      await post(`${d.url}/mcp`, list, evil),
      await fetch(`${d.url}/sse`, { headers: evil }),
      await post(`${d.url}/messages?sessionId=x`, list, evil),
    ]) {
      expect(r.status).toBe(403);
      expect(await r.json()).toMatchObject({
        error: { code: "ORIGIN_NOT_ALLOWED", details: { origin: "https://evil.example" } },
      });
    }
    expect((await post(`${d.url}/mcp`, list, { origin: "null" })).status).toBe(403);
    const inspector = new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`), {
      requestInit: { headers: { origin: "http://localhost:6274" } },
    });
    expect((await (await client(inspector)).listTools()).tools.length).toBeGreaterThan(0);
    const plain = await client(new SSEClientTransport(new URL(`${d.url}/sse`)));
    expect((await plain.listTools()).tools.length).toBeGreaterThan(0);
    await plain.close();
  });

  it("CORS_ORIGINS lists the origins allowed; loopback is then not implied", async () => {
    const d = await boot({ CORS_ORIGINS: "https://app.example" });
    const app = new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`), {
      requestInit: { headers: { origin: "https://app.example" } },
    });
    expect((await (await client(app)).listTools()).tools.length).toBeGreaterThan(0);
    expect((await post(`${d.url}/mcp`, list, { origin: "http://localhost:6274" })).status).toBe(403);
    expect((await post(`${d.url}/mcp`, list, { origin: "https://evil.example" })).status).toBe(403);
  });
});

describe("legacy SSE bounds", () => {
  it("MCP_SSE_MAX_SESSIONS=2: a third session is 503 in the envelope; a slot freed is usable again", async () => {
    const d = await boot({ MCP_SSE_MAX_SESSIONS: "2" });
    const a = await client(new SSEClientTransport(new URL(`${d.url}/sse`)));
    const b = await client(new SSEClientTransport(new URL(`${d.url}/sse`)));
    expect(d.sseSessions).toBe(2);
    const third = await fetch(`${d.url}/sse`);
    expect(third.status).toBe(503);
    expect(await third.json()).toMatchObject({ error: { code: "SERVICE_UNAVAILABLE", details: { maxSessions: 2 } } });
    await a.close();
    await until("an SSE session", () => d.sseSessions === 1);
    const c = await client(new SSEClientTransport(new URL(`${d.url}/sse`)));
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    expect((await b.listTools()).tools.length).toBeGreaterThan(0);
    await Promise.all([b.close(), c.close()]);
  });

  it("a session whose client stops reading is closed once over 64 kB stay queued; the others keep working", async () => {
    const d = await boot({ MCP_SSE_MAX_QUEUED_BYTES: "65536" });
    const healthy = await client(new SSEClientTransport(new URL(`${d.url}/sse`)));
    const { sessionId, socket } = await stalledSse(d.url);
    expect(d.sseSessions).toBe(2);
    const messages = `${d.url}/messages?sessionId=${sessionId}`;
    const init = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "stalled", version: "1" } },
    };
    expect((await post(messages, init)).status).toBe(202);
    await post(messages, { jsonrpc: "2.0", method: "notifications/initialized" });
    // tools/list answers are tens of kB each: kernel buffers fill, then docket's queue, then it closes.
    let sent = 0;
    let status = 202;
    while (status === 202 && sent < 5_000) {
      status = (await post(messages, { jsonrpc: "2.0", id: ++sent, method: "tools/list" })).status;
    }
    expect(status).toBe(404);
    expect(sent).toBeLessThan(5_000);
    await until("an SSE session", () => d.sseSessions === 1);
    expect((await healthy.listTools()).tools.length).toBeGreaterThan(0);
    socket.destroy();
    await healthy.close();
  });
});

describe("Streamable HTTP session bounds (/mcp/session)", () => {
  const init = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };

  it("MCP_HTTP_MAX_SESSIONS=2: a third initialize is 503 in the envelope; DELETE frees a slot; an unknown session is 404", async () => {
    const d = await boot({ MCP_HTTP_MAX_SESSIONS: "2" });
    const url = new URL(`${d.url}/mcp/session`);
    const ta = new StreamableHTTPClientTransport(url);
    const a = await client(ta);
    const b = await client(new StreamableHTTPClientTransport(url));
    expect(d.httpSessions).toBe(2);
    const third = await post(url.href, init);
    expect(third.status).toBe(503);
    expect(await third.json()).toMatchObject({ error: { code: "SERVICE_UNAVAILABLE", details: { maxSessions: 2 } } });
    // The stateless endpoint is not bounded by sessions.
    expect((await post(`${d.url}/mcp`, init)).status).toBe(200);

    const gone = ta.sessionId as string;
    await ta.terminateSession();
    await a.close();
    expect(d.httpSessions).toBe(1);
    const stale = await post(url.href, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": gone });
    expect(stale.status).toBe(404);
    expect(await stale.json()).toMatchObject({ error: { code: -32001 } });
    // No session id: only an initialize opens one; a GET is told to initialize first.
    expect((await fetch(url, { headers: { accept: "text/event-stream" } })).status).toBe(400);
    expect((await post(url.href, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(400);
    expect((await fetch(url, { method: "PUT" })).status).toBe(405);
    expect(d.httpSessions).toBe(1);

    const c = await client(new StreamableHTTPClientTransport(url));
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    expect((await b.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("MCP_HTTP_SESSION_IDLE_SECONDS=1: a session whose client left without DELETE is closed; one listening on its stream stays", async () => {
    const d = await boot({ MCP_HTTP_SESSION_IDLE_SECONDS: "1" });
    const url = new URL(`${d.url}/mcp/session`);
    const listening = await client(new StreamableHTTPClientTransport(url));
    const leaving = new StreamableHTTPClientTransport(url);
    await (await client(leaving)).close();
    expect(d.httpSessions).toBe(2);
    await until("a Streamable HTTP session", () => d.httpSessions === 1);
    const stale = await post(
      url.href,
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { "mcp-session-id": leaving.sessionId as string },
    );
    expect(stale.status).toBe(404);
    // The client that kept its GET stream open was never idle.
    expect(await listening.ping()).toEqual({});
  });

  it("shutdown ends every session and its stream", async () => {
    const d = await boot();
    const c = await client(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp/session`)));
    expect(d.httpSessions).toBe(1);
    servers.splice(servers.indexOf(d), 1);
    await d.close();
    expect(d.httpSessions).toBe(0);
    expect(
      await c.ping().then(
        () => "answered",
        () => "refused",
      ),
    ).toBe("refused");
    await c.close();
  });
});

/** Opens GET /sse on a raw socket, reads up to the endpoint event, then never reads again. */
function stalledSse(base: string): Promise<{ sessionId: string; socket: Socket }> {
  const u = new URL(base);
  const socket = tcp(Number(u.port), u.hostname);
  socket.write(`GET /sse HTTP/1.1\r\nHost: ${u.host}\r\nAccept: text/event-stream\r\n\r\n`);
  let seen = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /sessionId=([\w-]+)/.exec(seen);
      if (!m) return;
      socket.off("data", onData);
      socket.pause();
      resolve({ sessionId: m[1] as string, socket });
    };
    socket.on("data", onData);
    socket.once("error", reject);
  });
}
