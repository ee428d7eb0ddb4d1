import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { NextFunction, Request, Response } from "express";
import { nestedDeeperThan } from "../doors/jsonDepth.js";
import { jsonRpcError } from "./jsonRpc.js";

/** The bounds on a JSON body docket reads (JSON_MAX_DEPTH; MCP_MAX_BODY_BYTES for MCP). */
export interface JsonBounds {
  maxBytes: number;
  maxDepth: number;
}

/** A request whose body was read ahead: the bytes, and the JSON (undefined when it is not JSON). */
export type ReadAhead = Request & { rawBody?: Buffer; parsedBody?: unknown };

/**
 * The first middleware of every MCP POST route (/mcp and its variants, /mcp/session, /messages):
 * reads the body once, up to `maxBytes` (413, JSON-RPC -32600 past it), refuses JSON nested deeper
 * than `maxDepth` (400, -32600), text that is not JSON (400, -32700) and a request whose params its
 * method's schema refuses (400, -32602; see invalidParams), and hands the parsed
 * message on (`parsedBody`), which the SDK's transports take instead of reading the stream. So a
 * hostile envelope (a 10,000-level id, params or arguments) is refused at the door, as REST refuses
 * it, and never reaches the SDK's validation, whose recursion it would overflow into a 500.
 */
export function mcpJsonBounds(bounds: JsonBounds) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const read = req as ReadAhead;
    if (read.rawBody !== undefined || req.readableEnded) {
      next();
      return;
    }
    if (Number(req.headers["content-length"]) > bounds.maxBytes) {
      tooLarge(res, bounds);
      return;
    }
    // A small body comes in the packet that brought the headers: the parser has buffered all of it
    // by the next tick (the message is not marked complete yet, but its Content-Length is in), and
    // it is taken in one read, without switching the stream to flowing mode and waiting for its
    // data and end events. Otherwise (a slow or large body, a chunked one) it is streamed.
    process.nextTick(readBuffered, req, res, next, bounds);
  };
}

function readBuffered(req: Request, res: Response, next: NextFunction, bounds: JsonBounds): void {
  if (req.destroyed) {
    res.destroy();
    return;
  }
  const declared = req.headers["content-length"];
  const whole = req.complete || (declared !== undefined && req.readableLength === Number(declared));
  if (!whole || req.readableFlowing) {
    stream(req, res, next, bounds);
    return;
  }
  if (req.readableLength > bounds.maxBytes) {
    req.resume();
    tooLarge(res, bounds);
    return;
  }
  // null: the body is empty. read() takes every byte buffered, which is the whole body here.
  const body = (req.read() as Buffer | null) ?? Buffer.alloc(0);
  if (checked(req as ReadAhead, res, body, bounds)) next();
}

/**
 * The body as it arrives, chunk by chunk, up to `maxBytes`. With a Content-Length, the message goes
 * on as soon as that many bytes are in (the parser has checked the length): it need not wait a
 * tick more for the stream's end event.
 */
function stream(req: Request, res: Response, next: NextFunction, bounds: JsonBounds): void {
  const declared = req.headers["content-length"];
  const length = declared === undefined ? -1 : Number(declared);
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  let done = false;
  const finish = () => {
    done = true;
    if (checked(req as ReadAhead, res, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), bounds))
      next();
  };
  req.on("data", (c: Buffer) => {
    if (over || done) return;
    size += c.length;
    if (size > bounds.maxBytes) {
      over = true;
      chunks.length = 0;
      tooLarge(res, bounds);
      return;
    }
    chunks.push(c);
    if (size === length) finish();
  });
  req.once("error", () => res.destroy());
  req.once("end", () => {
    if (!over && !done) finish();
  });
}

function tooLarge(res: Response, bounds: JsonBounds): void {
  res.set("Connection", "close");
  jsonRpcError(res, 413, -32600, `the request body is larger than ${bounds.maxBytes} bytes (MCP_MAX_BODY_BYTES)`);
}

/** Answers what is refused; true when the message may go on (its bytes and JSON on the request). */
function checked(read: ReadAhead, res: Response, body: Buffer, bounds: JsonBounds): boolean {
  try {
    if (nestedDeeperThan(body, bounds.maxDepth)) {
      jsonRpcError(res, 400, -32600, `the JSON nests deeper than ${bounds.maxDepth} levels (JSON_MAX_DEPTH)`);
      return false;
    }
    read.rawBody = body;
    try {
      read.parsedBody = JSON.parse(body.toString("utf8"));
    } catch {
      jsonRpcError(res, 400, -32700, "parse error: the body is not JSON");
      return false;
    }
    const bad = invalidParams(read.parsedBody);
    if (bad) {
      res.status(400).set("Cache-Control", "no-store").json({ jsonrpc: "2.0", id: bad.id, error: bad.error });
      return false;
    }
    return true;
  } catch {
    // Never let a body take the process down: whatever could not be checked is refused.
    if (!res.headersSent) jsonRpcError(res, 400, -32600, "the request could not be read as a JSON-RPC message");
    return false;
  }
}

/**
 * The SDK's own schemas of the requests whose params its handlers parse: a request that does not fit
 * one is answered here with -32602 (invalid params), where the SDK's stateless handler would answer
 * its parse failure as -32603 (internal error).
 */
const paramsSchemas = new Map<string, { safeParse(v: unknown): { success: boolean; error?: { issues: unknown[] } } }>([
  ["initialize", InitializeRequestSchema],
  ["resources/read", ReadResourceRequestSchema],
  ["resources/subscribe", SubscribeRequestSchema],
  ["resources/unsubscribe", UnsubscribeRequestSchema],
  ["prompts/get", GetPromptRequestSchema],
  ["completion/complete", CompleteRequestSchema],
  ["logging/setLevel", SetLevelRequestSchema],
]);

/** The first request (of a message or a batch) whose params its method's schema refuses, as a JSON-RPC error. */
function invalidParams(body: unknown): { id: unknown; error: { code: number; message: string } } | undefined {
  for (const m of Array.isArray(body) ? body : [body]) {
    if (typeof m !== "object" || m === null) continue;
    const { method, id } = m as { method?: unknown; id?: unknown };
    const schema = typeof method === "string" ? paramsSchemas.get(method) : undefined;
    if (!schema) continue;
    const r = schema.safeParse(m);
    if (r.success) continue;
    const validId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
    const issue = r.error?.issues[0] as { path?: unknown[]; message?: string } | undefined;
    const where = issue?.path?.length ? issue.path.join(".") : "params";
    return {
      id: validId,
      error: { code: -32602, message: `invalid params for ${method}: ${where}: ${issue?.message ?? "invalid"}` },
    };
  }
  return undefined;
}
