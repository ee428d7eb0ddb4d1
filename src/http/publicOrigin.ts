import type { Request } from "express";

/**
 * Where the client reached docket: `protocol://host[:port]` as the request names it. Behind a
 * trusted proxy (TRUST_PROXY) express takes both from X-Forwarded-Proto and X-Forwarded-Host, so the
 * payment requirements' `resource` and the OpenAPI `servers` name the address the client used.
 */
export function publicOrigin(req: Request): string {
  return `${req.protocol}://${req.host ?? "localhost"}`;
}
