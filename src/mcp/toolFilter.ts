import type { RequestHandler, Response } from "express";
import { sendError } from "../doors/httpErrors.js";
import { pick, unknownWords, words } from "../doors/select.js";
import { DocketError } from "../errors/errors.js";
import { type Operation, TOOLSETS } from "../operations/kernel/operation.js";

/** What one HTTP request asks for: the path's toolsets and read-only flag, and the X-MCP-* headers. */
export interface ToolRequest {
  /** `/mcp/x/{toolsets}`: a comma list of toolsets or tool names (`all`: every one). */
  pathToolsets?: string;
  /** `/mcp/readonly`, `/mcp/x/{toolsets}/readonly`. */
  pathReadonly?: boolean;
  /** X-MCP-Toolsets */
  toolsets?: string;
  /** X-MCP-Tools */
  tools?: string;
  /** X-MCP-Readonly */
  readonly?: string;
}

/**
 * A header's boolean as github's MCP server reads X-MCP-Readonly: absent, blank, `false`, `f`,
 * `no`, `n`, `0` or `off` (any case) is false, anything else true.
 */
export function headerFlag(value: string | undefined): boolean {
  return !["", "false", "f", "no", "n", "0", "off"].includes((value ?? "").trim().toLowerCase());
}

/**
 * The tools one request is served: the tools DOCKET_TOOLS offers (`bound`), narrowed by what the
 * request asks. The path's toolsets, the headers' toolsets and tools (together, as one list) and
 * read-only each narrow the selection further; none can add a tool outside `bound`. A word naming
 * no toolset or tool at all, or a selection that leaves no tool, is a DocketError (400
 * INVALID_INPUT) rather than a silently empty server, so a typo is seen at once.
 */
export function requestTools(all: readonly Operation[], bound: readonly Operation[], ask: ToolRequest): Operation[] {
  const path = words(ask.pathToolsets);
  const header = [...words(ask.toolsets), ...words(ask.tools)];
  const unknown = unknownWords(all, [...path, ...header]);
  if (unknown.length > 0) {
    throw new DocketError("INVALID_INPUT", `unknown toolset or tool: ${unknown.join(", ")}`, {
      unknown,
      toolsets: ["all", ...TOOLSETS],
    });
  }
  let selected = pick(bound, path);
  if (header.length > 0) selected = pick(selected, header);
  if (ask.pathReadonly || headerFlag(ask.readonly)) selected = pick(selected, ["read"]);
  if (selected.length === 0) {
    throw new DocketError("INVALID_INPUT", "the tool selection leaves none of the tools this docket offers", {
      offered: bound.map((op) => op.name),
    });
  }
  return selected;
}

/** The tools `toolSelection` chose for this request; undefined when it asked for none (the whole bound). */
export function selectedTools(res: Response): readonly Operation[] | undefined {
  return res.locals.mcpTools as readonly Operation[] | undefined;
}

/**
 * Middleware for the MCP HTTP routes: works out the request's tools (`requestTools`) from its path
 * (`:toolsets`, and `readonly` for the routes that end so) and its X-MCP-* headers, and leaves
 * them for the handler (`selectedTools`). Selections repeat (a client sends the same headers every
 * time), so each distinct one is computed once; the arrays it hands out are shared and never
 * mutated, which also lets the tool definitions stay cached.
 */
export function toolSelection(
  all: readonly Operation[],
  bound: readonly Operation[],
  opts: { readonly?: boolean } = {},
): RequestHandler {
  const memo = new Map<string, Operation[]>();
  return (req, res, next) => {
    const h = req.headers;
    // Most requests ask for nothing: no object is built for them.
    if (!opts.readonly && !req.params?.toolsets && !h["x-mcp-toolsets"] && !h["x-mcp-tools"] && !h["x-mcp-readonly"]) {
      return next();
    }
    const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(",") : v);
    const ask: ToolRequest = {
      pathToolsets: typeof req.params.toolsets === "string" ? req.params.toolsets : undefined,
      pathReadonly: opts.readonly,
      toolsets: one(h["x-mcp-toolsets"]),
      tools: one(h["x-mcp-tools"]),
      readonly: one(h["x-mcp-readonly"]),
    };
    if (!ask.pathToolsets && !ask.pathReadonly && !ask.toolsets && !ask.tools && !ask.readonly) return next();
    const key = JSON.stringify(ask);
    let tools = memo.get(key);
    if (!tools) {
      try {
        tools = requestTools(all, bound, ask);
      } catch (err) {
        return sendError(res, err as DocketError);
      }
      // Bounded: a client cycling through made-up selections does not grow it without end.
      if (memo.size < 1000) memo.set(key, tools);
    }
    res.locals.mcpTools = tools;
    next();
  };
}
