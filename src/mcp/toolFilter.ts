import { ConfigError } from "../config.js";
import { type Operation, TOOLSETS } from "../operations/operation.js";

const toolsets = new Set<string>(TOOLSETS);

/**
 * The operations DOCKET_TOOLS exposes as MCP tools. Unset (or blank): all of them. Otherwise a
 * comma list of toolsets (TOOLSETS: `cases`, `judges`, `agents`, `payments`, `system`) and tool names, whose
 * tools are taken together; `read` keeps only the read tools of that selection (alone: every read).
 * A word that names nothing fails at start with one line, as any bad config does. Run once, by the
 * composition root (src/server.ts, src/commands/), which hands the result to the MCP front end.
 *
 * @example selectOperations(operations, "read")            // the read tools only
 * @example selectOperations(operations, "judges,get_case") // the judges toolset, plus get_case
 */
export function selectOperations(all: readonly Operation[], spec: string | undefined): Operation[] {
  const words = (spec ?? "")
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);
  if (words.length === 0) return [...all];
  const names = new Set(all.map((op) => op.name));
  for (const w of words) {
    if (w !== "read" && !toolsets.has(w) && !names.has(w)) {
      throw new ConfigError(
        `invalid configuration: DOCKET_TOOLS: unknown toolset or tool '${w}' (toolsets: read, ${TOOLSETS.join(", ")}; or tool names such as get_case)`,
      );
    }
  }
  const readOnly = words.includes("read");
  const picks = words.filter((w) => w !== "read");
  const selected = all.filter(
    (op) =>
      (picks.length === 0 || picks.includes(op.toolset) || picks.includes(op.name)) &&
      (!readOnly || op.kind === "read"),
  );
  if (selected.length === 0) {
    throw new ConfigError(`invalid configuration: DOCKET_TOOLS: '${spec}' selects no tools`);
  }
  return selected;
}
