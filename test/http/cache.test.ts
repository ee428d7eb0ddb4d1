import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestDocket } from "../support/index.js";

/** The service interface, 8.2: TTLs per endpoint, X-Cache and Cache-Control, exact invalidation on writes. */
describe("read cache over HTTP", () => {
  let t: TestDocket;
  const seeded = (state: string) => t.devnet.seed?.cases.find((c) => c.state === state)?.address as string;

  beforeAll(async () => {
    // No event follower here: these tests count HITs, and a mined event may (rightly) drop keys.
    t = await TestDocket.shared({ EVENT_POLL_MS: "0" });
  });
  afterAll(async () => {
    await t?.close();
  });

  const maxAge = (h: Headers) => Number(/max-age=(\d+)/.exec(h.get("cache-control") ?? "")?.[1] ?? -1);

  it.each([
    ["/cases?limit=20&offset=0", 30],
    ["/stats/overview", 30],
    ["/agent/discover", 60],
    ["/validate/pending", 30],
    ["/judges/pool", 30],
  ])("%s: MISS then HIT, max-age %i", async (path, ttl) => {
    const first = await t.get(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(maxAge(first.headers)).toBe(ttl);
    const second = await t.get(path);
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(maxAge(second.headers)).toBeLessThanOrEqual(ttl);
    expect(second.body).toEqual(first.body);
  });

  it("URLs that mean the same input share one entry; a refused URL is refused every time", async () => {
    const addr = seeded("Appealed");
    await t.get(`/cases/${addr}`);
    // Other spellings of the same read: lowercase address, trailing slash, a query the read ignores.
    for (const path of [`/cases/${addr.toLowerCase()}`, `/cases/${addr}/`, `/cases/${addr}?x=1`]) {
      for (let i = 0; i < 2; i++) {
        const r = await t.get(path);
        expect(r.status, path).toBe(200);
        expect(r.headers.get("x-cache"), path).toBe("HIT");
        expect(r.body.case.address).toBe(addr);
      }
    }
    // Different pages are different entries, however often each is asked for.
    for (let i = 0; i < 2; i++) {
      expect((await t.get("/agent/discover?limit=2")).body.agents).toHaveLength(2);
      expect((await t.get("/agent/discover?limit=3")).body.agents).toHaveLength(3);
    }
    const bad = `/cases/${addr.slice(0, -1)}Z`;
    for (let i = 0; i < 3; i++) expect((await t.get(bad)).status).toBe(400);
  });

  it("an agent record lives 120 s", async () => {
    const r = await t.get(`/agent/${t.address(1)}`);
    expect(maxAge(r.headers)).toBe(120);
  });

  it("an active case lives 60 s, a resolved (final) one 300 s", async () => {
    expect(maxAge((await t.get(`/cases/${seeded("Active")}`)).headers)).toBe(60);
    expect(maxAge((await t.get(`/cases/${seeded("Defaulted")}`)).headers)).toBe(300);
    expect(maxAge((await t.get(`/cases/${seeded("Dismissed")}`)).headers)).toBe(300);
    const settled = t.devnet.seed?.cases.find((c) => c.label === "resolved, settled")?.address as string;
    expect(maxAge((await t.get(`/cases/${settled}`)).headers)).toBe(300);
    // While the appeal window is open the verdict may still change: no longer than 60 s.
    const open = t.devnet.seed?.cases.find((c) => c.label === "resolved, appeal window open")?.address as string;
    const r = await t.get(`/cases/${open}`);
    expect(r.body.case.appealWindowOpen).toBe(true);
    expect(maxAge(r.headers)).toBeLessThanOrEqual(60);
  });

  it("a vote invalidates exactly that case, and the broadcast vote shows at once", async () => {
    const target = seeded("Deliberating");
    const other = seeded("Active");
    await t.get(`/cases/${target}`);
    await t.get(`/cases/${other}`);
    const before = await t.get(`/cases/${target}`);
    expect(before.headers.get("x-cache")).toBe("HIT");
    const judge = before.body.case.judges[1] as string;
    const idx = t.devnet.accounts.findIndex((a) => a.address === judge);
    await t.write(`/cases/${target}/vote`, { plaintiff_wins: false, from: judge }, idx);
    const after = await t.get(`/cases/${target}`);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.body.case.votesForDefendant).toBe(before.body.case.votesForDefendant + 1);
    expect((await t.get(`/cases/${other}`)).headers.get("x-cache")).toBe("HIT");
  });

  it("self-registration invalidates discovery and that agent, not cases", async () => {
    const caseAddr = seeded("Summoned");
    await t.get(`/cases/${caseAddr}`);
    await t.get("/agent/discover");
    const who = t.address(17);
    expect((await t.get(`/agent/${who}`)).status).toBe(404);
    await t.write("/agent/self-register", { address: who, name: "late-joiner" }, 17);
    const agent = await t.get(`/agent/${who}`);
    expect(agent.status).toBe(200);
    expect(agent.body.agent.name).toBe("late-joiner");
    const discover = await t.get("/agent/discover?limit=100");
    expect(discover.headers.get("x-cache")).toBe("MISS");
    expect(discover.body.agents.map((a: { address: string }) => a.address)).toContain(who);
    expect((await t.get(`/cases/${caseAddr}`)).headers.get("x-cache")).toBe("HIT");
  });

  it("writes and errors are never cached", async () => {
    const r = await t.post(`/cases/${seeded("Summoned")}/trigger-default`, {});
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("x-cache")).toBeNull();
    const e = await t.get("/cases/0x000000000000000000000000000000000000dEaD");
    expect(e.status).toBe(404);
    expect(e.headers.get("cache-control")).toBe("no-store");
  });
});
