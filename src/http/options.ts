import type { Express, RequestHandler } from "express";
import type { Store } from "express-rate-limit";
import type { Final } from "../doors/compose.js";
import type { EventStreams } from "./events.js";

/** How the HTTP door is set up; shared by the app and its security layer. */
export interface AppOptions {
  /** Largest accepted JSON body. */
  bodyLimit?: string;
  /** JSON_MAX_DEPTH: a body nesting arrays and objects deeper is refused (400 INVALID_INPUT). */
  jsonMaxDepth?: number;
  /** Requests per minute per client (IP); 0 turns the limit off. */
  rateLimitPerMinute?: number;
  /** Shared counter store for the rate limit (Redis when replicas share it); in-process by default. */
  rateLimitStore?: Store;
  /** "*" or a comma-separated list of allowed origins. */
  corsOrigins?: string;
  /** Express "trust proxy" (false by default: the socket's address is the client). */
  trustProxy?: string;
  /** Largest evidence upload (EVIDENCE_MAX_BYTES). */
  uploadMaxBytes?: number;
  /** Evidence uploads per minute per client (EVIDENCE_UPLOADS_PER_MINUTE); 0 turns the limit off. */
  uploadsPerMinute?: number;
  /**
   * RESPONSE_TIMEOUT_MS: a request with nothing sent after this long gets 503 (the last resort
   * against a hang, see answerWithin); 0 or unset: none.
   */
  responseTimeoutMs?: number;
  /** `GET /events`, served beside the docs when given. */
  events?: EventStreams;
  /**
   * Extra routes (the MCP transports), mounted right after the operations and before every other
   * route, so the router reaches them first; they put `security` (the operations' own chain: headers,
   * CORS, rate limit) in front of their handlers themselves. `front` hands a route on one exact
   * method and path to the operations' own dispatcher, which serves it without express's router
   * (as it serves an operation): for the busiest of them (`POST /mcp`); its express route stays for
   * the spellings express also matches (a trailing slash, another case).
   */
  mount?: (
    app: Express,
    security: RequestHandler[],
    front: (method: string, path: string, handle: Final) => void,
  ) => void;
}
