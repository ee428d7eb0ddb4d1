import type { Express } from "express";
import type { Store } from "express-rate-limit";
import type { EventStreams } from "./events.js";

/** How the HTTP front end is set up; shared by the app and its security layer. */
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
  /** `GET /events`, served beside the docs when given. */
  events?: EventStreams;
  /** Extra routes mounted before the 404 handler (the MCP transports). */
  mount?: (app: Express) => void;
}
