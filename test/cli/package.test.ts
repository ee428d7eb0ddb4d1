import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DocketProcess, ROOT, spawnDocket } from "../support/index.js";
import { expectServesExplorer } from "./helpers.js";

const run = promisify(execFile);

/** Every file under dir, relative to root. */
function files(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), root) : [relative(root, join(dir, e.name))],
  );
}

/**
 * The package as a user gets it: `npm pack`, installed from its tarball into an empty directory
 * with no network, then `npx docket deploy --help`, `npx docket start` (the dev chain, the explorer,
 * its assets, the MCP App) and `npx docket mcp` (over stdio) run there.
 *
 * Offline: npm resolves a tarball's dependency ranges from the registry's package documents, which
 * an install from a lock file (the repository's, CI's) never caches; the dependency tarballs are in
 * npm's cache, by integrity. So the directory gets a lock file made from the repository's own (its
 * production part, the versions the suite tests), and `npm ci --offline` installs exactly those.
 * Online, `npm install docket-<version>.tgz` alone does it.
 */
describe("the packed package, installed offline into an empty directory", () => {
  // In the run's temp directory, which the run removes (test/support/globalSetup.ts).
  const dir = mkdtempSync(join(tmpdir(), "docket-package-"));
  const app = join(dir, "app");
  let tarball: string;
  let packed: string[];

  beforeAll(async () => {
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", dir], { cwd: ROOT });
    const [pack] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    if (!pack) throw new Error(`npm pack printed no package: ${stdout}`);
    tarball = pack.filename;
    packed = pack.files.map((f) => f.path).sort();

    mkdirSync(app);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
    writeFileSync(join(app, tarball), readFileSync(join(dir, tarball)));
    const manifest = { name: "docket-user", private: true, dependencies: { docket: `file:${tarball}` } };
    const packages: Record<string, unknown> = {
      "": manifest,
      "node_modules/docket": {
        version: pkg.version,
        resolved: `file:${tarball}`,
        license: pkg.license,
        dependencies: pkg.dependencies,
        bin: pkg.bin,
        engines: pkg.engines,
      },
    };
    for (const [path, entry] of Object.entries(lock.packages as Record<string, { dev?: boolean }>))
      if (path !== "" && !entry.dev) packages[path] = entry;
    writeFileSync(join(app, "package.json"), JSON.stringify(manifest));
    writeFileSync(
      join(app, "package-lock.json"),
      JSON.stringify({ name: manifest.name, lockfileVersion: 3, requires: true, packages }),
    );
    await run("npm", ["ci", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"], {
      cwd: app,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: Error & { stderr?: string }) => {
      if (!err.stderr?.includes("ENOTCACHED")) throw err;
      throw new Error(
        `npm's cache lacks a dependency the lock file names (an npm install on a clean clone fills it, as .ci/run does):\n${err.stderr}`,
      );
    });
  }, 300_000);

  it("holds exactly what docket runs from: its bin, src/ whole, package.json, server.json (its identity, which the cards read), the README, and the skills", () => {
    expect(packed).toEqual(
      [
        "README.md",
        "bin/docket.js",
        "package.json",
        "server.json",
        ...files(join(ROOT, "src")).map((f) => `src/${f}`),
        ...files(join(ROOT, "skills")).map((f) => `skills/${f}`),
      ].sort(),
    );
  });

  it("npx docket deploy --help prints the deploy command's usage", async () => {
    const { stdout } = await run("npx", ["docket", "deploy", "--help"], { cwd: app });
    expect(stdout).toMatch(/^usage: docket deploy\n/);
    expect(stdout).toContain("DEPLOYER_PRIVATE_KEY");
  });

  describe("npx docket start and npx docket mcp, side by side", () => {
    let d: DocketProcess;
    let mcp: Client;
    beforeAll(async () => {
      mcp = new Client({ name: "package-test", version: "1.0.0" });
      const transport = new StdioClientTransport({
        command: "npx",
        args: ["docket", "mcp"],
        cwd: app,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TMPDIR: process.env.TMPDIR ?? tmpdir() },
        stderr: "ignore",
      });
      [d] = await Promise.all([
        spawnDocket({ DEV_FACILITATOR: "off" }, 150_000, { command: "npx", args: ["docket", "start"], cwd: app }),
        mcp.connect(transport),
      ]);
    }, 160_000);
    afterAll(async () => {
      await mcp?.close();
      await d?.stop();
    });

    it("start serves the explorer, its assets and the MCP App from the installed package's build", async () => {
      expect(readdirSync(join(app, "node_modules", "docket", "dist")).length).toBeGreaterThan(0);
      await expectServesExplorer(d);
    });

    it("mcp answers over stdio, the MCP App included", async () => {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toContain("get_case");
      const view = await mcp.readResource({ uri: "ui://docket/case" });
      expect(JSON.stringify(view.contents)).toContain("<script");
    });
  });
});
