import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** axe-core's engine, as its package ships it for a browser. */
const source = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** An accessibility rule a page breaks, and where. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * The accessibility rules (WCAG 2.x A and AA, axe-core's) the page open in `page` breaks: axe-core
 * run in the page itself, on the page as it is drawn (colours, labels, landmarks, headings).
 * Injected through the debugging protocol, which the page's CSP does not govern.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<AxeResults> } }).axe;
    const r = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
}

interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}
