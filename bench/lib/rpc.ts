/**
 * A bare JSON-RPC client for the bench: plain fetch, batches, no retries. The world builder talks to
 * anvil with it (anvil_* methods are not in viem's schema), and the cold-read item uses it to time one
 * bare round trip through the latency proxy.
 */

export interface RpcRequest {
  method: string;
  params?: unknown[];
}

interface RpcResponse {
  id: number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 1;

export class RpcError extends Error {
  override name = "RpcError";
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message} (${code})`);
  }
}

export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const id = nextId++;
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  const body = (await res.json()) as RpcResponse;
  if (body.error) throw new RpcError(method, body.error.code, body.error.message, body.error.data);
  return body.result as T;
}

/** One HTTP request carrying many JSON-RPC requests; results in request order, the first error thrown. */
export async function rpcBatch<T = unknown>(url: string, reqs: RpcRequest[], chunk = 500): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < reqs.length; i += chunk) {
    const part = reqs
      .slice(i, i + chunk)
      .map((r) => ({ jsonrpc: "2.0", id: nextId++, method: r.method, params: r.params ?? [] }));
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(part),
    });
    const body = (await res.json()) as RpcResponse[];
    const byId = new Map(body.map((r) => [r.id, r]));
    for (const p of part) {
      const r = byId.get(p.id);
      if (!r) throw new RpcError(p.method, -1, "no answer in the batch");
      if (r.error) throw new RpcError(p.method, r.error.code, r.error.message, r.error.data);
      out.push(r.result as T);
    }
  }
  return out;
}
