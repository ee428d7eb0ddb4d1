import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Request, Response } from "express";
import type { Logger } from "../log.js";
import { jsonRpcError } from "./jsonRpc.js";
import type { McpServerFactory } from "./server.js";
import { selectedTools } from "./toolFilter.js";

/**
 * Streamable HTTP, stateless: every POST gets a server and transport of its own (the SDK refuses
 * to reuse one since 1.26), both closed when the response ends. There are no sessions, so GET (a
 * standalone event stream) and DELETE (ending a session) are refused with 405. Answers are plain
 * JSON rather than a one-event stream: docket's tools send nothing before their result, and JSON
 * costs both ends less (the cached-call fast path, src/mcp/cachedCall.ts, answers the same way).
 */
export function streamableHttpHandlers(factory: McpServerFactory, log: Logger) {
  const post = async (req: Request, res: Response) => {
    const server = factory(selectedTools(res));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      // The transport reads and checks the body itself (content type, JSON, size).
      await transport.handleRequest(req, res);
    } catch (err) {
      log.error({ err: err instanceof Error ? err.stack : err }, "MCP Streamable HTTP request failed");
      if (!res.headersSent) jsonRpcError(res, 500, -32603, "internal server error");
    }
  };
  const notAllowed = (_req: Request, res: Response) => {
    res.set("Allow", "POST");
    jsonRpcError(res, 405, -32000, "method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages to it");
  };
  return { post, notAllowed };
}
