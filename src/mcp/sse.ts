// SDK 2.x has no SSE server transport (HTTP+SSE is deprecated): this route alone keeps SDK 1.x's.
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer, Transport } from "@modelcontextprotocol/server";
import type { Request, Response } from "express";
import { sendError } from "../doors/httpErrors.js";
import { DocketError } from "../errors/errors.js";
import type { Logger } from "../log.js";
import type { ReadAhead } from "./jsonBounds.js";
import { jsonRpcError } from "./jsonRpc.js";
import type { McpServerFactory } from "./server.js";
import { selectedTools } from "./toolFilter.js";

interface Session {
  server: McpServer;
  transport: SSEServerTransport;
}

export interface SseLimits {
  /** Open sessions at most (MCP_SSE_MAX_SESSIONS); one more is refused with 503. */
  maxSessions: number;
  /** Bytes a session's stream may hold unread (MCP_SSE_MAX_QUEUED_BYTES); past it the session is closed. */
  maxQueuedBytes: number;
}

/**
 * The SDK's SSE transport writes every message to the stream whatever the client reads (it ignores
 * backpressure), so a client that never reads would make docket buffer without end. This one looks
 * at what is still queued from earlier messages before it writes another: past the bound, the
 * client is not keeping up, and `overflow` ends the session instead. One message larger than the
 * bound alone never trips it (tools/list is about 78 kB), so a session holds at most the bound plus
 * one message.
 */
class BoundedSseTransport extends SSEServerTransport {
  constructor(
    endpoint: string,
    private readonly out: Response,
    private readonly maxQueuedBytes: number,
    private readonly overflow: () => void,
  ) {
    super(endpoint, out);
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    if (this.out.writableLength > this.maxQueuedBytes) return this.overflow();
    await super.send(message);
  }
}

/**
 * The legacy HTTP+SSE transport (protocol 2024-11-05, deprecated since), for clients that predate
 * Streamable HTTP, on SDK 1.x's transport (2.x dropped it) driving a 2.x server of the 2025 era:
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
    private readonly limits: SseLimits = { maxSessions: 100, maxQueuedBytes: 1_048_576 },
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** GET /sse */
  open = async (_req: Request, res: Response): Promise<void> => {
    const { maxSessions, maxQueuedBytes } = this.limits;
    if (this.sessions.size >= maxSessions) {
      res.set("Retry-After", "5");
      return sendError(
        res,
        new DocketError(
          "SERVICE_UNAVAILABLE",
          `${maxSessions} MCP SSE sessions are open, the most docket keeps; retry later or use Streamable HTTP at /mcp`,
          {
            maxSessions,
          },
        ),
      );
    }
    let id = "";
    const transport = new BoundedSseTransport(this.messagesPath, res, maxQueuedBytes, () => {
      // Its client is not reading: drop the connection (and what it queued); "close" ends the session.
      this.log.warn(
        { sessionId: id, queued: res.writableLength, maxQueuedBytes },
        "MCP SSE client not reading: session closed",
      );
      res.destroy();
    });
    const server = this.factory(selectedTools(res));
    id = transport.sessionId;
    this.sessions.set(id, { server, transport });
    res.on("close", () => {
      if (this.sessions.delete(id)) void server.close();
    });
    try {
      // The 1.x transport speaks the same JSON-RPC messages through the same Transport shape; only
      // the two SDKs' nominal message types differ.
      await server.connect(transport as unknown as Transport);
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
      // The body was read and bounded by mcpJsonBounds; the transport checks the message.
      await session.transport.handlePostMessage(req, res, (req as ReadAhead).parsedBody);
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
