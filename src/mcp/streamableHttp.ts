import { toNodeHandler } from "@modelcontextprotocol/node";
import type { McpServer } from "@modelcontextprotocol/server";
import {
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  InMemoryServerEventBus,
  type McpHttpHandler,
} from "@modelcontextprotocol/server";
import type { Request, Response } from "express";
import type { Logger } from "../log.js";
import type { Operation } from "../operations/kernel/operation.js";
import type { Era } from "./era.js";
import { jsonRpcError } from "./jsonRpc.js";
import { selectedTools } from "./toolFilter.js";

/** Builds the server for one request of the stateless endpoint, in the era the SDK classified it. */
export type EraServerFactory = (era: Era, tools?: readonly Operation[]) => McpServer;

/**
 * Stateless Streamable HTTP at `/mcp` (and the per-request selection routes), both protocol eras
 * through the SDK's one entry (`createMcpHandler`): a 2026-07-28 request (its `_meta` envelope) is
 * served by a server built for it, a 2025-era one (initialize, no envelope) by the SDK's stateless
 * legacy fallback, a server and transport of its own per POST either way. The 2025 era has no
 * sessions here, so GET and DELETE are refused with 405. 2026-07-28 `subscriptions/listen` streams
 * are served by the entry too, fed by `bus` (docket publishes each event's resource URIs on it).
 *
 * One entry per tool selection (the selections are shared arrays, see toolSelection), all on the
 * one bus. A POST whose body the cached-call fast path read ahead (src/mcp/cachedCall.ts) is
 * handed on parsed.
 */
export function streamableHttpHandlers(
  factory: EraServerFactory,
  log: Logger,
  opts: {
    /**
     * A `subscriptions/listen` request about to be served (its body; its response, open once its
     * headers are sent): a message refuses it (-32602, before the SDK sees it).
     */
    onListen?: (body: unknown, res: Response) => string | undefined;
  } = {},
) {
  const bus = new InMemoryServerEventBus((err) => log.warn({ err: err.message }, "MCP subscription listener failed"));
  const onerror = (err: Error) => log.debug({ err: err.message }, "MCP Streamable HTTP request refused");
  const entries: McpHttpHandler[] = [];
  const make = (tools?: readonly Operation[]) => {
    const entry = withoutJsonModeWarning(log, () =>
      createMcpHandler(({ era }) => factory(era, tools), {
        legacy: "stateless",
        bus,
        onerror,
        // Docket's answers are one result each: JSON, never a one-event stream, costs both ends less.
        responseMode: "json",
      }),
    );
    entries.push(entry);
    return toNodeHandler(entry, {
      onerror: (err) => log.error({ err: err.stack }, "MCP Streamable HTTP request failed"),
    });
  };
  const all = make();
  // Calls being answered (not 2026-07-28 listen streams, which last): shutdown lets them finish.
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const bySelection = new WeakMap<readonly Operation[], ReturnType<typeof make>>();

  /**
   * Counts a request as in flight from its first middleware on (before its body is read), so a
   * shutdown that starts while a call's body is still arriving lets it finish. A 2026-07-28 listen
   * stream, which lasts, is not counted (known by its Mcp-Method header, or later by its body).
   */
  const track = (req: Request, res: Response, next: () => void) => {
    if (req.headers["mcp-method"] !== "subscriptions/listen") {
      inFlight++;
      res.locals.inFlight = true;
      res.once("close", () => untrack(res));
    }
    next();
  };
  function untrack(res: Response): void {
    if (!res.locals.inFlight) return;
    res.locals.inFlight = false;
    if (--inFlight === 0) drained?.();
  }

  const post = async (req: Request, res: Response) => {
    const tools = selectedTools(res);
    let handle = all;
    if (tools) {
      handle = bySelection.get(tools) ?? make(tools);
      bySelection.set(tools, handle);
    }
    const read = req as Request & { rawBody?: Buffer; parsedBody?: unknown };
    if (read.rawBody !== undefined && read.parsedBody === undefined) {
      // Read ahead and not JSON: the SDK would say the same, but has no stream left to read.
      return jsonRpcError(res, 400, -32700, "parse error: the body is not JSON");
    }
    // A 2026-07-28 request names its method in a header; its body was not read ahead then.
    const listen =
      req.headers["mcp-method"] === "subscriptions/listen" ||
      (read.parsedBody as { method?: unknown } | undefined)?.method === "subscriptions/listen";
    if (listen && read.rawBody === undefined) {
      const body = await readBody(req);
      if (!body) return jsonRpcError(res, 413, -32600, "request body too large");
      read.rawBody = body;
      try {
        read.parsedBody = JSON.parse(read.rawBody.toString("utf8"));
      } catch {
        return jsonRpcError(res, 400, -32700, "parse error: the body is not JSON");
      }
    }
    if (listen) {
      const refused = opts.onListen?.(read.parsedBody, res);
      if (refused !== undefined) return jsonRpcError(res, 400, -32602, refused);
      untrack(res);
      watchWhileOpen(read.parsedBody, res);
    }
    try {
      await handle(req, res, read.parsedBody);
    } catch (err) {
      log.error({ err: err instanceof Error ? err.stack : err }, "MCP Streamable HTTP request failed");
      if (!res.headersSent) jsonRpcError(res, 500, -32603, "internal server error");
    }
  };
  /** The resource URIs each open listen stream's filter names, counted (two streams may name one). */
  const listened = new Map<string, number>();
  const watchWhileOpen = (body: unknown, res: Response) => {
    const uris = resourceSubscriptions(body);
    for (const uri of uris) listened.set(uri, (listened.get(uri) ?? 0) + 1);
    res.once("close", () => {
      for (const uri of uris) {
        const n = (listened.get(uri) ?? 1) - 1;
        if (n === 0) listened.delete(uri);
        else listened.set(uri, n);
      }
    });
  };
  const notAllowed = (_req: Request, res: Response) => {
    res.set("Allow", "POST");
    jsonRpcError(res, 405, -32000, "method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages to it");
  };
  /** Ends the listen streams, once the calls in flight are answered (or `graceMs` has passed). */
  const close = async (graceMs: number) => {
    if (inFlight > 0) {
      await Promise.race([
        new Promise<void>((r) => {
          drained = r;
        }),
        new Promise((r) => setTimeout(r, graceMs).unref()),
      ]);
    }
    await Promise.allSettled(entries.map((e) => e.close()));
  };
  /**
   * What the open listen streams watch: the bus cannot say (the SDK keeps each stream's filter to
   * itself), so docket reads it from the listen request, for what names no resource (a reorg).
   */
  const listenedUris = (): string[] => [...listened.keys()];
  return { track, post, notAllowed, bus, listenedUris, close };
}

/** A request's body, or undefined past the SDK's own cap on one (the rest is not read). */
async function readBody(req: Request): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > DEFAULT_MAX_REQUEST_BODY_SIZE) return undefined;
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A `subscriptions/listen` request's `resourceSubscriptions` (its strings; nothing if malformed, the SDK refuses it). */
export function resourceSubscriptions(body: unknown): string[] {
  const uris = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params?.notifications
    ?.resourceSubscriptions;
  return Array.isArray(uris) ? [...new Set(uris.filter((u): u is string => typeof u === "string"))] : [];
}

/**
 * The SDK warns on the console each time a handler is made in JSON response mode, that mid-call
 * notifications are dropped. Docket sends none (its answers are one result; listen streams are SSE
 * regardless), so that line is a choice already made, not news: it goes to the debug log, and
 * anything else the SDK says while the handler is made still reaches the console.
 */
function withoutJsonModeWarning<T>(log: Logger, make: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("responseMode: 'json' drops mid-call notifications")) {
      log.debug({ sdk: args[0] }, "MCP JSON response mode");
      return;
    }
    warn(...args);
  };
  try {
    return make();
  } finally {
    console.warn = warn;
  }
}
