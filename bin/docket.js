#!/usr/bin/env node
// Runs docket as JavaScript compiled from src/ by esbuild: each file on its own, exactly as tsx
// would, but built once, not at every start, and without the helpers tsx adds to every function
// made at run time (a cached read costs about 5% less). A build is a copy of src/ with each .ts
// file compiled to .js beside it: every file the code reads next to itself at run time (the
// explorer's templates and stylesheet, the browser sources it bundles on first use, the courts'
// policies) is there, found as it is found in src/, without a list to keep. The output goes to
// dist/<hash of every file in src/, the esbuild version and the Node it targets>/, so an edited
// file is rebuilt on the next start and a stale build is never run; two starts at once build side
// by side and keep one. No build step between clone and use: if dist/ cannot be written (a
// read-only install), the sources run through tsx.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const dist = join(root, "dist");

/** Every file under dir, in a stable order. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The directory holding a build of these sources, built now if there is none yet; undefined if it cannot be. */
function build(files) {
  // esbuild itself is loaded only to build: loading it starts its service process, which would
  // otherwise run beside docket for as long as docket does.
  const require = createRequire(import.meta.url);
  let version;
  try {
    version = require("esbuild/package.json").version;
  } catch {
    return undefined;
  }
  const target = `node${process.versions.node}`;
  const hash = createHash("sha256").update(`esbuild ${version} ${target}\0`);
  for (const f of files)
    hash
      .update(`${relative(src, f)}\0`)
      .update(readFileSync(f))
      .update("\0");
  const out = join(dist, hash.digest("hex").slice(0, 16));
  if (existsSync(join(out, "cli.js"))) return out;
  const tmp = `${out}.${process.pid}.tmp`;
  try {
    const esbuild = require("esbuild");
    mkdirSync(dist, { recursive: true });
    cpSync(src, tmp, { recursive: true });
    esbuild.buildSync({
      entryPoints: files.filter((f) => f.endsWith(".ts")),
      outdir: tmp,
      outbase: src,
      format: "esm",
      platform: "node",
      target,
      sourcemap: "linked",
      logLevel: "silent",
    });
    renameSync(tmp, out);
  } catch {
    // Another start finished the same build first (the rename found it there), or dist/ is read-only.
    try {
      rmSync(tmp, { recursive: true, force: true });
    } catch {
      // Nothing was written.
    }
    if (!existsSync(join(out, "cli.js"))) return undefined;
  }
  prune(out);
  return out;
}

/** Drops builds of older sources, once nothing can still be starting from them. */
function prune(keep) {
  const hour = Date.now() - 3_600_000;
  for (const name of readdirSync(dist)) {
    const dir = join(dist, name);
    try {
      if (dir !== keep && statSync(dir).mtimeMs < hour) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

const built = build(sources(src));
if (built) {
  // Stack traces (logged for unexpected errors) point into src/, not the build.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(join(built, "cli.js")).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(src, "cli.ts")).href);
}
