import { ConfigError } from "../config.js";
import { type Operation, TOOLSETS } from "../operations/kernel/operation.js";

/**
 * Selecting operations by DOCKET_TOOLS' words: the composition root's selection at start
 * (`selectOperations`) and the words a door narrows it by per request (MCP's X-MCP-* headers and
 * paths, src/mcp/toolFilter.ts). Neutral ground: no door imports another for it.
 */
const toolsets = new Set<string>(TOOLSETS);

/** A comma list's words, trimmed, blanks dropped. */
export function words(spec: string | undefined): string[] {
  return (spec ?? "")
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);
}

/** The words of a selection that name no toolset and no tool of `all` (`read` and `all` are keywords). */
export function unknownWords(all: readonly Operation[], picked: readonly string[]): string[] {
  const names = new Set(all.map((op) => op.name));
  return picked.filter((w) => w !== "read" && w !== "all" && !toolsets.has(w) && !names.has(w));
}

/** The operations of `ops` a selection's words take: any toolset or tool named (`all`: every one), reads only given `read`. */
export function pick(ops: readonly Operation[], picked: readonly string[]): Operation[] {
  const readOnly = picked.includes("read");
  const named = new Set(picked.filter((w) => w !== "read"));
  const every = named.size === 0 || named.has("all");
  return ops.filter(
    (op) => (every || named.has(op.toolset) || named.has(op.name)) && (!readOnly || op.kind === "read"),
  );
}

/**
 * The operations DOCKET_TOOLS exposes as MCP tools. Unset (or blank): all of them. Otherwise a
 * comma list of toolsets (TOOLSETS: `cases`, `judges`, `agents`, `jobs`, `payments`, `system`) and tool names, whose
 * tools are taken together; `read` keeps only the read tools of that selection (alone: every read).
 * A word that names nothing fails at start with one line, as any bad config does. Run once, by the
 * composition root (src/server.ts, src/commands/), which hands the result to the MCP door.
 *
 * @example selectOperations(operations, "read")            // the read tools only
 * @example selectOperations(operations, "judges,get_case") // the judges toolset, plus get_case
 */
export function selectOperations(all: readonly Operation[], spec: string | undefined): Operation[] {
  const picked = words(spec);
  if (picked.length === 0) return [...all];
  for (const w of unknownWords(all, picked)) {
    throw new ConfigError(
      `invalid configuration: DOCKET_TOOLS: unknown toolset or tool '${w}' (toolsets: read, ${TOOLSETS.join(", ")}; or tool names such as get_case)`,
    );
  }
  const selected = pick(all, picked);
  if (selected.length === 0) {
    throw new ConfigError(`invalid configuration: DOCKET_TOOLS: '${spec}' selects no tools`);
  }
  return selected;
}
