import { randomUUID } from "node:crypto";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { McpServer } from "@modelcontextprotocol/server";
import type { Request, Response } from "express";
import { sendError } from "../doors/httpErrors.js";
import { DocketError } from "../errors/errors.js";
import type { Logger } from "../log.js";
import type { ReadAhead } from "./jsonBounds.js";
import { jsonRpcError } from "./jsonRpc.js";
import type { McpServerFactory } from "./server.js";
import { selectedTools } from "./toolFilter.js";

export interface SessionLimits {
  /** Open sessions at most (MCP_HTTP_MAX_SESSIONS); one more initialize is refused with 503. */
  maxSessions: number;
  /** A session with no request and no open stream for this long is closed (MCP_HTTP_SESSION_IDLE_SECONDS). */
  idleMs: number;
}

interface Session {
  server: McpServer;
  transport: NodeStreamableHTTPServerTransport;
  /** Requests and streams (the GET stream notifications travel on) still open. */
  open: number;
  lastSeen: number;
}

/**
 * Streamable HTTP with sessions, at `/mcp/session`, for 2025-era agents that want docket to push
 * to them (resource subscriptions; a 2026-07-28 agent opens `subscriptions/listen` on `/mcp`
 * instead, since that revision has no sessions): a POST of `initialize` without `Mcp-Session-Id` opens a session (its
 * own server and the SDK's stateful transport) and names it in the `Mcp-Session-Id` response
 * header; later POSTs carry the header, a GET with it opens the standalone stream that
 * notifications travel on, a DELETE ends it. `/mcp` stays stateless.
 *
 * Bounded like SSE: at most `maxSessions` open (503 past it), and a session left idle (no request
 * in flight and no stream open) for `idleMs` is closed; a client listening on its GET stream is not
 * idle. Closing a session closes its server, which ends its subscriptions.
 */
export class StreamableHttpSessions {
  private readonly sessions = new Map<string, Session>();
  /** Sessions being initialized, counted against the bound before they have an id. */
  private opening = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly factory: McpServerFactory,
    private readonly log: Logger,
    private readonly limits: SessionLimits = { maxSessions: 100, idleMs: 600_000 },
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(Math.max(limits.idleMs / 4, 50), 30_000));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** POST, GET and DELETE /mcp/session */
  handle = async (req: Request, res: Response): Promise<void> => {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = this.sessions.get(id);
      if (!session) {
        // The spec's answer to a session the server no longer knows: the client initializes again.
        return jsonRpcError(res, 404, -32001, "no such MCP session (it closed or timed out); initialize a new one");
      }
      return this.serve(session, req, res);
    }
    if (req.method !== "POST") {
      return jsonRpcError(res, 400, -32000, "Mcp-Session-Id header required: POST initialize to open a session");
    }
    return this.start(req, res);
  };

  /** A POST without a session id: an initialize request, which opens a session if there is room. */
  private async start(req: Request, res: Response): Promise<void> {
    const { maxSessions } = this.limits;
    if (this.sessions.size + this.opening >= maxSessions) {
      res.set("Retry-After", "5");
      return sendError(
        res,
        new DocketError(
          "SERVICE_UNAVAILABLE",
          `${maxSessions} MCP sessions are open, the most docket keeps; retry later or use stateless Streamable HTTP at /mcp`,
          { maxSessions },
        ),
      );
    }
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        this.sessions.set(sid, session);
      },
    });
    // Protocol.connect keeps this handler and calls it when the transport closes (DELETE, close()).
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    const server = this.factory(selectedTools(res));
    const session: Session = { server, transport, open: 0, lastSeen: Date.now() };
    this.opening++;
    try {
      await server.connect(transport);
      await this.serve(session, req, res);
    } catch (err) {
      this.log.error({ err: err instanceof Error ? err.stack : err }, "MCP session failed to start");
      if (!res.headersSent) jsonRpcError(res, 500, -32603, "internal server error");
    } finally {
      this.opening--;
    }
    // Not an initialize (the SDK answered 400): nothing to keep.
    if (transport.sessionId === undefined) void server.close();
  }

  private async serve(session: Session, req: Request, res: Response): Promise<void> {
    session.open++;
    session.lastSeen = Date.now();
    res.once("close", () => {
      session.open--;
      session.lastSeen = Date.now();
    });
    try {
      // The body (a POST's) was read and bounded by mcpJsonBounds; the transport checks the rest
      // (content type, JSON-RPC shape, session, version).
      await session.transport.handleRequest(req, res, (req as ReadAhead).parsedBody);
    } catch (err) {
      this.log.error({ err: err instanceof Error ? err.stack : err }, "MCP session request failed");
      if (!res.headersSent) jsonRpcError(res, 500, -32603, "internal server error");
    }
  }

  /** Closes the sessions idle for longer than the limit. */
  private sweep(): void {
    const cutoff = Date.now() - this.limits.idleMs;
    for (const [id, s] of this.sessions) {
      if (s.open > 0 || s.lastSeen > cutoff) continue;
      this.sessions.delete(id);
      this.log.info({ sessionId: id, idleMs: this.limits.idleMs }, "MCP session idle: closed");
      void s.server.close();
    }
  }

  /** Ends every session (their GET streams close), so the HTTP server can stop. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(open.map((s) => s.server.close()));
  }
}
