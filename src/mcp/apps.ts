import type { McpServer } from "@modelcontextprotocol/server";
import { clientScript } from "../browser/bundle.js";
import type { Operation } from "../operations/kernel/operation.js";

/**
 * The case page as an MCP App (the MCP Apps extension, SEP-1865): one `ui://` resource holding a
 * self-contained HTML view, named by the `get_case` tool's `_meta.ui.resourceUri`. A host that
 * renders UI resources shows the case from get_case's result; any other host ignores the `_meta`
 * and gets the same tool answers as ever.
 */
export const MCP_APPS_EXTENSION = "io.modelcontextprotocol/ui";
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
export const CASE_APP_URI = "ui://docket/case";

/** Which tools a host renders with which UI resource. */
export const TOOL_APPS: Readonly<Record<string, string>> = { get_case: CASE_APP_URI };

const style = `
:root { font-family: var(--font-sans, system-ui, sans-serif); color: var(--color-text-primary, #1b1f24);
  background: var(--color-background-primary, #fff); line-height: 1.45; }
body { margin: 0; padding: 0.75rem; }
h1 { font-size: 1.2rem; margin: 0; } h2 { font-size: 1rem; margin: 1rem 0 0.25rem; }
.addr { font-family: var(--font-mono, ui-monospace, monospace); font-size: 0.85rem; overflow-wrap: anywhere; }
.party-text { white-space: pre-wrap; overflow-wrap: anywhere; }
blockquote { margin: 0; padding: 0.4rem 0.75rem; border-left: 3px solid var(--color-border-primary, #d0d7de); }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 0.25rem; vertical-align: top;
  border-bottom: 1px solid var(--color-border-secondary, #d0d7de); }
dd { margin: 0 0 0.4rem; overflow-wrap: anywhere; } dt { font-weight: 600; }
`;

let html: Promise<string> | undefined;

/** The view's HTML: its style and its bundled script inline (the host's sandbox loads nothing else). */
export function caseAppHtml(): Promise<string> {
  html ??= clientScript("caseApp").then(
    // A script element ends at the first "</script"; the bundle never holds one, and "<\/" keeps it so.
    (js) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>docket case</title><style>${style}</style></head>
<body><main id="app"><p>Waiting for the case…</p></main>
<script>${js.replace(/<\//g, "<\\/")}</script></body>
</html>
`,
  );
  html.catch(() => {
    html = undefined;
  });
  return html;
}

/** The resource's `_meta.ui`: no outside origins at all, and a border from the host. */
export const caseAppMeta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

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
