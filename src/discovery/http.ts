import type { Express, RequestHandler } from "express";
import { publicOrigin } from "../http/publicOrigin.js";
import type { Operation } from "../operations/kernel/operation.js";
import { a2aEndpoint } from "./a2a.js";
import { A2A_PATH, AGENT_CARD_PATH, agentCard } from "./agentCard.js";
import { SERVER_CARD_PATHS, serverCard } from "./serverCard.js";

export interface DiscoveryOptions {
  /** Every operation docket serves over HTTP (the agent card's routes). */
  operations: readonly Operation[];
  /** The operations offered as MCP tools (DOCKET_TOOLS): what the server card lists, as tools/list does. */
  tools: readonly Operation[];
  /** The HTTP door's security chain (headers, CORS, rate limit). */
  security: RequestHandler[];
}

/**
 * The documents an agent that has never heard of docket finds it by (docs/discovery.md): the MCP
 * Server Card at /.well-known/mcp/server-card.json (and at /mcp/server-card, the location MCP
 * reserves beside the Streamable HTTP endpoint), the A2A Agent Card at /.well-known/agent-card.json
 * and the A2A endpoint it names. Each names the endpoints at the origin the client used (behind a
 * trusted proxy, the proxy's public one).
 */
export function mountDiscovery(app: Express, opts: DiscoveryOptions): void {
  const json = (res: Parameters<RequestHandler>[1], type: string, body: unknown) =>
    res
      .status(200)
      .type(type)
      .set("Cache-Control", "public, max-age=300")
      .set("Vary", "Host, X-Forwarded-Host, X-Forwarded-Proto")
      .send(JSON.stringify(body));
  for (const path of SERVER_CARD_PATHS) {
    app.get(path, ...opts.security, (req, res) => {
      json(res, "application/json", serverCard(publicOrigin(req), opts.tools));
    });
  }
  app.get(AGENT_CARD_PATH, ...opts.security, (req, res) => {
    json(res, "application/json", agentCard(publicOrigin(req), opts.operations));
  });
  const a2a = a2aEndpoint(opts.operations);
  // The SDK's handler is a router of its own (POST at its root): mounted under the path.
  app.use(A2A_PATH, ...opts.security, (req, res, next) => a2a(publicOrigin(req))(req, res, next));
}
