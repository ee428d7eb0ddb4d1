import { localhostHostValidation } from "@modelcontextprotocol/express";
import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import { compose, type Final } from "../doors/compose.js";
import { sendError } from "../doors/httpErrors.js";
import type { EventHub } from "../events/hub.js";
import type { EventHistory } from "../events/resume.js";
import type { Ctx, Operation } from "../operations/kernel/operation.js";
import { cachedToolCalls } from "./cachedCall.js";
import { type JsonBounds, mcpJsonBounds } from "./jsonBounds.js";
import { jsonRpcError } from "./jsonRpc.js";
import { originGuard } from "./originGuard.js";
import { servesInbox } from "./resources.js";
import { buildServer, type McpServerFactory } from "./server.js";
import { type SseLimits, SseSessions } from "./sse.js";
import { type EraServerFactory, resourceSubscriptions, streamableHttpHandlers } from "./streamableHttp.js";
import { type SessionLimits, StreamableHttpSessions } from "./streamableSession.js";
import { lastEventIdOf, updatedUris, updateMeta, updatesSince } from "./subscriptions.js";
import { toolSelection } from "./toolFilter.js";

export interface McpHttpOptions {
  /** The interface docket listens on (HOST): loopback turns on the Host-header check. */
  host: string;
  /** Every operation docket serves (the case resources read through two of them). */
  operations: readonly Operation[];
  /** The operations offered as tools: DOCKET_TOOLS, selected by the composition root. */
  tools: readonly Operation[];
  /**
   * The HTTP door's security chain (headers, CORS, rate limit), run first on every MCP route:
   * they are mounted before the app's own security layer, so that the router reaches them first.
   */
  security: RequestHandler[];
  /** CORS_ORIGINS: the browser origins allowed on the MCP endpoints too (see originGuard). */
  corsOrigins?: string;
  sse?: SseLimits;
  /** Bounds of the Streamable HTTP sessions at /mcp/session. */
  sessions?: SessionLimits;
  /**
   * The court events this replica sees (its follower's, and the other replicas' through Redis): what
   * the session transports' subscriptions (stdio, SSE, /mcp/session) listen to.
   */
  events?: EventHub;
  /** The events kept beyond the hub (the index): subscriptions resume from any id it holds. */
  history?: EventHistory;
  /** Cases per resources/list page (MCP_RESOURCE_PAGE_SIZE). */
  resourcePageSize?: number;
  /** A POSTed message's size and nesting at most (MCP_MAX_BODY_BYTES, JSON_MAX_DEPTH). */
  json?: JsonBounds;
  /**
   * Serves `POST /mcp` and `POST /mcp/readonly` ahead of express's router (createApp's `front`): the
   * same chain, one dispatch fewer for the most common MCP request (bench item 4).
   */
  front?: (method: string, path: string, handle: Final) => void;
}

/** The SDK's own cap on a request body (4 MiB), and a nesting no MCP message needs. */
export const DEFAULT_JSON_BOUNDS: JsonBounds = { maxBytes: 4 * 1024 * 1024, maxDepth: 64 };

export interface McpHttp {
  /** Open legacy SSE sessions. */
  readonly sseSessions: number;
  /** Open Streamable HTTP sessions (/mcp/session). */
  readonly httpSessions: number;
  /** Ends the SSE and HTTP sessions, whose streams would otherwise keep the HTTP server from closing. */
  close(graceMs?: number): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/**
 * Mounts MCP on docket's express app, beside the HTTP API: stateless Streamable HTTP at `/mcp`
 * (and at `/mcp/readonly`, `/mcp/x/{toolsets}` and `/mcp/x/{toolsets}/readonly`, which choose the
 * request's tools as github's MCP server does, as do the X-MCP-Toolsets, X-MCP-Tools and
 * X-MCP-Readonly headers on every route; DOCKET_TOOLS bounds them all),
 * Streamable HTTP with sessions at `/mcp/session` and legacy SSE at `GET /sse` + `POST /messages`;
 * the two with sessions take resource subscriptions (given the event hub). Bound to loopback, these routes refuse a Host header that
 * is not localhost, 127.0.0.1 or [::1] (the SDK's DNS-rebinding protection), so a web page cannot
 * reach them through a rebound domain name; on any interface they refuse a browser Origin that is
 * not allowed (originGuard).
 */
export function mountMcp(app: Express, ctx: Ctx, opts: McpHttpOptions): McpHttp {
  const { operations, tools, resourcePageSize, events, history } = opts;
  // The stateless endpoint: a 2026-07-28 server takes subscriptions (listen streams), a 2025 one does not.
  const factory: EraServerFactory = (era, selected = tools) =>
    buildServer(ctx, {
      operations,
      tools: selected,
      resourcePageSize,
      era,
      events: era === "modern" ? events : undefined,
    });
  const withSessions: McpServerFactory = (selected = tools) =>
    buildServer(ctx, { operations, tools: selected, resourcePageSize, events, history });
  const hostCheck = LOOPBACK.has(opts.host);
  const guard: RequestHandler[] = [
    ...opts.security,
    ...(hostCheck ? [rememberAllowedHosts(localhostHostValidation())] : []),
    originGuard(opts.corsOrigins ?? "*"),
  ];
  if (!hostCheck) {
    ctx.log.warn({ host: opts.host }, "MCP over HTTP is not bound to loopback: no Host-header (DNS rebinding) check");
  }

  const inbox = servesInbox(operations);
  const streamable = streamableHttpHandlers(factory, ctx.log, {
    // A listen stream given `_meta.lastEventId` is sent what the events since touched, once open.
    onListen: (body, res) => {
      let lastId: string | undefined;
      try {
        lastId = lastEventIdOf((body as { params?: Record<string, unknown> }).params ?? {});
      } catch (err) {
        return (err as Error).message;
      }
      if (lastId === undefined || !events) return undefined;
      const uris = resourceSubscriptions(body);
      const wanted = new Set(uris);
      const owed = async () => {
        for (let i = 0; i < 400 && !res.headersSent && !res.destroyed; i++) await new Promise((r) => setTimeout(r, 5));
        const updates = await updatesSince(events, history, lastId, uris, (e) =>
          updatedUris(e, inbox, () => uris).filter((u) => wanted.has(u)),
        );
        for (const [uri, _meta] of updates)
          streamable.bus.publish({ kind: "resource_updated", uri, params: { uri, _meta } });
      };
      owed().catch((err: unknown) =>
        ctx.log.warn({ err: (err as Error).message }, "MCP listen stream could not resume"),
      );
      return undefined;
    },
  });
  // Each event's resources, to the 2026-07-28 listen streams of every selection's entry (a reorg's: all they watch).
  const stopPublishing = events?.subscribe((e) => {
    for (const uri of updatedUris(e, inbox, streamable.listenedUris))
      streamable.bus.publish({ kind: "resource_updated", uri, params: { uri, _meta: updateMeta(e) } });
  });
  const cached = cachedToolCalls(ctx, tools);
  // Every POSTed message is read once, bounded in size and nesting, before anything else looks at it.
  const bounded = mcpJsonBounds(opts.json ?? DEFAULT_JSON_BOUNDS);
  const fail = (res: Response, err: unknown) => sendError(res, err, ctx.log);
  // Per-request tool selection: the X-MCP-* headers anywhere, the path on the stateless routes.
  const select = toolSelection(operations, tools);
  const selectReadonly = toolSelection(operations, tools, { readonly: true });
  for (const [path, selection] of [
    ["/mcp", select],
    ["/mcp/readonly", selectReadonly],
    ["/mcp/x/:toolsets", select],
    ["/mcp/x/:toolsets/readonly", selectReadonly],
  ] as const) {
    // A cached read's tools/call is answered before an SDK server is built for the request. The
    // chain is composed once (as the operations' routes are): the most common MCP request pays for
    // one express handler, not eight.
    const post = compose(
      [streamable.track, ...guard, selection, bounded, cached],
      (req, res) => {
        streamable.post(req, res).catch((err: unknown) => fail(res, err));
      },
      fail,
    );
    if (!path.includes(":")) opts.front?.("POST", path, post);
    app.post(path, (req, res) => post(req, res));
    app.all(path, ...guard, streamable.notAllowed);
  }

  const sessions = new StreamableHttpSessions(withSessions, ctx.log, opts.sessions);
  // A session's tools are chosen by the headers of the request that opens it.
  app.post("/mcp/session", ...guard, select, bounded, sessions.handle);
  app.get("/mcp/session", ...guard, sessions.handle);
  app.delete("/mcp/session", ...guard, sessions.handle);
  app.all("/mcp/session", ...guard, (_req, res) => {
    res.set("Allow", "GET, POST, DELETE");
    jsonRpcError(res, 405, -32000, "method not allowed: POST messages, GET the event stream, DELETE the session");
  });

  const sse = new SseSessions(withSessions, ctx.log, "/messages", opts.sse);
  app.get("/sse", ...guard, select, sse.open);
  app.post("/messages", ...guard, bounded, sse.message);

  return {
    get sseSessions() {
      return sse.size;
    },
    get httpSessions() {
      return sessions.size;
    },
    close: async (graceMs = 10_000) => {
      stopPublishing?.();
      await Promise.all([sse.close(), sessions.close(), streamable.close(graceMs)]);
    },
  };
}

/** Distinct Host values remembered as allowed at most (a client names one; the port varies little). */
const MAX_REMEMBERED_HOSTS = 64;

/**
 * The SDK's Host-header check, asked once per distinct Host value it allows: it parses the value
 * as a URL each time, and a client sends the same Host on every request. A refused value is asked
 * (and refused by the SDK) every time.
 */
function rememberAllowedHosts(check: RequestHandler): RequestHandler {
  const allowed = new Set<string>();
  return (req: Request, res: Response, next: NextFunction) => {
    const host = req.headers.host;
    if (host !== undefined && allowed.has(host)) return next();
    check(req, res, (err?: unknown) => {
      if (err === undefined && host !== undefined && allowed.size < MAX_REMEMBERED_HOSTS) allowed.add(host);
      next(err);
    });
  };
}
