import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unframe } from "../../src/web/evidence.js";
import { outcomeWords } from "../../src/web/timeline.js";
import type { Json } from "../mcp/helpers.js";
import { axeViolations } from "../support/axe.js";
import { launchChromium, skipWithoutChromium } from "../support/chromium.js";
import { BuiltDocket, rpc } from "../support/index.js";

/**
 * The explorer in a real headless Chromium, on the seeded dev chain (public votes, the event
 * follower on): the overview, a case page, a vote signed with a judge's dev key and mined during the
 * test showing on the open page without a reload, and script planted by parties (names, a claim, an evidence file) never running.
 */

const skip = skipWithoutChromium("explorer.browser.test.ts");

/** Names and a claim a hostile party writes: each would run script, or fetch, if rendered as markup. */
const HOSTILE_NAME = `<img src=x onerror="alert('name')">`;
const HOSTILE_NAME_2 = `"><script>fetch('/pwned-name')</script>`;
const HOSTILE_EVIDENCE = `# Statement\n<script>alert('evidence')</script>\n<img src="/pwned-evidence" onerror="alert(4)">\n<iframe src="javascript:alert(5)"></iframe>`;
const HOSTILE_CLAIM = `</p><script>alert('claim')</script><img src="/pwned-claim" onerror="alert(1)"><a href="javascript:alert(2)">x</a>`;

describe.skipIf(skip)("the explorer in headless Chromium", () => {
  let t: BuiltDocket;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  const dialogs: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    [t, browser] = await Promise.all([BuiltDocket.shared({ EVENT_POLL_MS: "500" }), launchChromium()]);
    // The explorer's lists, timelines and histories come from the index: it holds the seeded world first.
    await t.indexed();
    context = await browser.newContext();
    page = await context.newPage();
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on("request", (r: Request) => requests.push(r.url()));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  it("a JSON client's / gets the API's index; a browser's gets the overview, under a CSP without inline script", async () => {
    const json = await t.get("/");
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    expect(json.body).toMatchObject({ name: "docket", links: { docs: "/docs/", openapi: "/openapi.json" } });
    // The API's own headers are unchanged for it.
    expect(json.headers.get("content-security-policy")).toBe("default-src 'none';frame-ancestors 'none'");

    const res = await page.goto(`${t.url}/`);
    expect(res?.status()).toBe(200);
    const csp = (await res?.headerValue("content-security-policy")) ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");

    await expect(page.title()).resolves.toBe("docket · docket explorer");
    const stats = (await t.get("/stats/overview")).body;
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("The court at a glance");
    const summary = await page.locator("section[aria-labelledby=states] p").first().textContent();
    expect(summary).toContain(`${stats.totalCases} cases, ${stats.openCases} open`);
    const deliberating = page.locator("ul.counts a", { hasText: "Deliberating" });
    await expect(deliberating.locator(".n").textContent()).resolves.toBe(String(stats.casesByState.Deliberating));
    // Every seeded case is listed among the latest five or reachable from "All cases".
    await page.getByRole("link", { name: "All cases" }).click();
    await page.waitForURL(/\/explorer\/cases$/);
    const listed = await page.locator("table.cases .case-link").count();
    expect(listed).toBe(Math.min(20, stats.totalCases));
  });

  it("the home's latest events are the newest the index stores, from before this process started", async () => {
    await page.goto(`${t.url}/`);
    const items = page.locator("ol.events li");
    await expect(items.count()).resolves.toBe(15);
    await expect(page.locator("section[aria-labelledby=events] p.index-missing").count()).resolves.toBe(0);
    // Newest first, and the newest is at least as new as every seeded case's last step.
    const blocks = (await items.locator(".block").allTextContents()).map((b) => Number(b.replace("block ", "")));
    expect(blocks).toEqual([...blocks].sort((a, b) => b - a));
    for (const c of t.devnet.seed?.cases ?? []) {
      const { entries } = (await t.get(`/cases/${c.address}/timeline`)).body;
      expect(blocks[0]).toBeGreaterThanOrEqual(entries[entries.length - 1].block);
    }
    expect(await axeViolations(page)).toEqual([]);
  });

  it("the cases list filters by state and party; bad filters and unknown cases are error pages, not 500s", async () => {
    const stats = (await t.get("/stats/overview")).body;
    await page.goto(`${t.url}/explorer/cases`);
    await page.getByLabel("State").selectOption("Deliberating");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/state=Deliberating/);
    const states = await page.locator("table.cases .state").allTextContents();
    expect(states).toEqual(Array(stats.casesByState.Deliberating).fill("Deliberating"));

    const party = t.address(1);
    const involved = await page.goto(`${t.url}/explorer/cases?party=${party}`);
    expect(involved?.status()).toBe(200);
    for (const href of await page
      .locator("table.cases .case-link")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")))) {
      const c = (await t.get(`/cases/${String(href).split("/").pop()}`)).body.case;
      expect([c.plaintiff, c.defendant, ...c.judges]).toContain(party);
    }

    for (const [path, status] of [
      ["/explorer/cases?state=Nope", 422],
      ["/explorer/cases/0x12", 400],
      [`/explorer/cases/${"0x".padEnd(42, "1")}`, 404],
      ["/explorer/nothing-here", 404],
    ] as const) {
      const res = await page.goto(`${t.url}${path}`);
      expect(res?.status(), path).toBe(status);
      await expect(page.locator("p.error").count()).resolves.toBe(1);
    }
  });

  it("a case page shows its parties by name, its claim and its panel's votes", async () => {
    const seeded = t.devnet.seed?.cases.find((c) => c.state === "Deliberating");
    if (!seeded) throw new Error("no seeded Deliberating case");
    const c = (await t.get(`/cases/${seeded.address}`)).body.case;
    const plaintiff = (await t.get(`/agent/${c.plaintiff}`)).body.agent;
    await page.goto(`${t.url}/explorer/cases/${seeded.address}`);
    await expect(page.locator("dl.parties dd").first().textContent()).resolves.toContain(plaintiff.name);
    await expect(page.locator("blockquote").textContent()).resolves.toContain(c.claimDescription);
    const rows = page.locator("table.votes tbody tr");
    await expect(rows.count()).resolves.toBe(c.judges.length);
    for (const v of c.votes) {
      const cell = page.locator(`tr[data-judge="${v.judge}"] td.vote`);
      const want = v.vote === null ? "no vote yet" : `for the ${v.vote}`;
      await expect(cell.textContent()).resolves.toBe(want);
    }
    // The same data as JSON and as MCP.
    await expect(page.locator("footer .same").textContent()).resolves.toContain(`/cases/${seeded.address}`);
    await expect(page.locator("footer .same").textContent()).resolves.toContain("get_case");
  });

  it("a case page shows its evidence: each item from its party, text readable, an image visible", async () => {
    const cases = t.devnet.seed?.cases ?? [];
    let found: { address: string; items: Json[] } | undefined;
    for (const c of cases) {
      const items = (await t.get(`/cases/${c.address}/evidence`)).body.evidence as Json[];
      if (
        items.some((e) => e.document?.file?.mediaType?.startsWith("image/")) &&
        items.some((e) => e.document?.file?.text)
      ) {
        found = { address: c.address, items };
        break;
      }
    }
    if (!found) throw new Error("no seeded case has both an image and a text among its evidence");
    await page.goto(`${t.url}/explorer/cases/${found.address}`);
    const shown = page.locator("li.evidence-item");
    await expect(shown.count()).resolves.toBe(found.items.length);
    const img = page.locator("img.evidence-image").first();
    await img.scrollIntoViewIfNeeded();
    await expect
      .poll(() => img.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    expect(await img.getAttribute("src")).toMatch(/^\/evidence\/b[a-z2-7]+$/);
    // It enlarges: a link to the full image.
    await expect(img.locator("xpath=..").getAttribute("href")).resolves.toBe(await img.getAttribute("src"));
    // Every link that shows a CID points at that CID.
    for (const [href, text] of await page
      .locator("li.evidence-item a:has(code)")
      .evaluateAll((as) => as.map((a) => [a.getAttribute("href"), a.querySelector("code")?.textContent]))) {
      expect(href).toBe(`/evidence/${text}`);
    }
    // The title line is its own, above who sent it and when.
    await expect(shown.first().locator("h3.title").count()).resolves.toBe(1);
    expect((await fetch(`${t.url}/favicon.ico`)).status).toBe(200);
    const textItem = found.items.find((e) => e.document?.file?.text);
    const firstLine = (unframe(textItem.document.file.text) as string).split("\n")[0] as string;
    await expect(page.locator("pre.evidence-text", { hasText: firstLine }).count()).resolves.toBeGreaterThan(0);
    const roles = await shown.evaluateAll((els) => els.map((e) => e.getAttribute("data-role")));
    expect(roles).toEqual(found.items.map((e) => (e.role === "unknown" ? "other" : e.role)));
  });

  it("a seeded case's timeline comes from the index: each judge's vote and the verdict, round by round", async () => {
    const seeded = t.devnet.seed?.cases.find((c) => c.label === "resolved, settled");
    if (!seeded) throw new Error("no seeded settled case");
    const { entries } = (await t.get(`/cases/${seeded.address}/timeline`)).body;
    const votes = entries.filter((e: Json) => e.kind === "vote");
    expect(votes.length).toBeGreaterThanOrEqual(2);
    await page.goto(`${t.url}/explorer/cases/${seeded.address}`);
    const round1 = page.locator('section.round[data-round="1"]');
    const shown = round1.locator('li[data-kind="vote"]');
    await expect(shown.count()).resolves.toBe(votes.length);
    for (const [i, v] of votes.entries()) {
      const judge = (await t.get(`/agent/${v.args.judge}`)).body.agent;
      const li = shown.nth(i);
      await expect(li.textContent()).resolves.toContain(`${judge.name}: Voted for the ${v.side}`);
      await expect(li.locator("a").getAttribute("href")).resolves.toBe(`/explorer/judges/${v.args.judge}`);
    }
    const c = (await t.get(`/cases/${seeded.address}`)).body.case;
    await expect(round1.locator('li[data-kind="verdict"]').textContent()).resolves.toContain(
      `Verdict of round 1: ${outcomeWords(c.outcome)}`,
    );
    await expect(round1.locator('li[data-kind="settled"]').count()).resolves.toBe(1);
    // Outcomes in words, never the contract's enum names.
    await expect(page.locator("main").textContent()).resolves.not.toMatch(/PlaintiffWon|DefendantWon/);
    await expect(page.locator("p.index-missing").count()).resolves.toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("an appealed seeded case shows its first round: the panel, the votes, the verdict and the appeal with its bond", async () => {
    const seeded = t.devnet.seed?.cases.find((c) => c.state === "Appealed");
    if (!seeded) throw new Error("no seeded Appealed case");
    const { entries } = (await t.get(`/cases/${seeded.address}/timeline`)).body;
    const panel = entries.find((e: Json) => e.kind === "panel" && e.round === 1).args.judges as string[];
    const verdict = entries.find((e: Json) => e.kind === "verdict" && e.round === 1);
    await page.goto(`${t.url}/explorer/cases/${seeded.address}`);
    const round1 = page.locator('section.round[data-round="1"]');
    await expect(round1.locator("h3").textContent()).resolves.toBe("Round 1");
    const judges = await round1.locator("p.panel a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(judges).toEqual(panel.map((j) => `/explorer/judges/${j}`));
    await expect(round1.locator('li[data-kind="vote"]').count()).resolves.toBe(
      entries.filter((e: Json) => e.kind === "vote" && e.round === 1).length,
    );
    await expect(round1.locator('li[data-kind="verdict"]').textContent()).resolves.toContain(
      `Verdict of round 1: ${outcomeWords(verdict.outcome)}`,
    );
    await expect(round1.locator('li[data-kind="appeal"]').textContent()).resolves.toMatch(/Appealed, with a bond of/);
    // The appeal opened round 2, whose panel is still to be drawn.
    await expect(page.locator('section.round[data-round="2"]').count()).resolves.toBe(1);
    // Up top, before the timeline: the first verdict and who appealed it.
    const appeal = entries.find((e: Json) => e.kind === "appeal");
    const appellant = (await t.get(`/agent/${appeal.args.appellant}`)).body.agent;
    const banner = page.locator(".verdict.earlier");
    await expect(banner.textContent()).resolves.toContain("Round 1:");
    await expect(banner.textContent()).resolves.toContain(`appealed by ${appellant.name}`);
  });

  it("a filter finds a party's oldest case, paging to it by cursor with shareable links", async () => {
    const oldest = t.devnet.seed?.cases[0];
    if (!oldest) throw new Error("no seeded case");
    const party = (await t.get(`/cases/${oldest.address}`)).body.case.plaintiff as string;
    const all = (await t.get(`/cases?party=${party}&limit=100`)).body;
    expect(all.total).toBeGreaterThanOrEqual(2);
    // Newest filing first: the seed's first case is the party's last.
    expect(all.cases[all.cases.length - 1]).toBe(oldest.address);

    await page.goto(`${t.url}/explorer/cases?limit=1`);
    await page.getByLabel("Party").fill(party);
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/party=/);
    await expect(page.locator("#live p.note").textContent()).resolves.toContain(`${all.total} cases match`);
    const seen: string[] = [];
    for (;;) {
      const hrefs = await page
        .locator("table.cases .case-link")
        .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      seen.push(...hrefs.map((h) => String(h).split("/").pop() as string));
      const older = page.getByRole("link", { name: "Older" });
      if ((await older.count()) === 0) break;
      await older.click();
      await page.waitForURL(/cursor=/);
    }
    expect(seen).toEqual(all.cases);
    // The last page's link is shareable: loaded afresh it shows the oldest case, and its JSON is list_cases'.
    const url = page.url();
    expect(url).toMatch(/cursor=/);
    await page.goto(url);
    await expect(page.locator("table.cases .case-link").getAttribute("href")).resolves.toBe(
      `/explorer/cases/${oldest.address}`,
    );
    const json = String(await page.locator("footer .same a").getAttribute("href"));
    expect(json).toMatch(/^\/cases\?party=.*cursor=/);
    expect((await t.get(json)).body.cases).toEqual([oldest.address]);
    await page.getByRole("link", { name: "Newest" }).click();
    await page.waitForURL((u) => !u.search.includes("cursor="));
    expect(await axeViolations(page)).toEqual([]);
  });

  it("the words of a claim find its case", async () => {
    const seeded = t.devnet.seed?.cases.find((c) => c.label === "resolved, settled");
    const c = (await t.get(`/cases/${seeded?.address}`)).body.case;
    const words = (c.claimDescription as string)
      .split(/\W+/)
      .filter((w) => w.length > 5)
      .slice(0, 2);
    expect(words.length).toBe(2);
    await page.goto(`${t.url}/explorer/cases`);
    await page.getByLabel("Words of the claim").fill(words.join(" "));
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/q=/);
    const hrefs = await page
      .locator("table.cases .case-link")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(hrefs).toContain(`/explorer/cases/${c.address}`);
    for (const claim of await page.locator("table.cases .claim").allTextContents())
      for (const w of words) expect(claim.toLowerCase()).toContain(w.toLowerCase());
  });

  it("an agent's and a judge's history pages: cases as party and judge, votes against the verdict, stakes, paged by cursor, linked both ways", async () => {
    const settled = t.devnet.seed?.cases.find((c) => c.label === "resolved, settled");
    if (!settled) throw new Error("no seeded settled case");
    await page.goto(`${t.url}/explorer/cases/${settled.address}`);
    const judgeHref = String(
      await page.locator('section.round[data-round="1"] p.panel a').first().getAttribute("href"),
    );
    const judge = judgeHref.split("/").pop() as string;
    await page.locator('section.round[data-round="1"] p.panel a').first().click();
    await page.waitForURL(new RegExp(`/explorer/judges/${judge}$`));
    const h = (await t.get(`/judges/history/${judge}`)).body;
    const row = page.locator(`table.history tr[data-case="${settled.address}"]`);
    const mine = h.rounds.find((r: Json) => r.case === settled.address);
    await expect(row.locator("td.vote").textContent()).resolves.toContain(
      mine.vote === null ? "no vote" : `for the ${mine.vote}`,
    );
    await expect(row.locator("td.with").textContent()).resolves.toBe(
      mine.withVerdict === null ? "–" : mine.withVerdict ? "yes" : "no",
    );
    await expect(page.locator('table.history tr[data-event="JudgeStaked"]').count()).resolves.toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await row.locator("a.case-link").click();
    await page.waitForURL(new RegExp(`/explorer/cases/${settled.address}$`));

    // The defaulted case's plaintiff: a default told apart from a verdict, and its cases one page at a time.
    const defaulted = t.devnet.seed?.cases.find((c) => c.state === "Defaulted");
    const plaintiff = (await t.get(`/cases/${defaulted?.address}`)).body.case.plaintiff as string;
    const all = (await t.get(`/agent/${plaintiff}/history?limit=100`)).body;
    expect(all.total).toBeGreaterThanOrEqual(2);
    await page.goto(`${t.url}/explorer/agents/${plaintiff}?limit=1`);
    const seen: string[] = [];
    for (;;) {
      seen.push(String(await page.locator("table.history tbody tr").getAttribute("data-case")));
      const older = page.getByRole("link", { name: "Older" });
      if ((await older.count()) === 0) break;
      await older.click();
      await page.waitForURL(/cursor=/);
    }
    expect(seen).toEqual(all.cases.map((c: Json) => c.case));
    await page.goto(`${t.url}/explorer/agents/${plaintiff}`);
    await expect(page.locator(`tr[data-case="${defaulted?.address}"] td.result`).textContent()).resolves.toBe(
      "won by default (no answer)",
    );
    expect(await axeViolations(page)).toEqual([]);
    // A party that never staked has no judge's record to show; a judge's agent page links to it.
    const stake = (await t.get(`/judges/stake/${plaintiff}`)).body;
    if (stake.staked === "0" && stake.totalAssigned === 0) {
      await expect(page.locator("a.judge-link").count()).resolves.toBe(0);
      await expect(page.locator("#live").textContent()).resolves.toContain("Not a judge");
    }
    await page.goto(`${t.url}/explorer/agents/${judge}`);
    await page.locator("a.judge-link").click();
    await page.waitForURL(new RegExp(`/explorer/judges/${judge}$`));
    await expect(page.locator("p.courts a").count()).resolves.toBeGreaterThan(0);
  });

  it("a court page shows its place, parameters, pool and policy as text; a case links to its court", async () => {
    const { courts } = (await t.get("/courts")).body;
    // Every court of the dev world has its policy published as evidence, read back and checked by CID.
    for (const c of courts) expect(c.policy.text, c.name).toContain(c.name);
    const court = courts.find((c: Json) => c.id !== 1) ?? courts[0];
    await page.goto(`${t.url}/explorer/courts/${court.id}`);
    await expect(page.locator("h1").textContent()).resolves.toContain(court.name);
    const line = (court.policy.text as string).split("\n").find((l) => l.trim().length > 0) as string;
    await expect(page.locator("#live pre", { hasText: line.trim() }).count()).resolves.toBe(1);
    const fee = page
      .locator("dl.values dt", { hasText: /^Court fee \(of the pot\)$/ })
      .locator("xpath=following-sibling::dd[1]");
    await expect(fee.textContent()).resolves.toContain(`${court.parameters.courtFeeBps / 100}%`);
    await expect(page.locator("footer .same").textContent()).resolves.toContain(`/courts/${court.id}`);

    const seeded = t.devnet.seed?.cases[0];
    const c = (await t.get(`/cases/${seeded?.address}`)).body.case;
    await page.goto(`${t.url}/explorer/cases/${c.address}`);
    await page.getByRole("link", { name: c.court.name }).first().click();
    await page.waitForURL(new RegExp(`/explorer/courts/${c.court.id}$`));
  });

  it("a vote signed and mined during the test shows on the open page without a reload", async () => {
    const seeded = t.devnet.seed?.cases.find((c) => c.state === "Deliberating");
    if (!seeded) throw new Error("no seeded Deliberating case");
    const c = (await t.get(`/cases/${seeded.address}`)).body.case;
    const waiting = c.votes.find((v: { vote: string | null }) => v.vote === null);
    if (!waiting) throw new Error("every judge of the seeded case has voted");
    await page.goto(`${t.url}/explorer/cases/${seeded.address}`);
    const cell = page.locator(`tr[data-judge="${waiting.judge}"] td.vote`);
    await expect(cell.textContent()).resolves.toBe("no vote yet");
    // A mark on this document: a reload would lose it.
    await page.evaluate(() => {
      (globalThis as unknown as { stillHere: boolean }).stillHere = true;
    });
    await page.locator("#live-status").filter({ hasText: "Live" }).waitFor({ timeout: 10_000 });

    await t.write(
      `/cases/${seeded.address}/vote`,
      { plaintiff_wins: false, from: waiting.judge },
      t.indexOf(waiting.judge),
    );

    await page.locator(`tr[data-judge="${waiting.judge}"] td.vote`, { hasText: "for the defendant" }).waitFor({
      timeout: 10_000,
    });
    const kept = await page.evaluate(() => (globalThis as unknown as { stillHere?: boolean }).stillHere);
    expect(kept).toBe(true);
    await expect(page.locator("#live-status").textContent()).resolves.toMatch(/^Updated /);
  });

  it("the jobs pages: the list by state, a job's brief and deliverable as text, its case linked both ways, a hostile brief inert", async () => {
    const list = (await t.get("/jobs")).body;
    await page.goto(`${t.url}/explorer/jobs`);
    await expect(page.locator("#live p.note").first().textContent()).resolves.toBe(`${list.total} jobs, newest first.`);
    await expect(page.locator("table.jobs .job-link").count()).resolves.toBe(list.jobs.length);
    await page.selectOption("#f-state", "Completed");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/state=Completed/);
    const completed = (await t.get("/jobs?state=Completed")).body;
    expect(completed.total).toBeGreaterThan(0);
    await expect(page.locator("table.jobs .state").allTextContents()).resolves.toEqual(
      completed.jobs.map(() => "Completed"),
    );

    // A seeded job judged by the court: its deliverable's text, its ruling, and its case, which links back.
    const ruled = (
      await Promise.all(list.jobs.map(async (j: { id: number }) => (await t.get(`/jobs/${j.id}`)).body.job))
    ).find((j) => j.evaluation?.dispute?.ruling.delivery === "delivered");
    if (!ruled) throw new Error("no seeded job with a delivered ruling");
    await page.goto(`${t.url}/explorer/jobs/${ruled.id}`);
    await expect(page.locator("section[aria-labelledby=terms] pre.party-text").textContent()).resolves.toBe(
      ruled.description,
    );
    const delivered = await (await fetch(`${t.url}/evidence/${ruled.deliverableCid}`)).text();
    await expect(page.locator("section[aria-labelledby=deliverable] pre").textContent()).resolves.toBe(delivered);
    await expect(page.locator("p.ruling strong").textContent()).resolves.toMatch(
      ruled.evaluation.dispute.ruling.winner === "client" ? /for the client/ : /for the provider/,
    );
    await page.locator("section[aria-labelledby=evaluation] a.case-link").click();
    await page.waitForURL(new RegExp(`/explorer/cases/${ruled.evaluation.dispute.case}$`));
    await page.locator("p.status a.job-link").click();
    await page.waitForURL(new RegExp(`/explorer/jobs/${ruled.id}$`));

    // A brief a hostile client writes is shown as written and never becomes markup.
    const [client, provider] = [16, 17];
    dialogs.length = 0;
    await t.write(
      "/jobs",
      { from: t.address(client), provider: t.address(provider), description: HOSTILE_CLAIM, court: 1 },
      client,
    );
    // A filtered list is the index's: it holds the new job once the follower has read its block.
    await t.indexed();
    const mine = (await t.get(`/jobs?client=${t.address(client)}`)).body.jobs[0];
    await page.goto(`${t.url}/explorer/jobs/${mine.id}`);
    await expect(page.locator("section[aria-labelledby=terms] pre.party-text").textContent()).resolves.toBe(
      HOSTILE_CLAIM,
    );
    await page.goto(`${t.url}/explorer/jobs`);
    await expect(page.locator("main script, main img[src=x], main a[href^=javascript]").count()).resolves.toBe(0);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    // Bad ids and filters are error pages, not 500s.
    for (const [path, status] of [
      ["/explorer/jobs/999999", 404],
      ["/explorer/jobs/abc", 422],
      ["/explorer/jobs?state=Nope", 422],
    ] as const) {
      expect((await page.goto(`${t.url}${path}`))?.status()).toBe(status);
    }
  });

  it("script planted in agent names and a claim never runs, and the page asks for nothing it did not mean to", async () => {
    const [p, d] = [15, 19];
    await t.write("/agent/self-register", { address: t.address(p), name: HOSTILE_NAME }, p);
    await t.write("/agent/self-register", { address: t.address(d), name: HOSTILE_NAME_2 }, d);
    const caseAddr: Address = await t.fileOnChain(p, d, HOSTILE_CLAIM);
    // Evidence a party publishes and adds to a case it is in: script in its text, its name and its description.
    const active = t.devnet.seed?.cases.find((c) => c.state === "Active");
    if (!active) throw new Error("no seeded Active case");
    const ac = (await t.get(`/cases/${active.address}`)).body.case;
    const pub = await t.post("/evidence", {
      content: HOSTILE_EVIDENCE,
      mediaType: "text/markdown",
      name: HOSTILE_NAME,
      description: HOSTILE_CLAIM,
    });
    expect(pub.status).toBe(200);
    await t.write(
      `/cases/${active.address}/evidence`,
      { evidenceIpfsHash: pub.body.document.cid, from: ac.plaintiff },
      t.indexOf(ac.plaintiff),
    );

    requests.length = 0;
    dialogs.length = 0;
    for (const path of [
      `/explorer/cases/${caseAddr}`,
      `/explorer/cases/${active.address}`,
      `/explorer/agents/${t.address(p)}`,
      "/",
      "/explorer/cases",
    ]) {
      await page.goto(`${t.url}${path}`);
      await page.waitForLoadState("networkidle").catch(() => {});
    }
    await page.goto(`${t.url}/explorer/cases/${active.address}`);
    const planted = page.locator("li.evidence-item").last();
    await expect(planted.locator("pre.evidence-text").textContent()).resolves.toBe(HOSTILE_EVIDENCE);
    await expect(planted.locator("h3.title .party-text").textContent()).resolves.toBe(HOSTILE_NAME);
    await expect(planted.locator("script, img[src=x], iframe").count()).resolves.toBe(0);

    await page.goto(`${t.url}/explorer/cases/${caseAddr}`);
    // The hostile text is shown as text, exactly as written.
    await expect(page.locator("dl.parties dd").first().locator("a").textContent()).resolves.toBe(HOSTILE_NAME);
    await expect(page.locator("dl.parties dd").nth(1).locator("a").textContent()).resolves.toBe(HOSTILE_NAME_2);
    await expect(page.locator("blockquote p").textContent()).resolves.toBe(HOSTILE_CLAIM);
    // ...and none of it became an element.
    await expect(page.locator("main script, main img[src=x], main a[href^=javascript]").count()).resolves.toBe(0);
    await page.waitForTimeout(500);

    expect(dialogs).toEqual([]);
    const origin = new URL(t.url).origin;
    const unintended = requests.filter((u) => {
      const url = new URL(u);
      if (url.origin !== origin) return true;
      // Pages, their assets, the event stream, and the evidence images they show: nothing else.
      return !/^\/($|explorer\/|events$|evidence\/b[a-z2-7]+$)/.test(url.pathname) || /pwned/.test(u);
    });
    expect(unintended).toEqual([]);
    // What the pages did ask for: themselves, their stylesheet and script, the event stream, evidence images.
    expect(requests.some((u) => u.endsWith("/explorer/assets/live.js"))).toBe(true);
  });
  it("every page type at 1280 and 390 px: no sideways scroll, no console error, no failed asset, no serious accessibility violation", async () => {
    const seeded = t.devnet.seed?.cases ?? [];
    const by = (label: string) => seeded.find((c) => c.label.startsWith(label))?.address;
    const settled = (await t.get(`/cases/${by("resolved, settled")}`)).body.case;
    const jobs = (await t.get("/jobs")).body.jobs as { id: number }[];
    const paths = [
      "/",
      "/explorer/cases",
      "/explorer/cases?state=Deliberating",
      ...[
        "resolved, settled",
        "appealed",
        "deliberating, commit",
        "summoned",
        "defaulted",
        "job: ruled for the client",
      ].map((l) => `/explorer/cases/${by(l)}`),
      "/explorer/courts",
      "/explorer/courts/1",
      `/explorer/agents/${settled.plaintiff}`,
      `/explorer/judges/${settled.judges[0]}`,
      "/explorer/jobs",
      `/explorer/jobs/${jobs[0]?.id}`,
      "/explorer/courts/99",
      "/explorer/cases?party=nobody-at-all",
    ];
    for (const width of [1280, 390]) {
      const ctx = await (browser as Browser).newContext({ viewport: { width, height: 900 } });
      const p = await ctx.newPage();
      const problems: string[] = [];
      let at = "";
      p.on("console", (m) => {
        // An error page's own status is the document's, not a failed asset.
        if (m.type() === "error" && !(m.location().url === p.url() && /status of 4\d\d/.test(m.text())))
          problems.push(`${at}: console: ${m.text()}`);
      });
      p.on("pageerror", (e) => problems.push(`${at}: ${e.message}`));
      p.on("response", (r) => {
        if (r.status() >= 400 && r.request().resourceType() !== "document")
          problems.push(`${at}: ${r.status()} ${r.url()}`);
      });
      for (const path of paths) {
        at = `${path} at ${width}px`;
        await p.goto(`${t.url}${path}`, { waitUntil: "load" });
        const [scroll, inner] = await p.evaluate(() => {
          const g = globalThis as unknown as {
            document: { scrollingElement: { scrollWidth: number } };
            innerWidth: number;
          };
          return [g.document.scrollingElement.scrollWidth, g.innerWidth];
        });
        expect(scroll, `${at}: the page scrolls sideways`).toBeLessThanOrEqual(inner);
        const serious = (await axeViolations(p)).filter((v) => v.impact === "serious" || v.impact === "critical");
        expect(serious, at).toEqual([]);
      }
      await p.waitForTimeout(200);
      expect(problems).toEqual([]);
      await ctx.close();
    }
    // Dark mode keeps its contrast too (the state badges, the verdict, the next step).
    const dark = await (browser as Browser).newContext({ viewport: { width: 390, height: 900 }, colorScheme: "dark" });
    const d = await dark.newPage();
    for (const path of paths.slice(0, 8)) {
      await d.goto(`${t.url}${path}`, { waitUntil: "load" });
      const serious = (await axeViolations(d)).filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(serious, `${path} in dark mode`).toEqual([]);
    }
    await dark.close();
  });

  it("the search box finds an agent by name, a case by its address in capitals with spaces around it, a job by number", async () => {
    const seeded = t.devnet.seed?.cases.find((c) => c.label === "resolved, settled");
    const c = (await t.get(`/cases/${seeded?.address}`)).body.case;
    const agent = (await t.get(`/agent/${c.defendant}`)).body.agent;
    await page.goto(`${t.url}/explorer/courts`);
    const box = page.getByRole("searchbox", { name: "Search" });
    await box.fill(agent.name.toUpperCase());
    await box.press("Enter");
    await page.waitForURL(new RegExp(`/explorer/agents/${c.defendant}$`));
    await expect(page.locator("h1").textContent()).resolves.toContain(agent.name);

    await box.fill(`  ${(c.address as string).toUpperCase()}  `);
    await box.press("Enter");
    await page.waitForURL(new RegExp(`/explorer/cases/${c.address}$`));
    await expect(page.title()).resolves.toMatch(/ v /);

    await box.fill("1");
    await box.press("Enter");
    await page.waitForURL(/\/explorer\/jobs\/1$/);
  });

  it("a list sorts by its columns: the page's rows by when they were filed, oldest first then newest, and by stake", async () => {
    await page.goto(`${t.url}/explorer/cases`);
    const column = (label: string) =>
      page.$$eval(`table.cases tbody td[data-label='${label}']`, (tds) =>
        tds.map((td) => td.getAttribute("data-sort") ?? ""),
      );
    const header = (name: RegExp) => page.locator("table.cases th", { has: page.getByRole("button", { name }) });
    const before = (await column("Filed")).map(Number);
    expect(before.length).toBeGreaterThan(3);
    // Without a choice the server's order: newest first.
    expect(before).toEqual([...before].sort((a, b) => b - a));
    await page.getByRole("button", { name: /^Filed/ }).click();
    expect((await column("Filed")).map(Number)).toEqual([...before].sort((a, b) => a - b));
    await expect(header(/^Filed/).getAttribute("aria-sort")).resolves.toBe("ascending");
    await page.getByRole("button", { name: /^Filed/ }).click();
    expect((await column("Filed")).map(Number)).toEqual([...before].sort((a, b) => b - a));
    await expect(header(/^Filed/).getAttribute("aria-sort")).resolves.toBe("descending");
    await page.getByRole("button", { name: /^Stake/ }).click();
    const stakes = (await column("Stake")).map(BigInt);
    expect(stakes).toEqual([...stakes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(stakes).size).toBeGreaterThan(1);
    await expect(header(/^Filed/).getAttribute("aria-sort")).resolves.toBeNull();
  });

  it("a case page says who must act next and the verdict up top, in plain words; a judge who never voted on a finished case did not vote", async () => {
    const seeded = t.devnet.seed?.cases ?? [];
    const summoned = seeded.find((s) => s.state === "Summoned");
    const c = (await t.get(`/cases/${summoned?.address}`)).body.case;
    const defendant = (await t.get(`/agent/${c.defendant}`)).body.agent;
    await page.goto(`${t.url}/explorer/cases/${summoned?.address}`);
    await expect(page.locator("p.next").textContent()).resolves.toContain(
      `The defendant, ${defendant.name}, must answer`,
    );
    await expect(page.locator("p.next [data-deadline]").count()).resolves.toBe(1);

    const dismissed = seeded.find((s) => s.state === "Dismissed");
    const d = (await t.get(`/cases/${dismissed?.address}`)).body.case;
    await page.goto(`${t.url}/explorer/cases/${dismissed?.address}`);
    await expect(page.locator(".verdict .outcome").textContent()).resolves.toContain("Dismissed");
    for (const v of d.votes.filter((x: Json) => x.vote === null))
      await expect(page.locator(`tr[data-judge="${v.judge}"] td.vote`).textContent()).resolves.toBe("did not vote");

    const settled = seeded.find((s) => s.label === "resolved, settled");
    const r = (await t.get(`/cases/${settled?.address}`)).body.case;
    await page.goto(`${t.url}/explorer/cases/${settled?.address}`);
    const won = r.outcome === "PlaintiffWon" ? "Plaintiff won" : "Defendant won";
    await expect(page.locator(".verdict .outcome").textContent()).resolves.toContain(won);
    await expect(page.locator(".verdict .tally").textContent()).resolves.toContain(
      `${r.votesForPlaintiff + r.votesForDefendant} of ${r.judges.length} votes cast, 2 decide`,
    );
    // Each state its own colour.
    const colours = new Set<string>();
    for (const s of seeded.slice(0, 8)) {
      await page.goto(`${t.url}/explorer/cases/${s.address}`);
      colours.add(
        await page
          .locator("p.status .state")
          .evaluate(
            (el) =>
              (
                globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string } }
              ).getComputedStyle(el).backgroundColor,
          ),
      );
    }
    expect(colours.size).toBeGreaterThan(2);
  });

  // Last: it moves the shared dev chain's clock forward.
  it("a countdown follows chain time: after evm_increaseTime and a mined block, the page counts from the chain's new time and says the deadline is overdue", async () => {
    const summoned = t.devnet.seed?.cases.find((c) => c.state === "Summoned");
    await page.goto(`${t.url}/explorer/cases/${summoned?.address}`);
    const el = page.locator("p.next [data-deadline]");
    const deadline = Number(await el.getAttribute("data-deadline"));
    const before = Number(await el.getAttribute("data-chain-now"));
    const block = (await rpc(t.devnet.rpcUrl, "eth_getBlockByNumber", ["latest", false])) as { timestamp: string };
    expect(before).toBe(Number(block.timestamp));
    // Wall-clock seconds pass, the chain mines nothing: the countdown stays where the chain is.
    const shown = await el.textContent();
    await page.waitForTimeout(2500);
    await expect(el.textContent()).resolves.toBe(shown);

    await rpc(t.devnet.rpcUrl, "evm_increaseTime", [deadline - before + 60]);
    await rpc(t.devnet.rpcUrl, "evm_mine");
    // The open page learns the chain's time and is drawn again: the default is now anyone's to trigger.
    await page
      .locator("p.next.overdue", { hasText: "anyone can trigger the default now" })
      .waitFor({ timeout: 15_000 });
    await page.reload();
    await expect(page.locator("p.next").textContent()).resolves.toContain("Overdue");
    const now = Number(await page.locator("#live").getAttribute("data-chain-now"));
    expect(now).toBeGreaterThan(deadline);
  });
});
