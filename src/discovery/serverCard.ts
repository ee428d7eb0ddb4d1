import { toolDefinition } from "../mcp/tools.js";
import type { Operation } from "../operations/kernel/operation.js";
import { identity, namespace } from "./identity.js";

/** The Server Card schema every card names (SEP-2127, the experimental-ext-server-card extension). */
export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/** Where a client looks for it on a domain, and the location MCP reserves beside the Streamable HTTP endpoint. */
export const SERVER_CARD_PATHS = ["/.well-known/mcp/server-card.json", "/mcp/server-card"] as const;

/** The `_meta` keys docket's card adds: its tools as tools/list lists them, and its stdio package. */
export const TOOLS_META = `${namespace}/tools`;
export const PACKAGES_META = `${namespace}/packages`;

/** One remote MCP endpoint of a card: a transport docket serves over HTTP, at `origin`. */
interface Remote {
  type: "streamable-http" | "sse";
  url: string;
}

/**
 * The MCP endpoints docket serves over HTTP (src/mcp/http.ts), as card remotes: stateless Streamable
 * HTTP at /mcp, Streamable HTTP with sessions (resource subscriptions) at /mcp/session, legacy SSE at /sse.
 */
export function remotesAt(origin: string): Remote[] {
  return [
    { type: "streamable-http", url: `${origin}/mcp` },
    { type: "streamable-http", url: `${origin}/mcp/session` },
    { type: "sse", url: `${origin}/sse` },
  ];
}

/**
 * docket's MCP Server Card (SEP-2127), for a client that reached it at `origin`: identity from
 * server.json, the remotes at that origin, and in `_meta` what the card schema leaves to runtime
 * listing: the tools exactly as tools/list gives them (the same definitions, generated from the
 * operation registry: `tools` is the DOCKET_TOOLS selection the endpoints serve) and the npm
 * package that runs docket over stdio (`npx docket mcp`).
 */
export function serverCard(origin: string, tools: readonly Operation[]) {
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: identity.name,
    version: identity.version,
    title: identity.title,
    description: identity.description,
    websiteUrl: `${origin}/`,
    remotes: remotesAt(origin),
    _meta: {
      [TOOLS_META]: tools.map(toolDefinition),
      [PACKAGES_META]: identity.packages,
    },
  };
}
