import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The layers of docs/architecture.md, enforced: which folder of src/ may import which. A change
 * that reaches upward (the chain layer importing an operation, a front end importing the other)
 * fails here, with the import that did it.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

/** Each layer and the layers it may import (besides itself). Files at the root of src/ are named alone. */
const MAY_IMPORT: Record<string, string[]> = {
  formats: [],
  log: [],
  // Parts started in order and closed in reverse: knows no part, only how to close one.
  lifecycle: ["log"],
  config: ["formats"],
  evidence: ["errors", "log", "formats"],
  errors: ["chain/abi", "formats"],
  "chain/abi": [],
  cache: ["log", "errors"],
  chain: ["chain/abi", "config", "log", "errors", "cache"],
  // What goes stale when: the cache keys and the freshness table, keyed by the contract events chain/ follows.
  freshness: ["chain"],
  deploy: ["chain", "chain/abi"],
  devnet: ["deploy", "chain", "chain/abi", "log", "evidence"],
  tx: ["chain", "chain/abi", "errors"],
  payments: ["chain", "chain/abi", "errors", "formats", "tx"],
  events: ["chain", "chain/abi", "log", "formats"],
  // The index's database (docs/index.md): the query builder over PGlite or Postgres, its migrations.
  store: ["config", "log", "errors", "formats", "chain"],
  // The index (docs/index.md): the writer the follower drives, the queries operations ask.
  index: ["store", "chain", "chain/abi", "config", "lifecycle", "log", "errors", "formats", "events"],
  operations: [
    "chain",
    "chain/abi",
    "cache",
    "freshness",
    "tx",
    "payments",
    "errors",
    "formats",
    "log",
    "evidence",
    "index",
    "events",
    "webhooks",
  ],
  // What docket sends to webhook endpoints (docs/webhooks.md): the signed POST, the challenge, the address guard.
  webhooks: [],
  // The browser's scripts (the explorer's live script, the MCP App's case view) and their bundler.
  browser: [],
  // Neutral ground under the doors: the door kernel, the HTTP error envelope, middleware composition,
  // the JSON depth check, the DOCKET_TOOLS selection. It imports no door.
  doors: ["operations", "payments", "errors", "log", "formats", "config"],
  // The doors: siblings that never import each other (see DOORS below).
  http: ["doors", "operations", "payments", "events", "evidence", "errors", "log", "formats", "config"],
  mcp: ["doors", "browser", "operations", "payments", "events", "errors", "log", "formats", "config"],
  web: ["doors", "browser", "operations", "events", "errors", "log", "formats", "config"],
  discovery: ["http", "mcp", "operations", "errors", "log", "formats", "config"],
  // The composition root: everything.
  server: ["*"],
  commands: ["*"],
  cli: ["*"],
};

/** The ways into the operations; each reaches them through `doors/` and none imports another. */
const DOORS = ["http", "mcp", "web"];

/** A circle in a graph of layers (`["a", "b", "a"]`), or undefined when there is none. */
function circleIn(edges: Map<string, Set<string>>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    const at = path.indexOf(node);
    if (at >= 0) return [...path.slice(at), node];
    if (done.has(node)) return undefined;
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    done.add(node);
    return undefined;
  };
  for (const node of edges.keys()) {
    const circle = visit(node);
    if (circle) return circle;
  }
  return undefined;
}

function layerOf(file: string): string {
  const rel = relative(SRC, file).replace(/\\/g, "/");
  if (rel.startsWith("chain/abi/")) return "chain/abi";
  const first = rel.split("/")[0] as string;
  return first.endsWith(".ts") ? first.slice(0, -3) : first;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith(".ts") ? [p] : [];
  });
}

/** Every relative import of a file, resolved to the file it names. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
    out.push(resolve(dirname(file), (m[1] as string).replace(/\.js$/, ".ts")));
  }
  return out;
}

describe("import layers (docs/architecture.md)", () => {
  const files = sources(SRC);

  it("every file of src/ belongs to a known layer", () => {
    const unknown = files
      .map((f) => `${relative(SRC, f)} (${layerOf(f)})`)
      .filter((f) => !((/\((.*)\)$/.exec(f)?.[1] as string) in MAY_IMPORT));
    expect(unknown).toEqual([]);
  });

  it("no two layers may import each other, and the table has no circle", () => {
    const mutual = Object.entries(MAY_IMPORT).flatMap(([a, targets]) =>
      targets.filter((b) => a < b && MAY_IMPORT[b]?.includes(a)).map((b) => `${a} <-> ${b}`),
    );
    expect(mutual).toEqual([]);
    const table = new Map(
      Object.entries(MAY_IMPORT).map(([a, targets]) => [a, new Set(targets.filter((t) => t !== "*"))]),
    );
    expect(circleIn(table)).toBeUndefined();
  });

  it("no import circle between files either (the chain access and its parts are types in chain/access.ts)", () => {
    const edges = new Map<string, Set<string>>();
    for (const f of files) edges.set(relative(SRC, f), new Set(importsOf(f).map((t) => relative(SRC, t))));
    expect(circleIn(edges)).toBeUndefined();
  });

  it("no import circle across folders", () => {
    const edges = new Map<string, Set<string>>();
    for (const f of files) {
      const from = layerOf(f);
      for (const target of importsOf(f)) {
        const to = layerOf(target);
        if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    expect(circleIn(edges)).toBeUndefined();
  });

  it("only the composition root (server.ts, commands/) imports the operation registry", () => {
    const registry = join(SRC, "operations/registry.ts");
    const importers = files
      .filter((f) => importsOf(f).includes(registry))
      .map((f) => relative(SRC, f).replace(/\\/g, "/"))
      .filter((f) => f !== "server.ts" && !f.startsWith("commands/"));
    expect(importers).toEqual([]);
  });

  it('every operation lives in a domain folder of operations/ (docs/architecture.md, "Operations by domain")', () => {
    const ops = join(SRC, "operations");
    const atRoot = files
      .filter((f) => dirname(f) === ops)
      .map((f) => relative(ops, f))
      .filter((f) => f !== "registry.ts");
    expect(atRoot).toEqual([]);
    const defined = files.filter((f) =>
      /=\s*define(Operation|CaseWrite|JobStep)\(/.test(readFileSync(f, "utf8").replace(/^\s*(\/\/|\*).*$/gm, "")),
    );
    const outside = defined
      .map((f) => relative(ops, f).replace(/\\/g, "/"))
      .filter((f) => f.startsWith("..") || f.startsWith("kernel/") || !f.includes("/"));
    expect(outside).toEqual([]);
    expect(defined.length).toBeGreaterThanOrEqual(40);
  });

  it("the doors are siblings: none may import another, and the neutral folder imports none", () => {
    const crossing = [...DOORS, "doors", "browser"].flatMap((from) =>
      DOORS.filter((to) => to !== from && (MAY_IMPORT[from] ?? []).includes(to)).map((to) => `${from} -> ${to}`),
    );
    expect(crossing).toEqual([]);
  });

  it("the composition root takes the DOCKET_TOOLS selection from doors/, not from a door", () => {
    const select = join(SRC, "doors/select.ts");
    const elsewhere = files.flatMap((f) =>
      [...readFileSync(f, "utf8").matchAll(/import\s*\{[^}]*\bselectOperations\b[^}]*\}\s*from\s*"([^"]+)"/g)]
        .map((m) => resolve(dirname(f), (m[1] as string).replace(/\.js$/, ".ts")))
        .filter((target) => target !== select)
        .map((target) => `${relative(SRC, f)} -> ${relative(SRC, target)}`),
    );
    expect(elsewhere).toEqual([]);
  });

  it("every way into run goes through the door kernel (doors/kernel.ts): outside operations/, only it imports a value of run.ts", () => {
    const kernel = join(SRC, "doors/kernel.ts");
    const bypass = files
      .filter((f) => f !== kernel && layerOf(f) !== "operations")
      .flatMap((f) =>
        [...readFileSync(f, "utf8").matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)]
          .filter((m) => {
            const target = resolve(dirname(f), (m[3] as string).replace(/\.js$/, ".ts"));
            return layerOf(target) === "operations" && target.endsWith("/run.ts");
          })
          .filter((m) => !m[1] && (m[2] as string).split(",").some((n) => n.trim() && !n.trim().startsWith("type ")))
          .map((m) => `${relative(SRC, f)}: ${(m[2] as string).trim()}`),
      );
    expect(bypass).toEqual([]);
  });

  it("no layer imports one it may not", () => {
    const bad: string[] = [];
    for (const f of files) {
      const from = layerOf(f);
      const allowed = MAY_IMPORT[from] ?? [];
      if (allowed.includes("*")) continue;
      for (const target of importsOf(f)) {
        const to = layerOf(target);
        if (to !== from && !allowed.includes(to)) bad.push(`${relative(SRC, f)} -> ${relative(SRC, target)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
