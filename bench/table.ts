/**
 * Prints the markdown tables of a results file: `npx tsx bench/table.ts [results.json]`.
 * With `--readme`, also writes them into bench/README.md between its results markers, so the
 * README always quotes a real run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../test/support/index.js";
import { type Results, renderMarkdown } from "./lib/report.js";

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--")) ?? join(ROOT, "bench", "results.json");
const markdown = renderMarkdown(JSON.parse(readFileSync(file, "utf8")) as Results);
process.stdout.write(`${markdown}\n`);

if (args.includes("--readme")) {
  const readme = join(ROOT, "bench", "README.md");
  const text = readFileSync(readme, "utf8");
  const start = "<!-- results:start -->";
  const end = "<!-- results:end -->";
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${readme} has no ${start} ... ${end} section`);
  writeFileSync(readme, `${text.slice(0, a + start.length)}\n${markdown}\n${text.slice(b)}`);
  process.stderr.write(`updated ${readme}\n`);
}
