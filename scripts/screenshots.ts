/**
 * The explorer's screenshots in docs/explorer/ (docs/explorer.md shows them): each page type of the
 * seeded dev chain in headless Chromium, at 1280 and at 390 px wide, the first screenful of each
 * (small PNGs, palette-reduced by ./pngSmall.ts, that still show what a person sees first). Run:
 * `npm run screenshots`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { loadConfig } from "../src/config.js";
import { startServer } from "../src/server.js";
import { smallPng } from "./pngSmall.js";

const out = fileURLToPath(new URL("../docs/explorer/", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const WIDTHS = [
  { width: 1280, height: 860 },
  { width: 390, height: 844 },
] as const;

await mkdir(out, { recursive: true });
const docket = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", DEV_FACILITATOR: "off" }));
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox"] });
try {
  const seed = docket.dev?.devnet.seed;
  const cases = seed?.cases ?? [];
  const appealed = cases.find((c) => c.state === "Appealed");
  const settled = cases.find((c) => c.label === "resolved, settled");
  if (!appealed || !settled) throw new Error("the dev chain has no seeded appealed or settled case");
  const res = await fetch(`${docket.url}/cases/${settled.address}`);
  const c = ((await res.json()) as { case: { plaintiff: string; judges: string[] } }).case;
  const judge = c.judges[0] as string;
  const pages: [string, string][] = [
    ["overview", "/"],
    ["cases", "/explorer/cases"],
    ["case", `/explorer/cases/${settled.address}`],
    ["case-appealed", `/explorer/cases/${appealed.address}`],
    ["court", "/explorer/courts/1"],
    ["agent", `/explorer/agents/${c.plaintiff}`],
    ["judge", `/explorer/judges/${judge}`],
    ["jobs", "/explorer/jobs"],
  ];
  for (const viewport of WIDTHS) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme: "light" });
    const page = await context.newPage();
    for (const [name, path] of pages) {
      await page.goto(`${docket.url}${path}`, { waitUntil: "load" });
      const file = `${out}${name}-${viewport.width}.png`;
      await writeFile(file, smallPng(await page.screenshot()));
      console.log(`wrote ${file}`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await docket.close();
}
