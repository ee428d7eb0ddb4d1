import type { ChildProcess } from "node:child_process";
import { Agent, type ClientRequest, type IncomingMessage, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../../../src/devnet/devnet.js";
import { type RpcProxy, startRpcProxy, watch } from "../../support/index.js";

/**
 * `docket start` as an operator runs it, stopped by SIGTERM (an orchestrator) or SIGINT (Ctrl-C):
 * what was in flight finishes, nothing new gets in, open event streams end, the embedded dev chain
 * goes with it, and the exit code is 0.
 */

const children: ChildProcess[] = [];
let devnet: Devnet | undefined;
let proxy: RpcProxy | undefined;

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await proxy?.close();
  await devnet?.stop();
});

function startDocket(env: Record<string, string> = {}) {
  const p = watch(process.execPath, ["bin/docket.js", "start"], {
    env: { PORT: "0", LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "0", ...env },
    into: children,
  });
  const ready = async (ms = 50_000) => {
    const out = await p.waitFor(/Ctrl-C stops docket/, ms);
    const url = /docket is up on (http:\/\/\S+)/.exec(out)?.[1] as string;
    return { url, out };
  };
  return { ...p, ready };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `p`, or a failure naming what did not happen in time. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Whether a JSON-RPC node answers at `url`. */
const answers = (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  }).then(
    (r) => r.ok,
    () => false,
  );

/** A fresh TCP connection to `url` (no pooled socket): resolves the status, or the connection error's code. */
function connect(url: string, path = "/health"): Promise<number | string> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const req = request({ host: u.hostname, port: u.port, path, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end();
  });
}

async function refusedWithin(url: string, ms: number): Promise<number | string> {
  const end = Date.now() + ms;
  let last: number | string = "";
  while (Date.now() < end) {
    last = await connect(url);
    if (last === "ECONNREFUSED") break;
    await sleep(50);
  }
  return last;
}

/**
 * A POST whose body arrives in two parts: the request is in flight on the server (headers read,
 * body awaited) until `finish()` sends the rest. The socket is kept alive, as a browser's would be.
 */
function slowPost(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const u = new URL(url);
  const text = JSON.stringify(body);
  const agent = new Agent({ keepAlive: true });
  let req!: ClientRequest;
  const response = new Promise<{ status: number; body: string; at: number }>((resolve, reject) => {
    req = request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers },
      },
      (res: IncomingMessage) => {
        let b = "";
        res.on("data", (d: Buffer) => {
          b += d.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: b, at: Date.now() }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
  });
  req.flushHeaders();
  req.write(text.slice(0, 5));
  return {
    response,
    finish: () => {
      req.end(text.slice(5));
      return response;
    },
    agent,
  };
}

/** GET /sse: resolves once the endpoint event arrived; `closed` resolves when the stream ends. */
function openSse(url: string) {
  const u = new URL(url);
  let onClosed!: () => void;
  const closed = new Promise<void>((r) => {
    onClosed = r;
  });
  const opened = new Promise<string>((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: "/sse", headers: { accept: "text/event-stream" }, agent: false },
      (res) => {
        let first = "";
        res.on("data", (d: Buffer) => {
          first += d.toString();
          if (first.includes("\n\n")) resolve(first);
        });
        res.on("close", onClosed);
        res.on("end", onClosed);
      },
    );
    req.on("error", reject);
    req.end();
  });
  return { opened, closed };
}

type Started = ReturnType<typeof startDocket>;

describe("graceful shutdown of `docket start`", () => {
  /** With its embedded dev chain. */
  let embedded: Started;
  /** On an external chain (RPC_URL), through the proxy. */
  let external: Started;

  // Both boot at once: a start costs seconds (tsx, and anvil, deploy and seed for the embedded chain).
  beforeAll(async () => {
    embedded = startDocket();
    devnet = await startDevnet({ seed: false });
    proxy = await startRpcProxy(devnet.rpcUrl);
    external = startDocket({
      RPC_URL: proxy.url,
      CHAIN_ID: "31337",
      FACTORY_ADDRESS: devnet.deployment.factory,
      REGISTRY_ADDRESS: devnet.deployment.registry,
      EVENT_POLL_MS: "0",
    });
    await Promise.all([embedded.ready(), external.ready()]);
  });

  it("SIGTERM: in-flight API and MCP requests finish, new connections are refused, SSE ends, the dev chain stops, exit 0", async () => {
    const d = embedded;
    const { url, out } = await d.ready();
    const rpc = /JSON-RPC (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] as string;
    // The start-up list: address, court, label.
    const deliberating = /(0x[0-9a-fA-F]{40}) {2}General +deliberating/.exec(out)?.[1] as string;
    expect(rpc).toBeTruthy();
    expect(deliberating).toBeTruthy();
    expect(await answers(rpc)).toBe(true);

    const sse = openSse(url);
    expect(await sse.opened).toMatch(/event: endpoint\ndata: \/messages\?sessionId=/);
    // A write that needs no signer: the General court's public vote, as the service interface documents it.
    const vote = slowPost(url, `/cases/${deliberating}/vote`, { plaintiff_wins: true });
    const mcp = slowPost(
      url,
      "/mcp",
      {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "get_case", arguments: { address: deliberating } },
      },
      { accept: "application/json, text/event-stream" },
    );
    // Both requests' headers have reached docket; their bodies have not.
    await sleep(500);

    const t0 = Date.now();
    d.child.kill("SIGTERM");
    expect(await refusedWithin(url, 3_000)).toBe("ECONNREFUSED");
    await within(sse.closed, 5_000, "the SSE stream to end");

    // The in-flight requests complete, reading the chain, which is still up for them.
    const [voted, viaMcp] = await within(Promise.all([vote.finish(), mcp.finish()]), 10_000, "the in-flight requests");
    expect(voted.status, voted.body).toBe(200);
    expect(JSON.parse(voted.body).unsigned_tx).toMatchObject({ to: deliberating, chainId: 31337 });
    expect(viaMcp.status, viaMcp.body).toBe(200);
    expect(viaMcp.body).toContain('\\"state\\":\\"Deliberating\\"');
    expect(viaMcp.body).not.toContain('"isError":true');

    expect(await within(d.exited, 15_000, "docket to exit")).toBe(0);
    const done = Date.now();
    // Within the 10 s grace period. Today a request that finishes during shutdown leaves its kept-alive
    // socket open for Node's keepAliveTimeout (5 s), which docket waits out before it exits: close() in
    // src/server.ts drops idle sockets once, not those that become idle later. Once it sweeps them
    // during the grace period too, this can be < 2 s.
    expect(done - Math.max(voted.at, viaMcp.at), "exit after the last in-flight request").toBeLessThan(9_000);
    expect(done - t0).toBeLessThan(12_000);
    expect(await answers(rpc)).toBe(false);
    vote.agent.destroy();
    mcp.agent.destroy();
  });

  it("SIGINT (Ctrl-C) behind a slow node: the in-flight read finishes, then exit 0; an external chain is left running", async () => {
    if (!proxy || !devnet) throw new Error("no external chain");
    const d = external;
    const { url } = await d.ready();
    proxy.setLatency(1_500);
    proxy.reset();
    const slow = fetch(`${url}/stats/overview`);
    while (proxy.count === 0) await sleep(20);
    d.child.kill("SIGINT");
    expect(await refusedWithin(url, 3_000)).toBe("ECONNREFUSED");
    const r = await within(slow, 10_000, "the in-flight read");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-cache")).toBe("MISS");
    expect(((await r.json()) as { totalCases: number }).totalCases).toBe(0);
    expect(await within(d.exited, 15_000, "docket to exit")).toBe(0);
    expect(await answers(devnet.rpcUrl)).toBe(true);
  });
});
