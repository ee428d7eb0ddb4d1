import type { RequestHandler } from "express";
import { sendError } from "../doors/httpErrors.js";
import { DocketError } from "../errors/errors.js";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The MCP transport spec's Origin check for `/mcp`, `/sse` and `/messages`: a browser page may drive
 * them only from an allowed origin. Allowed: no Origin at all (agents, CLIs and servers send none),
 * docket's own origin, the origins listed in CORS_ORIGINS, and, while CORS_ORIGINS is `*` (the
 * default, meant for the read API), loopback origins only (a local MCP Inspector): `*` never opens
 * the tool endpoints to every site. Anything else is 403 ORIGIN_NOT_ALLOWED.
 */
export function originGuard(corsOrigins: string): RequestHandler {
  const any = corsOrigins.trim() === "*";
  const listed = new Set(any ? [] : corsOrigins.split(",").map((o) => o.trim().replace(/\/$/, "")));
  const allowed = (origin: string, host: string | undefined): boolean => {
    if (listed.has(origin)) return true;
    let u: URL;
    try {
      u = new URL(origin);
    } catch {
      return false; // "null" (a sandboxed frame, a file) and garbage
    }
    if (host !== undefined && u.host === host) return true;
    return any && LOOPBACK_HOSTS.has(u.hostname);
  };
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || allowed(origin, req.headers.host)) return next();
    sendError(
      res,
      new DocketError("ORIGIN_NOT_ALLOWED", `a page from ${origin} may not use docket's MCP endpoints`, {
        origin,
        allowed: any ? "docket's own origin and loopback origins (set CORS_ORIGINS to allow others)" : [...listed],
      }),
    );
  };
}
