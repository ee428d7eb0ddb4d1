import type { NextFunction, Request, Response } from "express";
import { asDocketError, DocketError } from "../errors/errors.js";
import type { Logger } from "../log.js";

/**
 * Failures of express itself (the router, the body reader), in the documented envelope. Anything
 * else it refuses as the client's fault (a 4xx http-error, e.g. a gzip body that does not inflate)
 * is 400 INVALID_INPUT, not an unexpected 500.
 */
function fromExpress(err: {
  type?: string;
  status?: unknown;
  expose?: unknown;
  maxDepth?: unknown;
}): DocketError | undefined {
  // The router could not percent-decode a path parameter (`/cases/%ZZ`).
  if (err instanceof URIError && err.status === 400) {
    return new DocketError("INVALID_INPUT", "the path is not valid percent-encoding");
  }
  switch (err.type) {
    case "entity.parse.failed":
      return new DocketError("INVALID_JSON", "the request body is not valid JSON");
    case "entity.too.deep":
      return new DocketError("INVALID_INPUT", `the request body's JSON nests deeper than ${err.maxDepth} levels`, {
        maxDepth: err.maxDepth,
      });
    case "entity.too.large":
      return new DocketError("PAYLOAD_TOO_LARGE", "the request body is too large");
    case "encoding.unsupported":
    case "charset.unsupported":
      return new DocketError("UNSUPPORTED_MEDIA_TYPE", "the request body's encoding or charset is not supported");
    case "request.aborted":
    case "request.size.invalid":
    case "stream.encoding.set":
      return new DocketError("INVALID_INPUT", "the request body could not be read");
    default:
      if (err.expose === true && typeof err.status === "number" && err.status >= 400 && err.status < 500) {
        return new DocketError("INVALID_INPUT", "the request body could not be read");
      }
      return undefined;
  }
}

/** The one place an error becomes an HTTP response: the envelope, the status, never a stack. */
export function sendError(res: Response, err: unknown, log?: Logger): void {
  const e = err instanceof DocketError ? err : (fromExpress(err as { type?: string }) ?? asDocketError(err));
  // A revert is the contract answering; only the unexpected is logged with its stack.
  if (e.code === "INTERNAL_ERROR") {
    log?.error({ code: e.code, err: e.cause instanceof Error ? e.cause.stack : e.cause }, e.message);
  } else if (e.code === "RPC_ERROR") {
    log?.warn({ code: e.code, err: e.cause instanceof Error ? e.cause.message : e.cause }, e.message);
  }
  if (res.headersSent) return;
  res.status(e.status).set("Cache-Control", "no-store").json(e.toEnvelope());
}

export function errorMiddleware(log: Logger) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => sendError(res, err, log);
}
