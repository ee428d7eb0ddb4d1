import express, { type Express, type Request, type Response } from "express";
import type { Store } from "express-rate-limit";
import { DocketError } from "../errors/errors.js";
import type { Ctx, Operation } from "../operations/operation.js";
import { runOperation } from "../operations/run.js";
import { mountDocs } from "./docs.js";
import { errorMiddleware, sendError } from "./errors.js";
import { requestInput } from "./input.js";
import { applySecurity } from "./security.js";

export interface AppOptions {
  /** Largest accepted JSON body. */
  bodyLimit?: string;
  /** Requests per minute per client (IP); 0 turns the limit off. */
  rateLimitPerMinute?: number;
  /** Shared counter store for the rate limit (Redis when replicas share it); in-process by default. */
  rateLimitStore?: Store;
  /** "*" or a comma-separated list of allowed origins. */
  corsOrigins?: string;
  /** Express "trust proxy" (false by default: the socket's address is the client). */
  trustProxy?: string;
  /** Extra routes mounted before the 404 handler (the MCP transports). */
  mount?: (app: Express) => void;
}

/**
 * JSON bytes of a body. A cached body is the same object on every hit (in-process store), so its
 * bytes are computed once; bodies are never mutated after they are made.
 */
const serialized = new WeakMap<object, Buffer>();
function serialize(body: unknown): Buffer {
  if (body === null || typeof body !== "object") return Buffer.from(JSON.stringify(body));
  let bytes = serialized.get(body);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(body));
    serialized.set(body, bytes);
  }
  return bytes;
}

function pathRegex(path: string): RegExp {
  return new RegExp(`^${path.replace(/:[A-Za-z_]+/g, "[^/]+")}/?$`);
}

/**
 * The HTTP front end: one route per operation, generated from the registry. It only turns a
 * request into input and a result into a response; operations hold the logic.
 */
export function createApp(ctx: Ctx, operations: Operation[], opts: AppOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", parseTrustProxy(opts.trustProxy ?? "false"));
  app.set("etag", false);
  applySecurity(app, opts);

  const json = express.json({ limit: opts.bodyLimit ?? "64kb", strict: false, type: () => true });
  const postBody = (req: Request, res: Response, next: (err?: unknown) => void) => {
    const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
    if (!hasBody) return next();
    const type = req.headers["content-type"] ?? "";
    if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
      return sendError(res, new DocketError("UNSUPPORTED_MEDIA_TYPE", "send the body as application/json"));
    }
    return json(req, res, next);
  };

  for (const op of operations) {
    const method = op.http.method;
    const route = async (req: Request, res: Response) => {
      try {
        const input = requestInput(op.input, req, method);
        const result = await runOperation(op, input, ctx, {
          transport: "http",
          headers: req.headers as Record<string, string | undefined>,
          // Only payment requirements need it: built on demand, not on every read.
          get resourceUrl() {
            return `${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`;
          },
        });
        res.statusCode = result.status;
        for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
        if (result.cache) {
          res.setHeader("X-Cache", result.cache.status);
          res.setHeader(
            "Cache-Control",
            result.cache.maxAge > 0 ? `public, max-age=${result.cache.maxAge}` : "no-cache",
          );
        } else {
          res.setHeader("Cache-Control", "no-store");
        }
        const json = serialize(result.body);
        res.setHeader("Content-Type", "application/json; charset=utf-8");
        res.setHeader("Content-Length", json.length);
        res.end(json);
      } catch (err) {
        sendError(res, err, ctx.log);
      }
    };
    if (method === "GET") app.get(op.http.path, route);
    else app.post(op.http.path, postBody, route);
  }

  mountDocs(app, operations);
  opts.mount?.(app);

  const known = operations.map((op) => ({ re: pathRegex(op.http.path), method: op.http.method }));
  app.use((req: Request, res: Response) => {
    const allowed = known.filter((k) => k.re.test(req.path)).map((k) => k.method);
    if (allowed.length > 0) {
      res.set("Allow", [...new Set(allowed.flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])))].join(", "));
      return sendError(res, new DocketError("METHOD_NOT_ALLOWED", `${req.method} is not allowed on ${req.path}`));
    }
    sendError(res, new DocketError("NOT_FOUND", `no route ${req.method} ${req.path}; see /docs`));
  });
  app.use(errorMiddleware(ctx.log));
  return app;
}

/** "false"/"true"/a hop count/names or CIDRs, as express takes them. */
function parseTrustProxy(v: string): boolean | number | string {
  if (v === "false") return false;
  if (v === "true") return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}
