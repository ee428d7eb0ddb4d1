import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Ctx, Operation } from "../operations/operation.js";
import { operations as registry } from "../operations/registry.js";
import { registerJudgeCasePrompt } from "./prompts.js";
import { registerCaseResources } from "./resources.js";
import { selectOperations } from "./toolFilter.js";
import { registerTools } from "./tools.js";

const { version } = createRequire(import.meta.url)("docket/package.json") as { version: string };

export interface BuildServerOptions {
  /** The operations to offer (default: the whole registry), before the DOCKET_TOOLS filter. */
  operations?: readonly Operation[];
  /** DOCKET_TOOLS: which tools to expose; see selectOperations. Unset: all. */
  tools?: string;
}

/** Builds a fresh MCP server; each HTTP exchange (or SSE session) gets its own. */
export type McpServerFactory = () => McpServer;

const instructions = [
  "docket is a keyless gateway to on-chain dispute resolution (cases, judges, agents).",
  "Read tools answer from the chain. Write tools never sign: they return an unsigned_tx {to, value, data, chainId}",
  "that you sign with your own wallet and broadcast; pass `from` to have the call simulated first.",
  "Errors come back as isError results carrying {error: {code, message, details}}, the same codes as docket's HTTP API.",
  "A judge checks get_case's `judges` for its address, then votes with vote_on_case (see the judge_case prompt).",
].join(" ");

/**
 * The one MCP server of docket, shared by stdio, SSE and Streamable HTTP: one tool per operation
 * in the registry (filtered by `tools`), the cases as `docket://cases/{address}` resources, and the
 * `judge_case` prompt. It holds no logic of its own; every call goes through runOperation.
 *
 * @example
 * const server = buildServer(ctx, { tools: process.env.DOCKET_TOOLS });
 * await server.connect(new StdioServerTransport());
 */
export function buildServer(ctx: Ctx, opts: BuildServerOptions = {}): McpServer {
  const ops = selectOperations(opts.operations ?? registry, opts.tools);
  const server = new McpServer({ name: "docket", title: "docket", version }, { instructions });
  registerTools(server.server, ctx, ops);
  registerCaseResources(server, ctx);
  const names = new Set(ops.map((op) => op.name));
  if (names.has("get_case") && names.has("vote_on_case")) registerJudgeCasePrompt(server);
  return server;
}
