import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { operations } from "../../src/operations/registry.js";
import { TEST_INDEX } from "../support/index.js";
import type { Json } from "./helpers.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
// Pinned at 0.15.0, the last MCP Inspector whose engines allow Node 20 (later ones want Node 22).
const inspector = fileURLToPath(new URL("../../node_modules/.bin/mcp-inspector", import.meta.url));
const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "warn", ...TEST_INDEX };

/** One run of the Inspector's CLI mode, which starts the server, asks one thing and prints the answer. */
async function inspect(args: string[]): Promise<Json> {
  const { stdout } = await run(inspector, ["--cli", ...args], { cwd: root, env, timeout: 110_000 });
  return JSON.parse(stdout);
}

/** A client we did not write, the MCP Inspector, against the stdio server. */
describe("MCP Inspector CLI against docket's stdio server", () => {
  it("tools/list (through mcp.json), tools/call get_health, and a tool error", async () => {
    // Three independent servers, each on its own dev chain: run them side by side.
    const [listed, health, failed] = await Promise.all([
      inspect(["--config", "mcp.json", "--server", "docket", "--method", "tools/list"]),
      inspect(["node", "bin/docket.js", "mcp", "--method", "tools/call", "--tool-name", "get_health"]),
      inspect([
        "node",
        "bin/docket.js",
        "mcp",
        "--method",
        "tools/call",
        "--tool-name",
        "get_case",
        "--tool-arg",
        "address=0x1234",
      ]),
    ]);
    expect(listed.tools.map((t: Json) => t.name).sort()).toEqual(operations.map((op) => op.name).sort());
    expect(listed.tools.find((t: Json) => t.name === "get_case").annotations).toMatchObject({ readOnlyHint: true });
    expect(health.structuredContent).toMatchObject({ status: "ok", chainId: 31337 });
    expect(JSON.parse(health.content[0].text)).toEqual(health.structuredContent);
    expect(failed).toMatchObject({ isError: true, structuredContent: { error: { code: "INVALID_ADDRESS" } } });
    // Three dev chains boot and seed side by side (each stdio server follows its chain too): on a
    // loaded 2-core machine that alone can take most of a minute.
  }, 120_000);
});
