import type { McpServer } from "@modelcontextprotocol/server";
import type { Operation } from "../operations/kernel/operation.js";
import {
  CASE_APP_URI,
  caseAppHtml,
  caseAppMeta,
  MCP_APP_MIME_TYPE,
  MCP_APPS_EXTENSION,
  TOOL_APPS,
} from "../web/mcpApp.js";

/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`): the case view as a `ui://` resource, read
 * by hosts that render UI resources when get_case names it in its `_meta.ui.resourceUri`. Hosts
 * without the extension never ask for it; the tools answer exactly as they do without it. The
 * resource is not in `resources/list` (which lists cases): the spec lets UI-only resources be
 * found through the tools that name them.
 */
export function registerApps(server: McpServer, tools: readonly Operation[]): void {
  if (!tools.some((op) => TOOL_APPS[op.name] === CASE_APP_URI)) return;
  server.server.registerCapabilities({ extensions: { [MCP_APPS_EXTENSION]: {} } });
  server.registerResource(
    "case_view",
    CASE_APP_URI,
    {
      title: "Case view",
      description: "An MCP App: the case page, drawn from get_case's result by hosts that render UI resources",
      mimeType: MCP_APP_MIME_TYPE,
      _meta: caseAppMeta,
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: MCP_APP_MIME_TYPE, text: await caseAppHtml(), _meta: caseAppMeta }],
    }),
  );
}

/** The `_meta` a tool carries when a host can render its result with a UI resource. */
export function appMeta(op: Operation): { _meta?: { ui: { resourceUri: string } } } {
  const uri = TOOL_APPS[op.name];
  return uri ? { _meta: { ui: { resourceUri: uri } } } : {};
}
