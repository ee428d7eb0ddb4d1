import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { MIGRATIONS } from "./migrations/index.js";

/**
 * An in-memory store (`memory://`) starts from a copy of an empty, migrated database instead of
 * running PGlite's initdb and the migrations again: about 0.7 s instead of 4-6 s on 2 cores, for
 * every test docket and every `docket mcp` that runs beside a `docket start`. The copy is PGlite's
 * own data-directory dump, kept in the OS temp directory under a name that changes with the PGlite
 * build and the migrations, written (atomically) by a process that had to migrate one: the first,
 * or one that found the template missing or unreadable.
 */
export function templatePath(): string {
  const wasm = createRequire(import.meta.url).resolve("@electric-sql/pglite/pglite.wasm");
  const { size, mtimeMs } = statSync(wasm);
  const migrations = Object.entries(MIGRATIONS)
    .map(([name, m]) => `${name}:${m.up.toString()}`)
    .join("\n");
  const key = createHash("sha256").update(`${wasm}|${size}|${mtimeMs}|${migrations}`).digest("hex").slice(0, 16);
  return join(tmpdir(), `docket-index-template-${key}.tar`);
}

/** Opens an in-memory PGlite: from the template when there is one (`migrated` true), else empty. */
export async function memoryPGlite(options: PGliteOptions): Promise<{ pglite: PGlite; migrated: boolean }> {
  let path: string;
  try {
    path = templatePath();
  } catch {
    return { pglite: await PGlite.create(options), migrated: false };
  }
  try {
    const dump = new Blob([readFileSync(path)]);
    return { pglite: await PGlite.create({ ...options, loadDataDir: dump }), migrated: true };
  } catch {
    // No template yet, or one PGlite cannot load: start empty (the caller migrates, then saves one).
    return { pglite: await PGlite.create(options), migrated: false };
  }
}

/** Saves a freshly migrated in-memory database as the template, replacing any; never throws. */
export async function saveTemplate(pglite: PGlite): Promise<void> {
  let path: string;
  try {
    path = templatePath();
  } catch {
    return;
  }
  const partial = `${path}.${process.pid}.partial`;
  try {
    const dump = await pglite.dumpDataDir("none");
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, path);
  } catch {
    rmSync(partial, { force: true });
  }
}
