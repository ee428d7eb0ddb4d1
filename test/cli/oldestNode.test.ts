import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DocketProcess, ROOT, spawnDocket } from "../support/index.js";
import { expectServesExplorer } from "./helpers.js";

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

  it("is the oldest Node package.json's engines names", () => {
    const { engines } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };
    const version = execFileSync(oldest as string, ["--version"], { encoding: "utf8" }).trim();
    expect(engines.node).toBe(`>=${version.slice(1).replace(/\.0$/, "")}`);
  });

  it("serves the explorer, its assets, the API and the MCP App", async () => {
    await expectServesExplorer(d);
  });
});
