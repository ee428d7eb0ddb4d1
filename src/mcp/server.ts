import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/server";
import type { EventHub } from "../events/hub.js";
import type { EventHistory } from "../events/resume.js";
import type { Ctx, Operation } from "../operations/kernel/operation.js";
import { registerApps } from "./apps.js";
import { registerCompletions } from "./completions.js";
import type { Era } from "./era.js";
import { registerJudgeCasePrompt } from "./prompts.js";
import { registerResources } from "./resources.js";
import { enableSubscriptions, forwardUpdates } from "./subscriptions.js";
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
  /** The events kept beyond the hub (the index): a subscription resumes from any id it holds. */
  history?: EventHistory;
  /** Cases per resources/list page (MCP_RESOURCE_PAGE_SIZE); default 100. */
  resourcePageSize?: number;
  /**
   * The protocol era the server will speak (the SDK's factory context says): `legacy` (2025-11-25
   * and before: initialize, sessions, resources/subscribe) or `modern` (2026-07-28: per-request
   * `_meta`, subscriptions/listen, `ttlMs`/`cacheScope`). Default legacy.
   */
  era?: Era;
  /**
   * Modern era over a connection (stdio): resource updates are sent on this server, and the SDK's
   * stdio entry delivers them on the client's `subscriptions/listen` streams. Over HTTP the
   * handler's bus carries them instead (src/mcp/streamableHttp.ts), and this stays unset.
   */
  forwardEvents?: boolean;
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
 * `ttlMs`/`cacheScope` of the 2026-07-28 results the SDK builds itself. The lists depend on the
 * request's tool selection (headers, path), so they are the client's to cache, not a shared
 * cache's; they change only when docket restarts. A resource read carries its own (the answer's
 * TTL, src/mcp/resources.ts). 2025-era answers never carry these fields.
 */
const LIST_HINT = { ttlMs: 300_000, cacheScope: "private" } as const;
const cacheHints = {
  "tools/list": LIST_HINT,
  "prompts/list": LIST_HINT,
  "resources/templates/list": LIST_HINT,
  "server/discover": LIST_HINT,
};

/**
 * The one MCP server of docket, shared by stdio, SSE and Streamable HTTP: one tool per operation
 * it is handed, the cases as `docket://cases/{address}` resources (listed in pages) and each
 * address's inbox as `docket://agents/{address}/inbox`, the `judge_case` prompt, completions of
 * addresses, and, given the event hub, resource subscriptions (`resources/subscribe` for the
 * 2025 era; for 2026-07-28 the SDK's entries serve `subscriptions/listen` and docket only declares
 * the capability and publishes). It holds no logic of its own; every call goes through run
 * (src/operations/kernel/run.ts).
 *
 * @example
 * const server = buildServer(ctx, { operations, tools: selectOperations(operations, config.DOCKET_TOOLS) });
 * serveStdio(({ era }) => buildServer(ctx, { operations, tools, era }));
 */
export function buildServer(ctx: Ctx, opts: BuildServerOptions): McpServer {
  const ops = opts.tools ?? opts.operations;
  const era = opts.era ?? "legacy";
  const server = new McpServer({ name: "docket", title: "docket", version }, { instructions, cacheHints });
  registerTools(server.server, ctx, ops);
  registerResources(server, ctx, opts.operations, opts.resourcePageSize, era);
  registerApps(server, ops);
  const names = new Set(ops.map((op) => op.name));
  const judgeCasePrompt = names.has("get_case") && names.has("vote_on_case");
  if (judgeCasePrompt) registerJudgeCasePrompt(server, ctx, opts.operations);
  registerCompletions(server, ctx, opts.operations, { judgeCasePrompt });
  if (opts.events && era === "legacy") enableSubscriptions(server, ctx, opts.operations, opts.events, opts.history);
  if (opts.events && era === "modern") {
    // subscriptions/listen is the SDK entry's; it honours resource filters only with this capability.
    server.server.registerCapabilities({ resources: { subscribe: true } });
    if (opts.forwardEvents) forwardUpdates(server, opts.operations, opts.events);
  }
  return server;
}
