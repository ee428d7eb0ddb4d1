import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { EventHub } from "../events/hub.js";
import type { Ctx, Operation } from "../operations/operation.js";
import { registerCompletions } from "./completions.js";
import { registerJudgeCasePrompt } from "./prompts.js";
import { registerResources } from "./resources.js";
import { enableSubscriptions } from "./subscriptions.js";
import { registerTools } from "./tools.js";

const { version } = createRequire(import.meta.url)("docket/package.json") as { version: string };

export interface BuildServerOptions {
  /** Every operation docket serves: the case resources read through list_cases and get_case among them. */
  operations: readonly Operation[];
  /** The operations offered as tools (DOCKET_TOOLS, selected by the composition root); default: all. */
  tools?: readonly Operation[];
  /**
   * The event hub, for a transport that keeps a session (stdio, SSE, Streamable HTTP at
   * /mcp/session): its server takes resource subscriptions. Without it (stateless /mcp, where no
   * stream outlives a request) subscriptions are not offered.
   */
  events?: EventHub;
  /** Cases per resources/list page (MCP_RESOURCE_PAGE_SIZE); default 100. */
  resourcePageSize?: number;
}

/**
 * Builds a fresh MCP server; each HTTP exchange (or SSE session) gets its own. Given `tools` (the
 * request's selection, see toolSelection), it offers those instead of every tool DOCKET_TOOLS allows.
 */
export type McpServerFactory = (tools?: readonly Operation[]) => McpServer;

const instructions = [
  "docket is a keyless gateway to on-chain dispute resolution (cases, judges, agents).",
  "Read tools answer from the chain. Write tools never sign: they return an unsigned_tx {to, value, data, chainId}",
  "that you sign with your own wallet and broadcast; pass `from` to have the call simulated first.",
  "An optional argument may be null, the same as leaving it out.",
  "Errors come back as isError results carrying {error: {code, message, details}}, the same codes as docket's HTTP API.",
  "A judge checks get_case's `judges` for its address, then votes with vote_on_case (see the judge_case prompt).",
].join(" ");

/**
 * One JSON Schema validator for every server, made on first use. The SDK otherwise builds an Ajv
 * instance per server (most of what building one cost), and stateless Streamable HTTP builds a
 * server per request. docket's servers validate nothing with it (it checks elicitation answers).
 */
let ajv: AjvJsonSchemaValidator | undefined;
const sharedValidator: jsonSchemaValidator = {
  getValidator: (schema) => {
    ajv ??= new AjvJsonSchemaValidator();
    return ajv.getValidator(schema);
  },
};

/**
 * The one MCP server of docket, shared by stdio, SSE and Streamable HTTP: one tool per operation
 * it is handed, the cases as `docket://cases/{address}` resources (listed in pages) and each
 * address's inbox as `docket://agents/{address}/inbox`, the `judge_case` prompt, completions of
 * addresses, and, given the event hub, resource subscriptions. It holds no logic of its own; every
 * call goes through run (src/operations/run.ts).
 *
 * @example
 * const server = buildServer(ctx, { operations, tools: selectOperations(operations, config.DOCKET_TOOLS) });
 * await server.connect(new StdioServerTransport());
 */
export function buildServer(ctx: Ctx, opts: BuildServerOptions): McpServer {
  const ops = opts.tools ?? opts.operations;
  const server = new McpServer(
    { name: "docket", title: "docket", version },
    { instructions, jsonSchemaValidator: sharedValidator },
  );
  registerTools(server.server, ctx, ops);
  registerResources(server, ctx, opts.operations, opts.resourcePageSize);
  const names = new Set(ops.map((op) => op.name));
  const judgeCasePrompt = names.has("get_case") && names.has("vote_on_case");
  if (judgeCasePrompt) registerJudgeCasePrompt(server);
  registerCompletions(server, ctx, opts.operations, { judgeCasePrompt });
  if (opts.events) enableSubscriptions(server, ctx, opts.operations, opts.events);
  return server;
}
