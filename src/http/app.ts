import express, { type Express, type Request, type RequestHandler, type Response } from "express";
import { compose, type Final } from "../doors/compose.js";
import { errorMiddleware, sendError } from "../doors/httpErrors.js";
import { nestedDeeperThan } from "../doors/jsonDepth.js";
import { type Caller, DoorKernel } from "../doors/kernel.js";
import { DocketError } from "../errors/errors.js";
import type { Ctx, Operation } from "../operations/kernel/operation.js";
import type { OperationResult } from "../operations/kernel/run.js";
import type { PaymentOutcome } from "../payments/filing.js";
import { encodeBase64Json } from "../payments/x402.js";
import { answerWithin } from "./deadline.js";
import { mountDocs } from "./docs.js";
import type { EventStreams } from "./events.js";
import { mountGateway } from "./gateway.js";
import { requestInput } from "./input.js";
import type { AppOptions } from "./options.js";
import { publicOrigin } from "./publicOrigin.js";
import { RouteTable } from "./routes.js";
import { applySecurity, paymentHeaders, securityChain, securityLayer } from "./security.js";
import { uploadBodyParser } from "./upload.js";

/**
 * The HTTP door, generated from the registry. It only turns a request into input and a
 * result into a response; operations hold the logic.
 *
 * Operations are served by one middleware over the operation table (src/http/routes.ts) rather
 * than one express route each: a cached read is most of the traffic, and express's route layers,
 * per-request closures and awaiting the cache cost a good part of its time (bench item 1). Every
 * operation request meets the same security middleware as the rest; everything else (docs, MCP,
 * 404/405) is plain express.
 */
export function createApp(ctx: Ctx, operations: Operation[], opts: AppOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", parseTrustProxy(opts.trustProxy ?? "false"));
  app.set("etag", false);

  const security = securityLayer(opts, paymentHeaders(operations));
  const table = new RouteTable(operations);
  const bodies = (op: Operation): RequestHandler[] =>
    op.http.upload
      ? [
          ...(security.uploadLimit ? [security.uploadLimit] : []),
          uploadBodyParser(op.http.upload, opts.uploadMaxBytes ?? ctx.evidence.maxBytes),
        ]
      : [postBodyParser(opts.bodyLimit ?? "64kb", opts.jsonMaxDepth ?? 64)];
  const chain = securityChain(security);
  const fronts = new Map<string, { method: string; handle: Final }>();
  // Before anything else: whatever happens after, every request gets an answer in bounded time.
  if ((opts.responseTimeoutMs ?? 0) > 0) app.use(answerWithin(opts.responseTimeoutMs as number, ctx.log));
  app.use(operationRoutes(ctx, table, chain, bodies, fronts));
  opts.mount?.(app, chain, (method, path, handle) => fronts.set(path, { method, handle }));

  applySecurity(app, opts, security);
  mountDocs(app, operations, { events: opts.events !== undefined });
  mountGateway(app, ctx.evidence);
  if (opts.events) mountEvents(app, opts.events);
  app.use((req: Request, res: Response) => {
    const allowed = table.allowed(req.path);
    if (allowed.length > 0) {
      res.set("Allow", allowed.join(", "));
      return sendError(res, new DocketError("METHOD_NOT_ALLOWED", `${req.method} is not allowed on ${req.path}`));
    }
    sendError(res, new DocketError("NOT_FOUND", `no route ${req.method} ${req.path}; see /docs`));
  });
  app.use(errorMiddleware(ctx.log));
  return app;
}

/** `GET /events` (not an operation: a stream), behind the same security layer as the rest. */
function mountEvents(app: Express, streams: EventStreams): void {
  app.get("/events", streams.handler);
  app.all("/events", (req, res) => {
    res.set("Allow", "GET, HEAD");
    sendError(res, new DocketError("METHOD_NOT_ALLOWED", `${req.method} is not allowed on /events`));
  });
}

/**
 * The middleware that serves every operation: match the route, run the security chain (and the
 * body parser for a POST), then answer through `run`: synchronously on a cache hit. Each route's chain is composed once, here, not per request.
 * A request no operation takes may be a front route's (`mount`'s `front`: one exact method and
 * path, whose handler brings its own chain); anything else goes on to express's router.
 */
function operationRoutes(
  ctx: Ctx,
  table: RouteTable,
  security: RequestHandler[],
  postBody: (op: Operation) => RequestHandler[],
  fronts: ReadonlyMap<string, { method: string; handle: Final }>,
) {
  const fail = (res: Response, err: unknown) => sendError(res, err, ctx.log);
  // A GET's input comes from its URL alone, so the kernel remembers the input a URL validated to.
  const door = new DoorKernel(ctx);
  const routes = new Map<Operation, Final>();
  for (const op of table.operations) {
    const handlers = op.http.method === "POST" ? [...security, ...postBody(op)] : security;
    routes.set(
      op,
      compose(handlers, (req, res) => serve(door, op, req, res), fail),
    );
  }
  return (req: Request, res: Response, next: (err?: unknown) => void) => {
    let match: ReturnType<RouteTable["match"]>;
    try {
      match = table.match(req.method, req.path);
    } catch (err) {
      // A route matched but its parameter is not valid percent-encoding.
      return compose(security, (_req, res) => fail(res, err), fail)(req, res);
    }
    if (!match) {
      const front = fronts.get(req.path);
      if (front?.method === req.method) return front.handle(req, res);
      return next();
    }
    req.params = match.params;
    (routes.get(match.op) as Final)(req, res);
  };
}

function serve(door: DoorKernel, op: Operation, req: Request, res: Response): void {
  let result: OperationResult | Promise<OperationResult>;
  try {
    const prepared = door.prepare(op, op.http.method === "GET" ? req.url : undefined, httpInput, req);
    // The hit first: most of the traffic, answered without working out the caller's facts.
    const hit = door.cached(prepared);
    if (hit) {
      send(res, hit);
      return;
    }
    result = door.run(op, prepared, caller(req));
  } catch (err) {
    sendError(res, err, door.ctx.log);
    return;
  }
  if (result instanceof Promise) result.then((r) => send(res, r)).catch((err) => sendError(res, err, door.ctx.log));
  else send(res, result);
}

/** An operation's raw input from its request: path parameters, query and (for a POST) body. */
function httpInput(op: Operation, req: Request): unknown {
  return requestInput(op.input, req, op.http.method);
}

/** The caller's headers and the resource's URL, read only when an operation asks for them. */
function caller(req: Request): Caller {
  return {
    transport: "http",
    headers: req.headers as Record<string, string | undefined>,
    resourceUrl: () => `${publicOrigin(req)}${req.originalUrl}`,
  };
}

/**
 * x402 over HTTP: a proof's settlement in its version's header (PAYMENT-RESPONSE, v1's
 * X-PAYMENT-RESPONSE), a 402's v2 terms in PAYMENT-REQUIRED and its v1 terms (with docket's error
 * envelope) as the body. Returns the body to send.
 */
function sayPayment(res: Response, p: PaymentOutcome, body: unknown): unknown {
  const s = p.settlement;
  if (s) res.setHeader(s.x402Version === 2 ? "PAYMENT-RESPONSE" : "X-PAYMENT-RESPONSE", encodeBase64Json(s.response));
  if (!p.required) return body;
  res.setHeader("PAYMENT-REQUIRED", encodeBase64Json(p.required.v2));
  return p.required.v1;
}

function send(res: Response, result: OperationResult): void {
  res.statusCode = result.status;
  if (result.raw) {
    // Content, not JSON: its own headers (Cache-Control, CSP, Content-Disposition) replace the API's.
    for (const name in result.headers) res.setHeader(name, result.headers[name] as string);
    res.setHeader("Content-Type", result.raw.contentType);
    res.setHeader("Content-Length", result.raw.bytes.length);
    res.end(result.raw.bytes);
    return;
  }
  for (const name in result.headers) res.setHeader(name, result.headers[name] as string);
  if (result.cache) {
    res.setHeader("X-Cache", result.cache.status);
    res.setHeader("Cache-Control", result.cache.maxAge > 0 ? `public, max-age=${result.cache.maxAge}` : "no-cache");
  } else {
    res.setHeader("Cache-Control", "no-store");
  }
  const json = serialize(result.payment ? sayPayment(res, result.payment, result.body) : result.body);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", json.length);
  res.end(json);
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

/** A POST body: JSON only (or none at all), up to the size limit and the nesting limit. */
function postBodyParser(limit: string, maxDepth: number): RequestHandler {
  const json = express.json({
    limit,
    strict: false,
    type: () => true,
    // Before parsing: a 10,000-level body is refused on its bytes, never handed to the schemas.
    verify: (_req, _res, buf) => {
      if (!nestedDeeperThan(buf, maxDepth)) return;
      throw Object.assign(new Error(`the JSON nests deeper than ${maxDepth} levels`), {
        status: 400,
        expose: true,
        type: "entity.too.deep",
        maxDepth,
      });
    },
  });
  return (req, res, next) => {
    const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
    if (!hasBody) return next();
    const type = req.headers["content-type"] ?? "";
    if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
      return sendError(res, new DocketError("UNSUPPORTED_MEDIA_TYPE", "send the body as application/json"));
    }
    return json(req, res, next);
  };
}

/** "false"/"true"/a hop count/names or CIDRs, as express takes them. */
function parseTrustProxy(v: string): boolean | number | string {
  if (v === "false") return false;
  if (v === "true") return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}
