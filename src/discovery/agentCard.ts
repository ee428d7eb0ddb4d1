import type { Operation } from "../operations/kernel/operation.js";
import { identity } from "./identity.js";
import { remotesAt } from "./serverCard.js";
import { routeOf, skillOperations, WORKFLOWS } from "./skills.js";

/** Where A2A clients look for the card, and where docket's A2A JSON-RPC endpoint answers. */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";
export const A2A_PATH = "/a2a";
/** The A2A extension docket declares: its skills are MCP tools and HTTP routes, named per skill. */
export const TOOLS_EXTENSION = "https://modelcontextprotocol.io/specification";

/**
 * docket's A2A Agent Card (A2A 1.0, the JSON `@a2a-js/sdk` reads), for a client that reached it at
 * `origin`. Its skills are docket's workflows (./skills.ts); the work itself is done through MCP
 * tools and HTTP routes, which the card's one extension names per skill (generated from the
 * operation registry), beside the MCP endpoints and the OpenAPI document. The A2A endpoint
 * (./a2a.ts) answers a message with the same directions. Nothing is signed: docket holds no key.
 */
export function agentCard(origin: string, operations: readonly Operation[]) {
  const skills = WORKFLOWS.map((w) => {
    const ops = skillOperations(w, operations);
    return { id: w.id, tools: ops.map((op) => op.name), routes: ops.map(routeOf) };
  });
  return {
    name: identity.title,
    description: `${identity.description} docket does the work through MCP tools and HTTP routes: each skill names its own.`,
    supportedInterfaces: [{ url: `${origin}${A2A_PATH}`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    version: identity.version,
    documentationUrl: `${origin}/docs/`,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [
        {
          uri: TOOLS_EXTENSION,
          description:
            "Each skill's MCP tools (at the MCP endpoints) and HTTP routes (described by the OpenAPI document)",
          required: false,
          params: { mcp: remotesAt(origin), openapi: `${origin}/openapi.json`, skills },
        },
      ],
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["application/json", "text/plain"],
    skills: WORKFLOWS.map((w) => ({
      id: w.id,
      name: w.name,
      description: w.description,
      tags: w.tags,
      examples: w.examples,
      inputModes: ["text/plain", "application/json"],
      outputModes: ["application/json", "text/plain"],
      securityRequirements: [],
    })),
    signatures: [],
  };
}
