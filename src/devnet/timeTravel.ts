import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";

/**
 * The dev chain's public JSON-RPC endpoint: a pass-through in front of anvil that makes the
 * standard time travel work on a chain that mines each block one second after the last.
 *
 * Why the chain mines that way: left to the wall clock, anvil mines every block of the same second
 * with the same timestamp, and prices `eth_estimateGas` in the block it would mine now. An estimate
 * made in the latest block's second then sees a timestamp-derived value written back unchanged
 * (a deadline `block.timestamp + period` set twice in that second), which costs less than a changed
 * one; if the transaction lands in the next second, a wallet that sends the bare estimate as its gas
 * limit (viem does) runs out of gas. With `anvil_setBlockTimestampInterval(1)` every block is one
 * second after the last, so the estimate and the block agree on the timestamp.
 *
 * Why the proxy: under that interval anvil ignores the offset `evm_increaseTime` adds (and the
 * `interval` of `anvil_mine`/`hardhat_mine`), so time travel moved a single second. Here
 * `evm_increaseTime(n)` goes to anvil (its answer is anvil's) and then pins the next block's
 * timestamp to the pending one plus n (`evm_setNextBlockTimestamp`), as `evm_increaseTime` + `evm_mine`
 * does on any node; `anvil_mine(blocks, interval)` mines under that interval, then restores one second.
 * Everything else, WebSocket upgrades included (raw, untranslated), is forwarded untouched.
 */
export interface TimeTravelProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** Methods rewritten here; a body mentioning none of them is forwarded without being parsed. */
const TRANSLATED = new Set(["evm_increaseTime", "anvil_mine", "hardhat_mine"]);
const MENTIONS = /increaseTime|_mine"/;

/** The dev chain's block timestamp interval, in seconds. */
export const BLOCK_INTERVAL = 1;

export async function startTimeTravelProxy(
  upstreamUrl: string,
  opts: { port?: number } = {},
): Promise<TimeTravelProxy> {
  const upstream = new URL(upstreamUrl);
  const agent = new Agent({ keepAlive: true });
  let nextId = 1;

  /** One JSON-RPC call to anvil: its whole answer object. */
  const call = async (method: string, params: unknown[]): Promise<{ result?: unknown; error?: unknown }> => {
    const res = await fetch(upstreamUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    });
    return (await res.json()) as { result?: unknown; error?: unknown };
  };
  const must = async (method: string, params: unknown[]): Promise<unknown> => {
    const r = await call(method, params);
    if (r.error !== undefined) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  };

  // Time travel is read-modify-write on anvil's clock: one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  const translate = (req: RpcRequest): Promise<object> =>
    serialized(async () => {
      const params = Array.isArray(req.params) ? req.params : [];
      const answer = (r: { result?: unknown; error?: unknown }) =>
        r.error !== undefined
          ? { jsonrpc: "2.0", id: req.id ?? null, error: r.error }
          : { jsonrpc: "2.0", id: req.id ?? null, result: r.result };
      try {
        if (req.method === "evm_increaseTime") {
          const r = await call("evm_increaseTime", params);
          if (r.error === undefined && BigInt(params[0] as string | number) > 0n) {
            const pending = (await must("eth_getBlockByNumber", ["pending", false])) as { timestamp: string };
            const next = BigInt(pending.timestamp) + BigInt(params[0] as string | number);
            await must("evm_setNextBlockTimestamp", [`0x${next.toString(16)}`]);
          }
          return answer(r);
        }
        // anvil_mine / hardhat_mine: [blocks, interval]
        // No interval, or one of at most a second (viem sends 0 when none is given): the chain's own
        // one second apart. A longer one: mined under it, then the chain's restored.
        const raw = params[1];
        const interval = raw === undefined || raw === null ? 0n : BigInt(raw as string | number);
        if (interval <= BigInt(BLOCK_INTERVAL)) return answer(await call(req.method as string, params.slice(0, 1)));
        await must("anvil_setBlockTimestampInterval", [Number(interval)]);
        try {
          return answer(await call(req.method as string, [params[0]]));
        } finally {
          await must("anvil_setBlockTimestampInterval", [BLOCK_INTERVAL]);
        }
      } catch (err) {
        return { jsonrpc: "2.0", id: req.id ?? null, error: { code: -32603, message: (err as Error).message } };
      }
    });

  /** Forwards one HTTP request to anvil as it is and streams the answer back. */
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    // The body is read whole and sent with its length.
    const { "transfer-encoding": _chunked, ...rest } = req.headers;
    const headers = { ...rest, host: upstream.host, "content-length": String(body.length) };
    const up = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on("error", (err) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: err.message } }));
    });
    up.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let parsed: RpcRequest | RpcRequest[] | undefined;
      if (req.method === "POST" && MENTIONS.test(body.toString("latin1"))) {
        try {
          parsed = JSON.parse(body.toString("utf8"));
        } catch {
          parsed = undefined;
        }
      }
      const items = parsed === undefined ? [] : Array.isArray(parsed) ? parsed : [parsed];
      if (!items.some((r) => r && typeof r === "object" && TRANSLATED.has(r.method as string))) {
        forward(req, res, body);
        return;
      }
      // In order, each on its own: a batch keeps its order, and its plain calls see the moved clock.
      void (async () => {
        const answers: object[] = [];
        for (const item of items) {
          if (item && typeof item === "object" && TRANSLATED.has(item.method as string))
            answers.push(await translate(item));
          else {
            const r: { result?: unknown; error?: unknown } = await call(
              String(item?.method),
              Array.isArray(item?.params) ? item.params : [],
            ).catch((err: Error) => ({ error: { code: -32603, message: err.message } }));
            const outcome = r.error !== undefined ? { error: r.error } : { result: r.result };
            answers.push({ jsonrpc: "2.0", id: item?.id ?? null, ...outcome });
          }
        }
        res.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" });
        res.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
      })();
    });
  });

  // WebSocket (and any other upgrade): a raw TCP pipe to anvil.
  const piped = new Set<Socket>();
  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    piped.add(socket);
    socket.once("close", () => piped.delete(socket));
    const up = connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on("error", () => socket.destroy());
    up.on("close", () => socket.destroy());
    socket.on("error", () => up.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of piped) s.destroy();
        agent.destroy();
      }),
  };
}
