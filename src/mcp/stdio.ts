import { serveStdio as serveSdkStdio } from "@modelcontextprotocol/server/stdio";
import type { Ctx } from "../operations/kernel/operation.js";
import { type BuildServerOptions, buildServer } from "./server.js";

export interface StdioSession {
  /** Resolves when the client goes away: stdin ends or the transport closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves MCP over this process's stdin/stdout, in the era the client opens with (the SDK's
 * `serveStdio`): `initialize` pins a 2025-era server, `server/discover` (or any request with the
 * `_meta` envelope) a 2026-07-28 one, whose resource updates the SDK routes onto the client's
 * `subscriptions/listen` streams. stdout carries JSON-RPC and nothing else (docket logs to
 * stderr). The session ends when stdin ends, as it does when the client exits.
 */
export async function serveStdio(ctx: Ctx, opts: BuildServerOptions): Promise<StdioSession> {
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const handle = serveSdkStdio(
    ({ era }) => {
      const server = buildServer(ctx, { ...opts, era, forwardEvents: era === "modern" });
      const onclose = server.server.onclose;
      server.server.onclose = () => {
        onclose?.();
        ended();
      };
      return server;
    },
    { onerror: (err) => ctx.log.warn({ err: err.message }, "MCP stdio error") },
  );
  process.stdin.once("end", () => ended());
  process.stdin.once("close", () => ended());
  return { closed, close: () => handle.close() };
}
