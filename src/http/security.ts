import cors from "cors";
import type { Express } from "express";
import { rateLimit } from "express-rate-limit";
import helmet from "helmet";
import { DocketError } from "../errors/errors.js";
import type { AppOptions } from "./app.js";
import { sendError } from "./errors.js";

/**
 * Security headers, CORS and the per-client rate limit, all from well-kept middleware. docket is
 * public and keyless: these keep one client from starving the others and browsers from being
 * tricked, nothing more is protected here (there is nothing secret to protect).
 */
export function applySecurity(app: Express, opts: AppOptions): void {
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Swagger UI at /docs: our own scripts only; it styles inline and shows data: images.
          "script-src": ["'self'"],
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:"],
          "connect-src": ["'self'"],
        },
      },
      crossOriginResourcePolicy: { policy: "cross-origin" },
    }),
  );

  const origins = (opts.corsOrigins ?? "*").trim();
  app.use(
    cors({
      origin: origins === "*" ? "*" : origins.split(",").map((o) => o.trim()),
      methods: ["GET", "HEAD", "POST", "DELETE", "OPTIONS"],
      allowedHeaders: ["Content-Type", "X-PAYMENT", "Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-ID"],
      exposedHeaders: [
        "X-Cache",
        "X-PAYMENT-RESPONSE",
        "Mcp-Session-Id",
        "RateLimit",
        "RateLimit-Policy",
        "Retry-After",
      ],
      maxAge: 600,
    }),
  );

  const perMinute = opts.rateLimitPerMinute ?? 0;
  if (perMinute > 0) {
    app.use(
      rateLimit({
        windowMs: 60_000,
        limit: perMinute,
        standardHeaders: "draft-8",
        legacyHeaders: false,
        // Health checks from load balancers must not be starved by busy clients.
        skip: (req) => req.path === "/health",
        ...(opts.rateLimitStore ? { store: opts.rateLimitStore, passOnStoreError: true } : {}),
        handler: (_req, res, _next, options) => {
          sendError(
            res,
            new DocketError(
              "RATE_LIMITED",
              `more than ${options.limit} requests a minute from this client; slow down`,
              {
                limitPerMinute: options.limit,
              },
            ),
          );
        },
      }),
    );
  }
}
