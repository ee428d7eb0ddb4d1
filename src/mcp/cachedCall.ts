import { PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { NextFunction, Request, Response } from "express";
import { DoorKernel } from "../doors/kernel.js";
import type { Ctx, Operation } from "../operations/kernel/operation.js";
import { toolResult } from "./errors.js";
import type { ReadAhead } from "./jsonBounds.js";
import { selectedTools } from "./toolFilter.js";
import { toolArguments } from "./tools.js";

/** Bodies read ahead at most; anything larger (or of unknown length) goes to the SDK untouched. */
const MAX_BODY = 64 * 1024;

/**
 * Stateless Streamable HTTP builds an SDK server and transport per POST, and the transport turns
 * the node request into a web-standard one and back: for a cached read that costs several times
 * the read itself (bench item 4). This middleware, mounted before the SDK's handler on `POST /mcp`,
 * answers the one common case itself: a single, well-formed `tools/call` of a read whose answer is
 * fresh in the in-process cache, the same synchronous hit HTTP serves (the door kernel's `cached`). The answer
 * is the JSON-RPC response the SDK would send in JSON mode, built by the same `toolResult`.
 *
 * Anything else (another method, a batch, a notification, unusual headers, an unknown tool, input
 * that does not validate, a miss, a wrong chain, a 2026-07-28 call) goes on to the SDK with the
 * body it read handed over parsed (`parsedBody`, which the SDK's request adapter takes instead of
 * the stream), so every check and every error stays the SDK's.
 */
export function cachedToolCalls(ctx: Ctx, bound: readonly Operation[]) {
  // Per tool selection (the request's, see toolSelection; selections are shared arrays).
  const readsOf = new WeakMap<readonly Operation[], Map<string, Operation>>();
  // A tool's arguments validated to an input and cache key are remembered by the kernel, as HTTP's
  // GET URLs are: a repeated read skips validation (bounded; invalid arguments are not kept).
  const door = new DoorKernel(ctx);
  return (req: Request, res: Response, next: NextFunction): void => {
    // The body was read by mcpJsonBounds, first on the route; anything unusual is the SDK's to handle.
    const read = req as ReadAhead;
    if (read.rawBody === undefined || !eligible(req)) {
      next();
      return;
    }
    const tools = selectedTools(res) ?? bound;
    let reads = readsOf.get(tools);
    if (!reads) {
      reads = new Map(tools.filter((op) => op.cache).map((op) => [op.name, op]));
      readsOf.set(tools, reads);
    }
    const reply = answer(read.parsedBody, reads, door);
    if (reply === undefined) {
      next();
      return;
    }
    res.statusCode = 200;
    res.setHeader("Content-Type", "application/json");
    res.setHeader("Content-Length", reply.length);
    res.end(reply);
  };
}

/** Headers the SDK would accept for a POST, with a body small enough to read ahead. */
function eligible(req: Request): boolean {
  const h = req.headers;
  const length = Number(h["content-length"]);
  if (!(length > 0 && length <= MAX_BODY) || h["transfer-encoding"] !== undefined) return false;
  const accept = h.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  if (!/^application\/json\s*(;|$)/i.test(h["content-type"] ?? "")) return false;
  const version = h["mcp-protocol-version"];
  return version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version as string);
}

/**
 * The JSON-RPC response to a cached read's tools/call; undefined when the SDK should answer. Only
 * a 2025-era call (no `_meta` protocol-version envelope): a 2026-07-28 one goes through the SDK,
 * which checks its envelope and its Mcp-Method/Mcp-Name headers and stamps the result.
 */
function answer(msg: unknown, reads: Map<string, Operation>, door: DoorKernel): Buffer | undefined {
  if (!isObject(msg) || msg.jsonrpc !== "2.0" || msg.method !== "tools/call") return undefined;
  const { id, params } = msg;
  if (!(typeof id === "string" || Number.isSafeInteger(id)) || !isObject(params)) return undefined;
  if (isObject(params._meta) && params._meta[PROTOCOL_VERSION_META_KEY] !== undefined) return undefined;
  // Only absent arguments mean none: `null` is malformed, and the SDK path answers it so.
  const args = params.arguments === undefined ? {} : params.arguments;
  const op = typeof params.name === "string" ? reads.get(params.name) : undefined;
  if (!op || !isObject(args)) return undefined;
  let hit: ReturnType<DoorKernel["cached"]>;
  try {
    hit = door.cached(door.prepare(op, `${op.name}\n${JSON.stringify(args)}`, toolArguments, args));
  } catch {
    // Invalid input: the SDK path answers it with docket's error result.
    return undefined;
  }
  if (!hit) return undefined;
  const result = resultBytes(hit.body);
  // One buffer, written in place: the envelope's head, the result's bytes, the closing brace.
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
  const headLength = Buffer.byteLength(head);
  const out = Buffer.allocUnsafe(headLength + result.length + 1);
  out.write(head, 0, "utf8");
  result.copy(out, headLength);
  out[out.length - 1] = 0x7d; // }
  return out;
}

/**
 * A tool result's JSON bytes. A cached body is the same object on every hit (in-process store) and
 * is never mutated, so its result is serialised and encoded once: a hit copies bytes, it does not
 * build the 2 KB string anew (nor measure and encode it) for every call.
 */
const results = new WeakMap<object, Buffer>();
function resultBytes(body: unknown): Buffer {
  if (body === null || typeof body !== "object") return Buffer.from(JSON.stringify(toolResult(body)));
  let bytes = results.get(body);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(toolResult(body)));
    results.set(body, bytes);
  }
  return bytes;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
