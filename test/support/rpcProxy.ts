import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A JSON-RPC proxy for tests and benchmarks: a real HTTP server on 127.0.0.1 that forwards every
 * request to an upstream node (the anvil dev chain), counts what passes through and can be told to
 * misbehave.
 *
 *   const proxy = await startRpcProxy(devnet.rpcUrl);
 *   // point docket at proxy.url (RPC_URL), then:
 *   proxy.reset();
 *   await fetch(`${docket.url}/cases/${addr}`);
 *   expect(proxy.count).toBeLessThanOrEqual(2);
 *   proxy.setLatency(20);                      // benchmarks: 20 ms per HTTP round trip
 *   proxy.setFault("error", { methods: ["eth_call"] });
 *   proxy.setFault("none");
 *
 * Counting: `count` is JSON-RPC requests, not HTTP requests (a batch array counts each element);
 * `byMethod` tallies them per method and `calls` keeps them in arrival order. Requests are counted
 * when they arrive, whatever the fault mode, except in "down", where nothing arrives.
 *
 * Faults (`setFault`):
 * - "none": forward to upstream (the default).
 * - "down": the port refuses connections (the listener closes, open connections are cut); with
 *   `{ status: 503 }` it stays up and answers every request 503 instead.
 * - "timeout": accepts the request and never answers (until the fault is cleared or the proxy closes).
 * - "garbage": answers 200 with a body that is not JSON.
 * - "error": answers each JSON-RPC request with a JSON-RPC error object (`code`, `message`).
 * `methods` limits a fault to HTTP requests carrying one of those methods; others pass through.
 * ("down" as refusal cannot look at methods: it applies to everything.)
 *
 * Latency (`setLatency(ms)`) delays each HTTP request before it is answered or forwarded; a batch
 * is one round trip and pays it once.
 *
 * Changing the chain behind it (`setUpstream(url)`): later requests go to another node, e.g. a fresh
 * anvil (a reset) or one started with another chain id. Holding answers (`holdAnswers(methods)`):
 * requests carrying those methods are forwarded at once, so they read the chain as it is now, but
 * their answers are kept until `releaseAnswers()`: a read that overlaps whatever happens meanwhile.
 *
 * A strict provider (`setStrict({ batchMax, logsRangeMax, perSecond })`), as hosted JSON-RPC
 * providers are: a batch of more than `batchMax` is refused whole (each element gets a -32600
 * error); an eth_getLogs over more than `logsRangeMax` blocks gets the usual -32005 ("query exceeds
 * max block range"), the rest of its batch is served; more than `perSecond` JSON-RPC requests in the
 * last second get HTTP 429 with `Retry-After: 1`. `refused` counts each kind, `maxBatch` is the
 * largest batch seen. `setStrict(undefined)` lifts every limit.
 */

export type FaultMode = "none" | "down" | "timeout" | "garbage" | "error";

export interface FaultOptions {
  /** Only HTTP requests carrying one of these JSON-RPC methods are faulted. */
  methods?: string[];
  /** "down": answer with this HTTP status instead of refusing connections (e.g. 503). */
  status?: number;
  /** "error": the JSON-RPC error code and message (default -32603, internal error, "injected fault"). */
  code?: number;
  message?: string;
}

export interface StrictLimits {
  batchMax?: number;
  logsRangeMax?: number;
  perSecond?: number;
}

export interface RpcCall {
  method: string;
  params: unknown;
}

export interface RpcProxy {
  /** http://127.0.0.1:<port>, stable for the proxy's life (also across "down"). */
  readonly url: string;
  /** Where requests go now (see setUpstream). */
  readonly upstream: string;
  /** JSON-RPC requests received since the last reset (a batch counts each element). */
  readonly count: number;
  /** HTTP requests received since the last reset. */
  readonly httpRequests: number;
  /** JSON-RPC requests per method since the last reset. */
  readonly byMethod: Record<string, number>;
  /** Every JSON-RPC request since the last reset, in arrival order. */
  readonly calls: readonly RpcCall[];
  /** Requests a strict provider refused since the last reset, per limit. */
  readonly refused: { batch: number; logs: number; rate: number };
  /** The largest batch received since the last reset (a single request counts 1). */
  readonly maxBatch: number;
  /** Enforces a strict provider's limits (undefined: none). */
  setStrict(limits: StrictLimits | undefined): void;
  /** Zeroes the counters (latency and fault stay as they are). */
  reset(): void;
  setLatency(ms: number): void;
  setFault(mode: FaultMode, opts?: FaultOptions): Promise<void>;
  /** Sends later requests to another node. */
  setUpstream(url: string): void;
  /** Forwards requests carrying these methods at once but keeps their answers until releaseAnswers(). */
  holdAnswers(methods: string[]): void;
  /** Sends the answers held so far, and stops holding. */
  releaseAnswers(): void;
  close(): Promise<void>;
}

const INVALID = "<invalid json>";

/** Starts the proxy on 127.0.0.1 (port 0 = any free port) in front of `upstream`. */
export async function startRpcProxy(firstUpstream: string, opts: { port?: number } = {}): Promise<RpcProxy> {
  let upstream = firstUpstream;
  let heldMethods: string[] | undefined;
  let released: Promise<void> = Promise.resolve();
  let release = () => {};
  let calls: RpcCall[] = [];
  let byMethod: Record<string, number> = {};
  let httpRequests = 0;
  let latencyMs = 0;
  let strict: StrictLimits | undefined;
  let refused = { batch: 0, logs: 0, rate: 0 };
  let maxBatch = 0;
  /** Arrival times of the JSON-RPC requests served in the last second (the rate limit's window). */
  let recent: number[] = [];
  let fault: { mode: FaultMode; opts: FaultOptions } = { mode: "none", opts: {} };
  let closed = false;
  const sockets = new Set<Socket>();
  /** Requests held by "timeout"; answered with 504 when the fault is cleared, cut on close. */
  const hanging = new Set<ServerResponse>();

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`rpc proxy: ${err.message}`);
    });
  });
  server.keepAliveTimeout = 1_000;
  server.on("connection", (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    httpRequests++;
    const parsed = parse(body);
    for (const c of parsed.calls) {
      calls.push(c);
      byMethod[c.method] = (byMethod[c.method] ?? 0) + 1;
    }
    maxBatch = Math.max(maxBatch, parsed.calls.length);
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
    if (strict && (await enforce(strict, body, parsed, res))) return;

    const { mode, opts: f } = fault;
    const applies = mode !== "none" && (!f.methods || parsed.calls.some((c) => f.methods?.includes(c.method)));
    if (applies) {
      if (mode === "down") {
        // A request that slipped in as the listener closed: cut it, as a dead node would.
        if (f.status === undefined) return void req.socket.destroy();
        return send(res, f.status, `rpc proxy: injected ${f.status}`, "text/plain");
      }
      if (mode === "timeout") {
        hanging.add(res);
        res.once("close", () => hanging.delete(res));
        return;
      }
      if (mode === "garbage") return send(res, 200, "<html>not json", "application/json");
      if (mode === "error") {
        const error = { code: f.code ?? -32603, message: f.message ?? "injected fault" };
        const answers = parsed.ids.map((id) => ({ jsonrpc: "2.0", id, error }));
        return send(res, 200, JSON.stringify(parsed.batch ? answers : answers[0]), "application/json");
      }
    }

    const up = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": req.headers["content-type"] ?? "application/json" },
      body,
    });
    const answer = await up.text();
    if (heldMethods && parsed.calls.some((c) => heldMethods?.includes(c.method))) await released;
    send(res, up.status, answer, up.headers.get("content-type") ?? "application/json");
  }

  /** Answers what a strict provider refuses; true when nothing is left to forward. */
  async function enforce(
    limits: StrictLimits,
    body: string,
    parsed: ReturnType<typeof parse>,
    res: ServerResponse,
  ): Promise<boolean> {
    const now = Date.now();
    recent = recent.filter((t) => t > now - 1_000);
    if (limits.perSecond !== undefined && recent.length + parsed.calls.length > limits.perSecond) {
      refused.rate++;
      res.setHeader("retry-after", "1");
      send(res, 429, JSON.stringify({ error: "rate limit exceeded" }), "application/json");
      return true;
    }
    for (const _ of parsed.calls) recent.push(now);
    const answer = (id: unknown, code: number, message: string) => ({ jsonrpc: "2.0", id, error: { code, message } });
    if (limits.batchMax !== undefined && parsed.batch && parsed.calls.length > limits.batchMax) {
      refused.batch++;
      const message = `batch of ${parsed.calls.length} exceeds the limit of ${limits.batchMax}`;
      send(res, 200, JSON.stringify(parsed.ids.map((id) => answer(id, -32600, message))), "application/json");
      return true;
    }
    const max = limits.logsRangeMax;
    if (max === undefined) return false;
    const tooWide = parsed.calls.map((c) => c.method === "eth_getLogs" && logsSpan(c.params) > max);
    if (!tooWide.some(Boolean)) return false;
    refused.logs += tooWide.filter(Boolean).length;
    const message = `query exceeds max block range ${max}`;
    const errors = parsed.ids.flatMap((id, i) => (tooWide[i] ? [answer(id, -32005, message)] : []));
    const items = parsed.batch ? (JSON.parse(body) as unknown[]) : [JSON.parse(body)];
    const rest = items.filter((_, i) => !tooWide[i]);
    let served: unknown[] = [];
    if (rest.length > 0) {
      const up = await fetch(upstream, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(rest),
      });
      served = (await up.json()) as unknown[];
    }
    const all = [...served, ...errors];
    send(res, 200, JSON.stringify(parsed.batch ? all : all[0]), "application/json");
    return true;
  }

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const unlisten = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });

  await listen(opts.port ?? 0);
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    get upstream() {
      return upstream;
    },
    get count() {
      return calls.length;
    },
    get httpRequests() {
      return httpRequests;
    },
    get byMethod() {
      return { ...byMethod };
    },
    get calls() {
      return calls;
    },
    get refused() {
      return { ...refused };
    },
    get maxBatch() {
      return maxBatch;
    },
    setStrict(limits: StrictLimits | undefined) {
      strict = limits;
      recent = [];
    },
    reset() {
      refused = { batch: 0, logs: 0, rate: 0 };
      maxBatch = 0;
      calls = [];
      byMethod = {};
      httpRequests = 0;
    },
    setLatency(ms: number) {
      latencyMs = Math.max(0, ms);
    },
    async setFault(mode: FaultMode, o: FaultOptions = {}) {
      const wasRefusing = fault.mode === "down" && fault.opts.status === undefined;
      fault = { mode, opts: o };
      const refusing = mode === "down" && o.status === undefined;
      if (mode !== "timeout") {
        for (const res of hanging) send(res, 504, "rpc proxy: timeout fault cleared", "text/plain");
      }
      if (refusing && !wasRefusing) await unlisten();
      if (!refusing && wasRefusing && !closed) await listen(port);
    },
    setUpstream(url: string) {
      upstream = url;
    },
    holdAnswers(methods: string[]) {
      heldMethods = methods;
      released = new Promise<void>((r) => {
        release = r;
      });
    },
    releaseAnswers() {
      heldMethods = undefined;
      release();
    },
    async close() {
      closed = true;
      release();
      for (const res of hanging) res.destroy();
      await unlisten();
    },
  };
}

function send(res: ServerResponse, status: number, body: string, type: string): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** Blocks an eth_getLogs asks for (0 when its range is not two block numbers, e.g. a tag or a block hash). */
function logsSpan(params: unknown): number {
  const f = (Array.isArray(params) ? params[0] : undefined) as { fromBlock?: unknown; toBlock?: unknown } | undefined;
  const num = (v: unknown) => (typeof v === "string" && /^0x[0-9a-f]+$/i.test(v) ? Number.parseInt(v, 16) : undefined);
  const from = num(f?.fromBlock);
  const to = num(f?.toBlock);
  return from === undefined || to === undefined ? 0 : to - from + 1;
}

/** The JSON-RPC requests in a body: one object, or a batch array counting each element. */
function parse(body: string): { calls: RpcCall[]; ids: unknown[]; batch: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { calls: [{ method: INVALID, params: body }], ids: [null], batch: false };
  }
  const batch = Array.isArray(json);
  const items = batch ? (json as unknown[]) : [json];
  const calls = items.map((it) => {
    const o = (it ?? {}) as { method?: unknown; params?: unknown };
    return { method: typeof o.method === "string" ? o.method : INVALID, params: o.params };
  });
  const ids = items.map((it) => ((it ?? {}) as { id?: unknown }).id ?? null);
  return { calls, ids, batch };
}
