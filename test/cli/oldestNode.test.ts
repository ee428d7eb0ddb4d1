import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DocketProcess, ROOT, request, spawnDocket } from "../support/index.js";

/**
 * docket on the oldest Node package.json's `engines` names, while the suite runs on the current
 * LTS: `npm start` (the build included) serves the explorer, its assets and the MCP App there too.
 * CI hands the test that Node (.ci/run fetches it from the npm registry, DOCKET_OLDEST_NODE); elsewhere
 * the suite is skipped without it.
 */

const oldest = process.env.DOCKET_OLDEST_NODE;
const inCi = Boolean(process.env.CI) && process.env.CI !== "false" && process.env.CI !== "0";
if (!oldest && !inCi)
  console.warn("oldestNode.test.ts SKIPPED: set DOCKET_OLDEST_NODE to a Node of package.json's engines minimum");

describe.skipIf(!oldest && !inCi)("docket on the oldest Node engines names", () => {
  let d: DocketProcess;
  beforeAll(async () => {
    if (!oldest) throw new Error("CI is set but DOCKET_OLDEST_NODE is not: .ci/run should have fetched that Node");
    d = await spawnDocket({ DEV_FACILITATOR: "off" }, 120_000, { command: oldest });
  }, 130_000);
  afterAll(async () => {
    await d?.stop();
  });

  it("is the Node engines names, older than the one the suite runs on", () => {
    const { engines } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };
    const version = execFileSync(oldest as string, ["--version"], { encoding: "utf8" }).trim();
    expect(engines.node).toBe(`>=${version.slice(1).replace(/\.0$/, "")}`);
  });

  it("serves the explorer, its assets, the API and the MCP App", async () => {
    expect((await request(d, "/health")).status).toBe(200);
    for (const path of ["/", "/explorer/cases", "/explorer/courts"]) {
      const page = await request(d, path, undefined, { accept: "text/html" });
      expect(page.status, path).toBe(200);
      expect(page.body).toContain("docket explorer");
    }
    for (const asset of ["explorer.css", "live.js", "favicon.svg"])
      expect((await request(d, `/explorer/assets/${asset}`)).status, asset).toBe(200);
    const client = new Client({ name: "oldest-node", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`)));
    try {
      const app = await client.readResource({ uri: "ui://docket/case" });
      expect(JSON.stringify(app.contents)).toContain("<script");
    } finally {
      await client.close();
    }
  });
});
