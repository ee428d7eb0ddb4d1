import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_APP_URI, MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION } from "../../src/mcp/apps.js";
import { connectHttp, ERAS, type Json } from "../mcp/helpers.js";
import { launchChromium, skipWithoutChromium } from "../support/chromium.js";
import { BuiltDocket } from "../support/index.js";

/**
 * The case page as an MCP App: get_case names the `ui://docket/case` resource in its `_meta`, the
 * resource is the HTML view (text/html;profile=mcp-app), and that view, loaded by a host the way
 * the MCP Apps extension says (a sandboxed iframe, `ui/initialize`, then the tool's result), draws
 * the case, party text as text, in real Chromium.
 */

const skip = skipWithoutChromium("mcpApp.browser.test.ts");
const HOSTILE_CLAIM = `<img src="/pwned" onerror="alert('claim')"><script>alert('claim')</script>`;

describe.skipIf(skip)("the case view as an MCP App", () => {
  let t: BuiltDocket;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let caseAddr: string;

  beforeAll(async () => {
    [t, browser] = await Promise.all([BuiltDocket.shared({ EVENT_POLL_MS: "0" }), launchChromium()]);
    context = await browser.newContext();
    page = await context.newPage();
    caseAddr = await t.fileOnChain(15, 19, HOSTILE_CLAIM);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  for (const era of ERAS) {
    it(`${era}: get_case names the UI resource; its answer is unchanged; the resource is the view's HTML`, async () => {
      const client = await connectHttp(era, `${t.url}/mcp`);
      try {
        const { tools } = await client.listTools();
        const getCase = tools.find((x) => x.name === "get_case");
        expect(getCase?._meta).toEqual({ ui: { resourceUri: CASE_APP_URI } });
        expect(tools.filter((x) => x._meta !== undefined).map((x) => x.name)).toEqual(["get_case"]);
        expect(client.getServerCapabilities()?.extensions).toHaveProperty([MCP_APPS_EXTENSION]);

        const r = (await client.callTool({ name: "get_case", arguments: { address: caseAddr } })) as Json;
        expect(r.isError).toBeFalsy();
        expect(r.structuredContent).toEqual((await t.get(`/cases/${caseAddr}`)).body);

        const res = await client.readResource({ uri: CASE_APP_URI });
        const [content] = res.contents as Json[];
        expect(content.mimeType).toBe(MCP_APP_MIME_TYPE);
        expect(content.text).toMatch(/^<!doctype html>/);
        expect(content.text.match(/<\/script>/g)).toHaveLength(1);
        expect(content._meta.ui.csp).toEqual({ connectDomains: [], resourceDomains: [] });
      } finally {
        await client.close();
      }
    });
  }

  it("a host that renders it shows the case from get_case's result, and the planted claim stays text", async () => {
    const client = await connectHttp("2026-07-28", `${t.url}/mcp`);
    const html = ((await client.readResource({ uri: CASE_APP_URI })).contents[0] as Json).text as string;
    const result = await client.callTool({ name: "get_case", arguments: { address: caseAddr } });
    await client.close();

    const dialogs: string[] = [];
    const requests: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on("request", (r) => requests.push(r.url()));
    await page.goto("about:blank");
    // A minimal host: the view in a sandboxed iframe, answering its handshake, then handing it the result.
    const seen = await page.evaluate(
      ([doc, toolResult]) =>
        new Promise<string[]>((resolve) => {
          // This runs in the page (no DOM types here).
          const { document, window } = globalThis as Json;
          const methods: string[] = [];
          const frame = document.createElement("iframe");
          frame.setAttribute("sandbox", "allow-scripts");
          frame.style.width = "600px";
          frame.style.height = "800px";
          window.addEventListener("message", (event: Json) => {
            const m = event.data;
            if (event.source !== frame.contentWindow || m?.jsonrpc !== "2.0") return;
            methods.push(m.method ?? "response");
            const reply = (msg: object) => frame.contentWindow?.postMessage({ jsonrpc: "2.0", ...msg }, "*");
            if (m.method === "ui/initialize") {
              reply({
                id: m.id,
                result: {
                  protocolVersion: "2026-01-26",
                  hostInfo: { name: "test-host", version: "1" },
                  hostCapabilities: {},
                  hostContext: {},
                },
              });
            }
            if (m.method === "ui/notifications/initialized") {
              reply({ method: "ui/notifications/tool-input", params: { arguments: {} } });
              reply({ method: "ui/notifications/tool-result", params: toolResult });
              setTimeout(() => resolve(methods), 300);
            }
          });
          frame.srcdoc = doc;
          document.body.append(frame);
        }),
      [html, result] as const,
    );
    expect(seen.slice(0, 2)).toEqual(["ui/initialize", "ui/notifications/initialized"]);
    const view = page.frameLocator("iframe");
    const c = (await t.get(`/cases/${caseAddr}`)).body.case;
    await expect(view.locator("blockquote").textContent()).resolves.toBe(HOSTILE_CLAIM);
    await expect(view.locator("dl dd").first().textContent()).resolves.toContain(c.plaintiff);
    await expect(view.locator("p.state").textContent()).resolves.toContain(c.state);
    await expect(view.locator("img, main script").count()).resolves.toBe(0);
    expect(dialogs).toEqual([]);
    expect(requests.filter((u) => u !== "about:blank" && u !== "about:srcdoc")).toEqual([]);
  });
});
