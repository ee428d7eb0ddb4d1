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

describe("POST /mcp bodies that do not come with their headers", () => {
  const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "list_cases", arguments: {} } };

  it("a body sent after its headers, in pieces, is read as one sent at once: a cached read's answer, the SDK's", async () => {
    const d = await boot();
    const slow = (msg: unknown) => {
      const text = JSON.stringify(msg);
      return rawPost(d.url, "/mcp", [text.slice(0, 10), text.slice(10, 50), text.slice(50)], {
        "content-length": String(Buffer.byteLength(text)),
      });
    };
    // The read is cached (through HTTP): answered before the SDK, whose own answer is a stream.
    expect((await fetch(`${d.url}/cases`)).status).toBe(200);
    const hit = await slow(call);
    expect(hit.status).toBe(200);
    const atOnce = (await (await post(`${d.url}/mcp`, call)).json()) as { result: { structuredContent: unknown } };
    expect(atOnce.result.structuredContent).toMatchObject({ cases: expect.any(Array) });
    expect(JSON.parse(hit.body)).toEqual(atOnce);
    // Anything else goes on to the SDK with the body read.
    const list = await slow({ jsonrpc: "2.0", id: 8, method: "tools/list" });
    expect(list.status).toBe(200);
    expect(list.body).toContain('"name":"list_cases"');
  });

  it("MCP_MAX_BODY_BYTES holds for a chunked body, whether it comes at once or in pieces: 413", async () => {
    const d = await boot({ MCP_MAX_BODY_BYTES: "2048" });
    const pad = JSON.stringify({ ...call, params: { ...call.params, arguments: { pad: "x".repeat(3000) } } });
    const chunked = (parts: string[]) => parts.map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`);
    for (const parts of [
      [...chunked([pad]), "0\r\n\r\n"],
      [...chunked([pad.slice(0, 1500), pad.slice(1500)]), "0\r\n\r\n"],
    ]) {
      const r = await rawPost(d.url, "/mcp", parts, { "transfer-encoding": "chunked" }, parts.length > 2 ? 20 : 0);
      expect(r.status).toBe(413);
      expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    }
  });
});

/**
 * A POST on a raw socket: the headers first, then each part of the body `gapMs` later (the headers
 * and the first part apart too, when `gapMs` > 0), `Connection: close`; the status and body.
 */
function rawPost(
  base: string,
  path: string,
  parts: string[],
  headers: Record<string, string>,
  gapMs = 20,
): Promise<{ status: number; body: string }> {
  const u = new URL(base);
  const socket = tcp(Number(u.port), u.hostname);
  const head = Object.entries({
    host: u.host,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    connection: "close",
    ...headers,
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return new Promise((resolve, reject) => {
    let seen = "";
    socket.on("data", (c: Buffer) => {
      seen += c.toString();
    });
    socket.once("error", reject);
    socket.once("close", () => {
      const [top = "", body = ""] = seen.split("\r\n\r\n", 2);
      resolve({ status: Number(top.split(" ")[1]), body });
    });
    const send = async () => {
      if (gapMs === 0) {
        socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${parts.join("")}`);
        return;
      }
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
      for (const p of parts) {
        await new Promise((r) => setTimeout(r, gapMs));
        if (!socket.destroyed) socket.write(p);
      }
    };
    send().catch(reject);
  });
}

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
