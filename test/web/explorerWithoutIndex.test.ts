import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestDocket } from "../support/index.js";

/**
 * The explorer on a docket that runs without its index (INDEX=off): every page still answers, fast,
 * never a 500. Pages show what the chain alone tells and say what needs the index; a filtered list,
 * which only the index can answer, is the 503 page in the site's style.
 */

const WITHIN_MS = 5_000;

let t: TestDocket;

beforeAll(async () => {
  t = await TestDocket.shared({ INDEX: "off" });
});

afterAll(async () => {
  await t?.close();
});

/** A page as a browser asks for it: its status and HTML, failing if it takes longer than WITHIN_MS. */
async function page(path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(`${t.url}${path}`, {
    headers: { accept: "text/html" },
    signal: AbortSignal.timeout(WITHIN_MS),
  });
  // Text docket wrote through the templates' escaping reads as written.
  return { status: res.status, html: (await res.text()).replaceAll("&#39;", "'") };
}

describe("the explorer without the index", () => {
  it("the home, a case, an agent and a judge answer with the chain's view and a line saying what needs the index", async () => {
    const appealed = t.devnet.seed?.cases.find((c) => c.state === "Appealed");
    if (!appealed) throw new Error("no seeded Appealed case");
    const c = (await t.get(`/cases/${appealed.address}`)).body.case;

    const home = await page("/");
    expect(home.status).toBe(200);
    expect(home.html).toContain("older ones need docket's index");

    const one = await page(`/explorer/cases/${appealed.address}`);
    expect(one.status).toBe(200);
    expect(one.html).toContain("needs docket's index");
    // The chain's view: the filing, and the claim.
    expect(one.html).toContain('data-kind="filed"');
    expect(one.html).toContain('<h2 id="claim">Claim</h2>');

    const deliberating = t.devnet.seed?.cases.find((x) => x.state === "Deliberating");
    const judge = (await t.get(`/cases/${deliberating?.address}`)).body.case.judges[0];
    for (const path of [`/explorer/agents/${c.plaintiff}`, `/explorer/judges/${judge}`]) {
      const r = await page(path);
      expect([path, r.status]).toEqual([path, 200]);
      expect(r.html).toContain("need docket's index");
    }

    const all = await page("/explorer/cases");
    expect(all.status).toBe(200);
    expect(all.html).toContain(`/explorer/cases/${appealed.address}`);
  });

  it("a filtered list is the 503 page, saying filters need the index and linking the list that works", async () => {
    for (const query of ["state=Resolved", `party=${t.address(1)}`, "q=payment", `judge=${t.address(1)}`]) {
      const r = await page(`/explorer/cases?${query}`);
      expect([query, r.status]).toEqual([query, 503]);
      expect(r.html).toContain("INDEX_UNAVAILABLE");
      expect(r.html).toContain("Filters, timelines and histories come from docket's index");
      expect(r.html).toContain('<link rel="stylesheet"');
    }
  });
});
