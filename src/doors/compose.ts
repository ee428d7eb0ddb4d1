import type { Request, RequestHandler, Response } from "express";

/** A request's last step: it answers. */
export type Final = (req: Request, res: Response) => void;

/**
 * Middleware run in order, as express would, then `last`; `fail` gets an error any of them passes
 * on, throws, or rejects with (an async middleware such as the rate limit).
 */
export function compose(handlers: RequestHandler[], last: Final, fail: (res: Response, err: unknown) => void): Final {
  return handlers.reduceRight<Final>(
    (next, handler) => (req, res) => {
      try {
        const r: unknown = handler(req, res, (err?: unknown) => (err ? fail(res, err) : next(req, res)));
        if (r instanceof Promise) r.catch((err: unknown) => fail(res, err));
      } catch (err) {
        fail(res, err);
      }
    },
    last,
  );
}
