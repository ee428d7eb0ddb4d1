import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import type { Request, Response } from "express";
import type { Logger } from "../log.js";
import { jsonRpcError } from "./jsonRpc.js";
import type { McpServerFactory } from "./server.js";

interface Session {
  server: McpServer;
  transport: SSEServerTransport;
}

/**
 * The legacy HTTP+SSE transport (protocol 2024-11-05), for clients that predate Streamable HTTP:
 * `GET /sse` opens a session's event stream and names its message endpoint, `POST
 * /messages?sessionId=...` delivers the client's messages. Sessions live until the stream closes
 * or docket stops.
 */
export class SseSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly factory: McpServerFactory,
    private readonly log: Logger,
    private readonly messagesPath = "/messages",
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** GET /sse */
  open = async (_req: Request, res: Response): Promise<void> => {
    const transport = new SSEServerTransport(this.messagesPath, res);
    const server = this.factory();
    const id = transport.sessionId;
    this.sessions.set(id, { server, transport });
    res.on("close", () => {
      if (this.sessions.delete(id)) void server.close();
    });
    try {
      await server.connect(transport);
    } catch (err) {
      this.sessions.delete(id);
      this.log.error({ err: err instanceof Error ? err.stack : err }, "MCP SSE session failed to start");
      if (!res.headersSent) jsonRpcError(res, 500, -32603, "internal server error");
    }
  };

  /** POST /messages?sessionId=... */
  message = async (req: Request, res: Response): Promise<void> => {
    const id = typeof req.query.sessionId === "string" ? req.query.sessionId : undefined;
    if (!id) return jsonRpcError(res, 400, -32000, "missing sessionId query parameter");
    const session = this.sessions.get(id);
    if (!session)
      return jsonRpcError(res, 404, -32001, "no such SSE session (it may have closed); open a new one with GET /sse");
    try {
      // The transport reads and checks the body itself.
      await session.transport.handlePostMessage(req, res);
    } catch (err) {
      this.log.error({ err: err instanceof Error ? err.stack : err }, "MCP SSE message failed");
      if (!res.headersSent) jsonRpcError(res, 500, -32603, "internal server error");
    }
  };

  /** Ends every open session: its event stream closes, so the HTTP server can stop. */
  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(open.map((s) => s.server.close()));
  }
}
