import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Ctx } from "../operations/operation.js";
import { type BuildServerOptions, buildServer } from "./server.js";

export interface StdioSession {
  /** Resolves when the client goes away: stdin ends or the transport closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves MCP over this process's stdin/stdout. stdout carries JSON-RPC and nothing else (docket
 * logs to stderr). The session ends when stdin ends, as it does when the client exits.
 */
export async function serveStdio(ctx: Ctx, opts: BuildServerOptions): Promise<StdioSession> {
  const server = buildServer(ctx, opts);
  const transport = new StdioServerTransport();
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => {
    ended = resolve;
  });
  transport.onclose = () => ended();
  process.stdin.once("end", () => ended());
  process.stdin.once("close", () => ended());
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
