import { execFile } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A copy of docket (bin, src, package.json; node_modules linked) with no build yet. */
function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), "docket-bin-"));
  dirs.push(dir);
  for (const part of ["bin", "src", "package.json"]) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/** `docket help` in that copy: its usage text (stderr). */
async function usage(dir: string): Promise<string> {
  const { stderr } = await run(process.execPath, [join(dir, "bin", "docket.js"), "help"], { cwd: dir });
  return stderr;
}

const builds = (dir: string) => readdirSync(join(dir, "dist")).sort();

/** bin/docket.js runs a build of src/ that is never older than src/. */
describe("bin/docket.js", () => {
  let dir: string;
  beforeEach(() => {
    dir = copy();
  });

  it("builds src/ once into dist/<hash>/ and runs from there", async () => {
    expect(await usage(dir)).toContain("usage: docket <command>");
    const [build, ...more] = builds(dir);
    expect(more).toEqual([]);
    expect(build).toMatch(/^[0-9a-f]{16}$/);
    expect(existsSync(join(dir, "dist", build as string, "http", "app.js"))).toBe(true);
    expect(existsSync(join(dir, "dist", build as string, "http", "app.js.map"))).toBe(true);
    // The second start reuses it.
    await usage(dir);
    expect(builds(dir)).toEqual([build]);
  });

  it("rebuilds when a source changes, so an edit is never shadowed by an old build", async () => {
    await usage(dir);
    const [first] = builds(dir);
    const cli = join(dir, "src", "cli.ts");
    writeFileSync(
      cli,
      readFileSync(cli, "utf8").replace("usage: docket <command>", "usage: docket (edited) <command>"),
    );
    expect(await usage(dir)).toContain("usage: docket (edited) <command>");
    const after = builds(dir);
    expect(after).toHaveLength(2);
    expect(after).toContain(first);
    // A comment is a change too: the build follows the bytes, not the behaviour.
    appendFileSync(cli, "\n// edited\n");
    await usage(dir);
    expect(builds(dir)).toHaveLength(3);
    // Builds of older sources go once nothing can still be starting from them (an hour).
    const old = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(join(dir, "dist", first as string), old, old);
    appendFileSync(cli, "// edited again\n");
    await usage(dir);
    const left = builds(dir);
    expect(left).toHaveLength(3);
    expect(left).not.toContain(first);
  });

  it("keeps one build when several start at once", async () => {
    const outs = await Promise.all([1, 2, 3, 4].map(() => usage(dir)));
    for (const out of outs) expect(out).toContain("usage: docket <command>");
    expect(builds(dir)).toHaveLength(1);
    expect(builds(dir)[0]).not.toMatch(/tmp/);
  });

  it("runs the sources through tsx when dist/ cannot be written", async () => {
    writeFileSync(join(dir, "dist"), "not a directory");
    const cli = join(dir, "src", "cli.ts");
    writeFileSync(
      cli,
      readFileSync(cli, "utf8").replace("usage: docket <command>", "usage: docket (from src) <command>"),
    );
    expect(await usage(dir)).toContain("usage: docket (from src) <command>");
  });
});

/** Every file under dir, relative to it. */
function files(dir: string, under = ""): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(dir, join(under, e.name)) : [join(under, e.name)],
  );
}

/**
 * What docket reads next to its code at run time (templates, styles, policies, the browser sources
 * it bundles on first use) must be in the build it runs: a build that carries only the compiled .ts
 * serves an explorer that never answers.
 */
describe("the build carries every file docket reads at run time", () => {
  it("holds each file of src/ as it is, beside the compiled JavaScript", async () => {
    const dir = copy();
    await usage(dir);
    const [build] = builds(dir);
    const out = join(dir, "dist", build as string);
    const missing = files(join(dir, "src")).filter((f) => !existsSync(join(out, f)));
    expect(missing).toEqual([]);
    // And the compiled code the build runs.
    expect(existsSync(join(out, "web", "explorer.js"))).toBe(true);
  });

  it("rebuilds when a file that is not TypeScript changes", async () => {
    const dir = copy();
    await usage(dir);
    const [first] = builds(dir);
    appendFileSync(join(dir, "src", "web", "views", "error.eta"), "\n");
    await usage(dir);
    expect(builds(dir)).toHaveLength(2);
    expect(builds(dir)).toContain(first);
  });
});
