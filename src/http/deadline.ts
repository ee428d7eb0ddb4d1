import type { NextFunction, Request, Response } from "express";
import { sendError } from "../doors/httpErrors.js";
import { DocketError } from "../errors/errors.js";
import type { Logger } from "../log.js";

/**
 * The last resort against a request that never answers (a handler that lost its response, a
 * promise that never settles): a request with nothing sent after `ms` gets 503 SERVICE_UNAVAILABLE
 * in the error envelope, and the hang is logged. Streams (`/events`, MCP's SSE and session streams)
 * send their headers at once and are left alone; so is a request answered in time, whose timer is
 * dropped when it finishes. Every other error path answers by itself, well within this bound
 * (RPC_TIMEOUT_MS and RPC_RETRY_BUDGET_MS bound a chain read); this only catches the bug nobody
 * foresaw.
 */
export function answerWithin(ms: number, log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const timer = setTimeout(() => {
      if (res.headersSent || res.writableEnded) return;
      log.error({ method: req.method, url: req.originalUrl, ms }, "a request had no answer in time: sent 503");
      sendError(
        res,
        new DocketError("SERVICE_UNAVAILABLE", `docket did not answer within ${ms} ms; retry later`, { timeoutMs: ms }),
      );
    }, ms);
    timer.unref();
    // "close" follows every response, finished or cut off.
    res.once("close", () => clearTimeout(timer));
    next();
  };
}
