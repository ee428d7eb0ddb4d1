import cors, { type CorsOptions } from "cors";
import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import { rateLimit } from "express-rate-limit";
import helmet from "helmet";
import { sendError } from "../doors/httpErrors.js";
import { DocketError } from "../errors/errors.js";
import type { Operation } from "../operations/kernel/operation.js";
import type { AppOptions } from "./options.js";

/** The path the rate limit never counts: load balancers' health checks must not be starved by busy clients. */
export const RATE_LIMIT_EXEMPT_PATH = "/health";

/** Headers beyond docket's own that browsers may send and read: those of the operations' payments. */
export interface ExtraHeaders {
  request: string[];
  response: string[];
}

/** The payment headers the operations declare, for CORS. */
export function paymentHeaders(operations: readonly Operation[]): ExtraHeaders {
  const terms = operations.flatMap((op) => (op.payment ? [op.payment] : []));
  const names = (hs: readonly { name: string }[]) => hs.map((h) => h.name);
  return {
    request: [...new Set(terms.flatMap((t) => names(t.requestHeaders)))],
    response: [...new Set(terms.flatMap((t) => names(t.responseHeaders)))],
  };
}

/**
 * Security headers, CORS and the per-client rate limit, all from well-kept middleware. docket is
 * public and keyless: these keep one client from starving the others and browsers from being
 * tricked, nothing more is protected here (there is nothing secret to protect).
 */
export interface SecurityLayer {
  /** Every JSON answer: OWASP's header set for REST APIs. */
  apiHeaders: RequestHandler;
  /** The docs page (HTML): helmet's full set. */
  docsHeaders: RequestHandler;
  /** CORS, preflights included. */
  cors: RequestHandler;
  /** The per-client limit, when one is set. */
  rateLimit?: RequestHandler;
  /** The per-client limit on evidence uploads (in this replica), when one is set. */
  uploadLimit?: RequestHandler;
}

/** The middleware in the order a request meets it: headers (JSON's unless told), CORS, rate limit. */
export function securityChain(layer: SecurityLayer, headers: RequestHandler = layer.apiHeaders): RequestHandler[] {
  return layer.rateLimit ? [headers, layer.cors, layer.rateLimit] : [headers, layer.cors];
}

/** Mounts the security layer in front of every route that follows: the docs page gets its own headers. */
export function applySecurity(app: Express, opts: AppOptions, layer: SecurityLayer = securityLayer(opts)): void {
  const { apiHeaders, docsHeaders } = layer;
  const headers: RequestHandler = (req, res, next) =>
    req.path.startsWith("/docs") ? docsHeaders(req, res, next) : apiHeaders(req, res, next);
  for (const mw of securityChain(layer, headers)) app.use(mw);
}

export function securityLayer(opts: AppOptions, extra: ExtraHeaders = { request: [], response: [] }): SecurityLayer {
  // helmet works its headers out anew for every request (its CSP is re-evaluated each time); ours
  // depend on nothing in the request, so they are computed once and replayed.
  // Two fixed policies, from helmet: the docs page is HTML (Swagger UI) and gets helmet's full set;
  // every other answer is JSON and gets the short, stricter set OWASP recommends for REST APIs.
  const docsHeaders = replay(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Swagger UI: our own scripts only; it styles inline and shows data: images.
          "script-src": ["'self'"],
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:"],
          "connect-src": ["'self'"],
        },
      },
      crossOriginResourcePolicy: { policy: "cross-origin" },
    }),
  );
  const apiHeaders = replay(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { "default-src": ["'none'"], "frame-ancestors": ["'none'"] },
      },
      xFrameOptions: { action: "deny" },
      crossOriginResourcePolicy: { policy: "cross-origin" },
      // HTML-only headers mean nothing on a JSON answer.
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );

  const origins = (opts.corsOrigins ?? "*").trim();
  const corsOptions: CorsOptions = {
    origin: origins === "*" ? "*" : origins.split(",").map((o) => o.trim()),
    methods: ["GET", "HEAD", "POST", "DELETE", "OPTIONS"],
    allowedHeaders: ["Content-Type", ...extra.request, "Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-ID"],
    exposedHeaders: ["X-Cache", ...extra.response, "Mcp-Session-Id", "RateLimit", "RateLimit-Policy", "Retry-After"],
    maxAge: 600,
  };
  const corsMiddleware = cors(corsOptions);
  let corsLayer: RequestHandler = corsMiddleware;
  if (origins === "*") {
    // Any origin: a simple request's CORS headers are fixed too. Preflights go through the library.
    const simple = replay(corsMiddleware, { method: "GET", origin: "https://any.example" });
    corsLayer = (req, res, next) =>
      req.method === "OPTIONS" ? corsMiddleware(req, res, next) : simple(req, res, next);
  }

  const perMinute = opts.rateLimitPerMinute ?? 0;
  const layer: SecurityLayer = { apiHeaders, docsHeaders, cors: corsLayer };
  const limiter = (limit: number, what: string, extra: object = {}) =>
    rateLimit({
      windowMs: 60_000,
      limit,
      standardHeaders: "draft-8",
      legacyHeaders: false,
      ...extra,
      handler: (_req, res, _next, options) => {
        sendError(
          res,
          new DocketError("RATE_LIMITED", `more than ${options.limit} ${what} a minute from this client; slow down`, {
            limitPerMinute: options.limit,
          }),
        );
      },
    });
  if (perMinute > 0) {
    layer.rateLimit = limiter(perMinute, "requests", {
      skip: (req: Request) => req.path === RATE_LIMIT_EXEMPT_PATH,
      ...(opts.rateLimitStore ? { store: opts.rateLimitStore, passOnStoreError: true } : {}),
    });
  }
  if ((opts.uploadsPerMinute ?? 0) > 0) {
    layer.uploadLimit = limiter(opts.uploadsPerMinute as number, "evidence uploads");
  }
  return layer;
}

/**
 * Runs a header-setting middleware once against a stand-in request and returns a middleware that
 * sets the same headers. Only for middleware whose headers do not depend on the request.
 */
function replay(mw: RequestHandler, req: { method?: string; origin?: string } = {}): RequestHandler {
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const fakeRes = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      set.push([name, value]);
      return fakeRes;
    },
    getHeader: () => undefined,
    removeHeader: (name: string) => {
      removed.push(name);
    },
    end: () => {},
    statusCode: 200,
  };
  const fakeReq = { method: req.method ?? "GET", url: "/", headers: req.origin ? { origin: req.origin } : {} };
  let called = false;
  mw(fakeReq as unknown as Request, fakeRes as unknown as Response, () => {
    called = true;
  });
  if (!called) throw new Error("header middleware did not call next() synchronously: cannot replay it");
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
