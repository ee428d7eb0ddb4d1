import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Docket } from "../../src/server.js";
import { launchChromium, skipWithoutChromium } from "../support/chromium.js";
import { TestDocket } from "../support/index.js";

/**
 * /docs in a real headless Chromium: Swagger UI loads offline from our own server, lists the
 * operations, and "Try it out" on GET /cases/{address} reads a seeded case live.
 * Chromium is /usr/bin/chromium (test/support/chromium.ts).
 */

const skip = skipWithoutChromium("docs.browser.test.ts");

describe.skipIf(skip)("/docs in headless Chromium", () => {
  let docket: Docket;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page;

  beforeAll(async () => {
    [docket, browser] = await Promise.all([TestDocket.shared().then((t) => t.docket), launchChromium()]);
    context = await browser.newContext();
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await docket?.close();
  });

  it("lists the operations by operation id and path", async () => {
    const res = await page.goto(`${docket.url}/docs`);
    expect(res?.status()).toBe(200);
    expect(page.url()).toBe(`${docket.url}/docs/`);
    const getCase = page.locator("#operations-cases-get_case");
    await getCase.waitFor({ timeout: 15_000 });
    await expect(page.title()).resolves.toBe("docket API");
    const ids = (await page.locator(".opblock .opblock-summary-operation-id").allTextContents()).map((t) => t.trim());
    for (const id of ["get_case", "list_cases", "vote_on_case", "get_judge_pool", "self_register_agent"]) {
      expect(ids).toContain(id);
    }
    expect(await text(getCase.locator(".opblock-summary-path"))).toMatch(/^\/cases\/\{address\}$/);
    expect(await text(getCase.locator(".opblock-summary-method"))).toBe("GET");
  });

  it("GET /cases/{address}: Try it out, Execute, and the live answer is the case", async () => {
    const seeded = docket.dev?.devnet.seed?.cases.find((c) => c.state === "Deliberating");
    if (!seeded) throw new Error("the dev chain has no seeded Deliberating case");
    const op = page.locator("#operations-cases-get_case");
    await op.locator(".opblock-summary-control").click();
    await op.getByRole("button", { name: "Try it out" }).click();
    await op.locator('tr[data-param-name="address"] input').fill(seeded.address);
    await op.getByRole("button", { name: "Execute" }).click();

    const live = op.locator(".live-responses-table tr.response");
    await live.waitFor({ timeout: 15_000 });
    expect(await text(live.locator(".response-col_status"))).toBe("200");
    const body = JSON.parse(await text(live.locator(".response-col_description pre").first()));
    expect(body.case).toMatchObject({ address: seeded.address, state: "Deliberating", stateIndex: 3 });
    expect(body.case.judges).toHaveLength(3);
    // The request URL Swagger UI shows is the one it called.
    expect(await text(op.locator(".request-url pre"))).toBe(`${docket.url}/cases/${seeded.address}`);
  });
});

async function text(l: Locator): Promise<string> {
  return ((await l.textContent()) ?? "").trim();
}
