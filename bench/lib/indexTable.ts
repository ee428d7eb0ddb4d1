/**
 * Items 13 and 14 as markdown, from their results files: `npx tsx bench/lib/indexTable.ts` prints the
 * tables bench/README.md's "The index, measured" section holds.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../test/support/index.js";
import type { EngineResult } from "../items/indexScale.js";

const read = (name: string) => {
  const f = join(ROOT, "bench", name);
  return existsSync(f) ? JSON.parse(readFileSync(f, "utf8")) : undefined;
};
const row = (cells: unknown[]) => `| ${cells.map(String).join(" | ")} |`;
const lines: string[] = [];

for (const name of ["results.index.pglite.json", "results.index.postgres.json"]) {
  const r = read(name) as
    | {
        machine: { date: string; loadAverage1mAtStart: number };
        seconds: number;
        done: boolean;
        engines: EngineResult[];
      }
    | undefined;
  const e = r?.engines[0];
  if (!r || !e) continue;
  lines.push(
    `**${e.engine}** (\`${name}\`, ${r.machine.date}, load average at start ${r.machine.loadAverage1mAtStart}, ${r.seconds} s${r.done ? "" : ", stopped before the last checkpoint"})`,
    "",
    row([
      "events",
      "cases",
      "events/s since the last row",
      "RSS MiB",
      "heap MiB",
      ...(e.checkpoints[0]?.queries ?? []).map((q) => `${q.query} p50 ms`),
    ]),
    row(Array(5 + (e.checkpoints[0]?.queries.length ?? 0)).fill("---")),
  );
  const small = e.small;
  lines.push(row([small.events, small.cases, "", "", "", ...small.queries.map((q) => q.p50Ms)]));
  for (const c of e.checkpoints) {
    lines.push(row([c.events, c.cases, c.eventsPerSecond, c.rssMiB, c.heapUsedMiB, ...c.queries.map((q) => q.p50Ms)]));
  }
  const sources = [...new Set(small.queries.map((q) => q.source))].join(", ");
  lines.push("", `Reads answered by: ${sources}.`, "");
  const large = e.large;
  if (large && e.ratios) {
    lines.push(
      row([
        "",
        `${small.cases} cases (${small.events} events)`,
        `${large.cases} cases (${large.events} events)`,
        "ratio",
      ]),
      row(Array(4).fill("---")),
      ...e.ratios.map((x) => row([`${x.query} p50 ms`, x.smallP50Ms, x.largeP50Ms, `${x.ratio}x`])),
      row(["backfill, events/s (the whole fill)", small.eventsPerSecond, large.eventsPerSecond, ""]),
      row(["RSS MiB, after a forced GC", small.rssMiB, large.rssMiB, ""]),
      "",
    );
  }
}

const chain = read("results.index.chain.json");
if (chain)
  lines.push(
    "**Item 14**",
    "",
    "```json",
    JSON.stringify({ scan: chain.scan, backfill: chain.backfill }, null, 2),
    "```",
  );
process.stdout.write(`${lines.join("\n")}\n`);
