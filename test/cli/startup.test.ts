import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, skipWithoutChromium } from "../support/chromium.js";
import { type DocketProcess, spawnDocket, waitFor } from "../support/index.js";

/**
 * The start-up smoke: `node bin/docket.js start` as `npm start` runs it (the build included, its
 * own dev chain), then everything it tells a person or a client to open: every URL its banner
 * prints, every explorer page reachable from `/` and every asset those pages load, the 404 page,
 * every MCP resource (listed, each template filled from the seed, and the MCP App `ui://docket/case`)
 * and prompt, `/docs` and `/openapi.json`. Each answers within 2 s with no 5xx; in Chromium each
 * page loads with no console error, no script error and no failed request.
 */

/** What one request may take, from sending it to the end of its body (a stream: to its headers). */
const LIMIT_MS = 2_000;

const skipBrowser = skipWithoutChromium("startup.test.ts (the Chromium part)");

interface Answer {
  url: string;
  status: number;
  ms: number;
  type: string;
  body: string;
}

/** GETs (or sends `init`) `url`, failing after LIMIT_MS; a stream (SSE) is closed once its headers are in. */
async function timed(url: string, init: RequestInit = {}): Promise<Answer> {
  const t0 = performance.now();
  const signal = AbortSignal.timeout(LIMIT_MS);
  try {
    const res = await fetch(url, { ...init, signal });
    const type = res.headers.get("content-type") ?? "";
    let body = "";
    if (type.includes("text/event-stream")) await res.body?.cancel();
    else body = await res.text();
    return { url, status: res.status, ms: performance.now() - t0, type, body };
  } catch (err) {
    throw new Error(`${init.method ?? "GET"} ${url} did not answer within ${LIMIT_MS} ms: ${(err as Error).message}`);
  }
}

/** The same-origin links and sources of an HTML page, as absolute URLs without their fragment. */
function linksOf(html: string, base: string): string[] {
  const origin = new URL(base).origin;
  return [...html.matchAll(/\b(?:href|src)="([^"]+)"/g)]
    .map((m) => new URL((m[1] as string).replaceAll("&amp;", "&"), base))
    .filter((u) => u.origin === origin)
    .map((u) => {
      u.hash = "";
      return u.href;
    });
}

const isPage = (url: string) => {
  const { pathname } = new URL(url);
  return pathname === "/" || (pathname.startsWith("/explorer") && !pathname.startsWith("/explorer/assets/"));
};

describe("start-up smoke: everything npm start tells a person or a client to open", () => {
  let d: DocketProcess;
  let banner: string;
  /** Every explorer page reachable from `/` (and the 404 page), as a browser asks for them. */
  const pages = new Map<string, Answer>();
  /** Every other same-origin URL those pages link or load (assets, evidence, docs). */
  const others = new Map<string, Answer>();
  const cases: string[] = [];
  let account: string;

  beforeAll(async () => {
    d = await spawnDocket({ LOG_LEVEL: "warn" }, 120_000);
    banner = await waitFor(
      "the whole banner",
      () => (d.output().includes("Ctrl-C stops docket") ? d.output() : undefined),
      10_000,
    );
    for (const m of banner.matchAll(/^ {2}(0x[0-9a-fA-F]{40}) {2}/gm)) cases.push(m[1] as string);
    account = (banner.match(/^ {2}#0 +(0x[0-9a-fA-F]{40})/m) as RegExpMatchArray)[1] as string;
  }, 130_000);

  afterAll(async () => {
    await d?.stop();
  });

  it("prints the URLs to open, the seeded cases and the dev accounts", () => {
    expect(banner).toContain(`docket is up on ${d.url}`);
    expect(cases.length).toBeGreaterThan(0);
    expect(account).toMatch(/^0x/);
  });

  it("answers every URL the banner prints within 2 s, none with a 5xx", async () => {
    const lines = banner.slice(banner.indexOf("docket is up")).split("\n");
    const urls = lines.flatMap((l) =>
      // A URL ends before the space, bracket or comma that follows it.
      [...l.matchAll(/https?:\/\/[^\s),]+/g)].map((m) => ({ line: l, url: m[0].replace("{address}", account) })),
    );
    // The explorer, docs, OpenAPI, health, SSE, inbox, keeper, three MCP doors and the dev chain's JSON-RPC.
    expect(urls.length).toBeGreaterThanOrEqual(11);
    for (const { line, url } of urls) {
      // The dev chain's JSON-RPC is a wallet's to open: it is asked as a wallet asks; the x402
      // facilitator is a payment client's, asked what it supports.
      const rpc = line.includes("JSON-RPC") && !url.startsWith(d.url);
      const facilitator = line.includes("facilitator") && !url.startsWith(d.url);
      const a = rpc
        ? await timed(url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
          })
        : facilitator
          ? await timed(`${url}/supported`)
          : await timed(url, { headers: { accept: url === `${d.url}/` ? "text/html" : "*/*" } });
      expect(a.status, `${url}: ${a.body.slice(0, 300)}`).toBeLessThan(rpc || !url.includes("/mcp") ? 400 : 500);
      if (rpc) expect(JSON.parse(a.body).result).toBe("0x7a69");
    }
  });

  it("serves every explorer page reachable from / and every asset and link on them within 2 s, none with a 5xx", async () => {
    const queue = [`${d.url}/`];
    while (queue.length > 0 && pages.size < 300) {
      const url = queue.shift() as string;
      if (pages.has(url)) continue;
      const a = await timed(url, { headers: { accept: "text/html" } });
      pages.set(url, a);
      expect(a.status, `${url}: ${a.body.slice(0, 300)}`).toBe(200);
      expect(a.type).toMatch(/^text\/html/);
      for (const link of linksOf(a.body, url)) {
        if (isPage(link)) {
          if (!pages.has(link)) queue.push(link);
        } else if (!others.has(link)) {
          others.set(link, await timed(link));
        }
      }
    }
    expect(queue).toEqual([]);
    const missing = `${d.url}/explorer/nope`;
    pages.set(missing, await timed(missing, { headers: { accept: "text/html" } }));
    expect(pages.get(missing)?.status).toBe(404);
    expect(pages.get(missing)?.type).toMatch(/^text\/html/);

    const paths = [...pages.keys()].map((u) => new URL(u).pathname);
    // A page of each kind: the overview, the case list, every seeded case, an agent, the courts, the jobs.
    for (const kind of [
      "/explorer/cases",
      "/explorer/agents/",
      "/explorer/courts",
      "/explorer/courts/",
      "/explorer/jobs",
      "/explorer/jobs/",
    ])
      expect(
        paths.some((p) => p.startsWith(kind)),
        kind,
      ).toBe(true);
    for (const c of cases) expect(paths).toContain(`/explorer/cases/${c}`);
    const assets = [...others.keys()].map((u) => new URL(u).pathname);
    expect(assets).toEqual(expect.arrayContaining(["/explorer/assets/explorer.css", "/explorer/assets/live.js"]));
    for (const a of others.values()) expect(a.status, `${a.url}: ${a.body.slice(0, 300)}`).toBeLessThan(400);
  });

  it("serves /docs and /openapi.json", async () => {
    const docs = await timed(`${d.url}/docs/`);
    expect(docs.status).toBe(200);
    for (const link of linksOf(docs.body, `${d.url}/docs/`)) expect((await timed(link)).status, link).toBe(200);
    const spec = await timed(`${d.url}/openapi.json`);
    expect(spec.status).toBe(200);
    expect(JSON.parse(spec.body).openapi).toMatch(/^3\./);
  });

  it("reads every MCP resource (the MCP App included) and gets every prompt, each within 2 s", async () => {
    const client = new Client({ name: "startup-smoke", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`)));
    const within = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      const r = await call();
      expect(performance.now() - t0, what).toBeLessThan(LIMIT_MS);
      return r;
    };
    try {
      const listed = await within("resources/list", () => client.listResources());
      const { resourceTemplates } = await within("resources/templates/list", () => client.listResourceTemplates());
      const read = async (uri: string) => {
        const r = await within(uri, () => client.readResource({ uri }));
        expect(r.contents.length, uri).toBeGreaterThan(0);
        return r;
      };
      for (const r of listed.resources) await read(r.uri);
      // The templates, each filled from the seed: a case, an account's inbox, the General court, a piece of evidence.
      const caseRead = await read(
        resourceTemplates
          .find((t) => t.name === "case")
          ?.uriTemplate.replace("{address}", cases[0] as string) as string,
      );
      const cid = JSON.stringify(caseRead.contents).match(/\bbaf[a-z2-7]{50,}/)?.[0];
      expect(cid).toBeDefined();
      const filled = resourceTemplates.map((t) =>
        t.uriTemplate
          .replace("{address}", t.name === "case" ? (cases[0] as string) : account)
          .replace("{id}", "1")
          .replace("{cid}", cid as string),
      );
      expect(filled.every((u) => !u.includes("{"))).toBe(true);
      for (const uri of filled) await read(uri);
      // The MCP App get_case names (not listed: found through the tool).
      const app = await read("ui://docket/case");
      expect(JSON.stringify(app.contents)).toContain("<script");

      const { prompts } = await within("prompts/list", () => client.listPrompts());
      expect(prompts.length).toBeGreaterThan(0);
      for (const p of prompts) {
        const args = Object.fromEntries(
          (p.arguments ?? []).map((a) => [a.name, a.name.includes("case") ? (cases[0] as string) : account]),
        );
        const got = await within(`prompt ${p.name}`, () => client.getPrompt({ name: p.name, arguments: args }));
        expect(got.messages.length, p.name).toBeGreaterThan(0);
      }
    } finally {
      await client.close();
    }
  });

  describe.skipIf(skipBrowser)("in Chromium", () => {
    it("loads every explorer page with no console error, script error or failed request", async () => {
      expect(pages.size).toBeGreaterThan(1);
      const browser = await launchChromium();
      const page = await browser.newPage();
      const problems: string[] = [];
      let at = "";
      page.on("console", (m) => {
        // The 404 page's own status is the one error Chromium logs for it.
        if (m.type() === "error" && !(at.endsWith("/explorer/nope") && m.text().includes("404")))
          problems.push(`${at}: console: ${m.text()} (${m.location().url})`);
      });
      page.on("pageerror", (e) => problems.push(`${at}: script error: ${e.message}`));
      page.on("requestfailed", (r) => {
        // A page's event stream is cut when the next page is opened.
        if (r.failure()?.errorText !== "net::ERR_ABORTED")
          problems.push(`${at}: ${r.url()} failed: ${r.failure()?.errorText}`);
      });
      page.on("response", (r) => {
        if (r.status() >= 400 && r.url() !== at) problems.push(`${at}: ${r.url()} answered ${r.status()}`);
      });
      try {
        for (const url of pages.keys()) {
          at = url;
          const t0 = performance.now();
          const res = await page.goto(url, { waitUntil: "load", timeout: LIMIT_MS * 2 });
          expect(res?.status(), url).toBe(url.endsWith("/explorer/nope") ? 404 : 200);
          expect(performance.now() - t0, url).toBeLessThan(LIMIT_MS);
        }
      } finally {
        await browser.close();
      }
      expect(problems).toEqual([]);
    });
  });
});
