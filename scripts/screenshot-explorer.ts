/**
 * Takes docs/explorer-case.png: a case page of the seeded dev chain in headless Chromium
 * (/usr/bin/chromium). Run: `npx tsx scripts/screenshot-explorer.ts`.
 */
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { loadConfig } from "../src/config.js";
import { startServer } from "../src/server.js";

const out = fileURLToPath(new URL("../docs/explorer-case.png", import.meta.url));
const docket = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", DEV_FACILITATOR: "off" }));
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox"] });
try {
  // A case whose evidence holds an image, the one under deliberation otherwise.
  const cases = docket.dev?.devnet.seed?.cases ?? [];
  let target = cases.find((c) => c.state === "Deliberating");
  for (const c of cases) {
    const list = (await (await fetch(`${docket.url}/cases/${c.address}/evidence`)).json()) as {
      evidence: { document?: { file?: { mediaType?: string } } }[];
    };
    if (list.evidence.some((e) => e.document?.file?.mediaType?.startsWith("image/"))) {
      target = c;
      break;
    }
  }
  if (!target) throw new Error("the dev chain has no seeded case to show");
  const page = await browser.newPage({ viewport: { width: 900, height: 1200 }, deviceScaleFactor: 1 });
  await page.goto(`${docket.url}/explorer/cases/${target.address}`);
  await page.locator("#live-status", { hasText: "Live" }).waitFor({ timeout: 10_000 });
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await docket.close();
}
