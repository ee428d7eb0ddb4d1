import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { World } from "../../bench/lib/world.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { TestDocket } from "../support/index.js";

/**
 * What is due, from the index, in a court with more open cases than a page: two test wallets are
 * the parties of 250 cases filed straight on chain (the bench's world builder), on top of the seeded
 * world. The inbox counts over all of an address's cases, sorts what is due first and pages stably;
 * a summons filed after all of them is on the first page; the keeper view pages every due case; the
 * listed transactions are signed, sent and their effect read back.
 */
describe("what is due, from the index, beyond a page", () => {
  let t: TestDocket;
  const A = 16;
  const B = 17;
  const CASES = 250;

  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field
  const get = async (path: string): Promise<any> => {
    const r = await t.get(path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  /** Every page of an inbox, walked by nextOffset. */
  const walkInbox = async (who: string, limit: number) => {
    // biome-ignore lint/suspicious/noExplicitAny: entries are checked field by field
    const cases: any[] = [];
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const pages: any[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await get(`/agent/${who}/inbox?limit=${limit}&offset=${offset}`);
      pages.push(page);
      cases.push(...page.cases);
      offset = page.nextOffset;
    }
    return { cases, pages };
  };

  beforeAll(async () => {
    t = await TestDocket.shared();
    const world = await World.on(t.devnet, { agentJudges: 0 });
    world.agents.push(t.address(A), t.address(B));
    await world.grow(CASES, 2);
    await t.indexed(120_000);
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  it("the inbox counts every open case, sorts what is required first and pages stably", async () => {
    const who = t.address(B);
    const whole = await get(`/agent/${who}/inbox?limit=100`);
    expect(whole.total).toBeGreaterThan(200);
    const small = await walkInbox(who, 7);
    const big = await walkInbox(who, 100);
    // The same order whatever the page size, every case once.
    expect(small.cases.map((c) => c.case)).toEqual(big.cases.map((c) => c.case));
    expect(new Set(big.cases.map((c) => c.case)).size).toBe(whole.total);
    // The counts are over everything, on every page alike.
    const required = big.cases.flatMap((c) => c.actions).filter((a) => a.required).length;
    const all = big.cases.flatMap((c) => c.actions).length;
    // B answers for 100 of the world's summonses (the odd cases, less those it answered).
    expect(required).toBeGreaterThanOrEqual(100);
    for (const p of [...small.pages, ...big.pages]) {
      expect(p).toMatchObject({ total: whole.total, requiredNow: required, actionsNow: all });
    }
    // Required first, soonest deadline first.
    const firsts = big.cases.map((c) => c.actions[0]).filter(Boolean);
    const lastRequired = firsts.findLastIndex((a) => a.required);
    expect(firsts.slice(0, lastRequired + 1).every((a) => a.required)).toBe(true);
    const deadlines = firsts.slice(0, lastRequired + 1).map((a) => a.deadline);
    expect(deadlines).toEqual([...deadlines].sort((x, y) => x - y));
  });

  it("the validation queue pages every Deliberating case by cursor, soonest deadline first", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: entries are checked field by field
    const cases: any[] = [];
    let cursor: string | null = "";
    let total = 0;
    while (cursor !== null) {
      const page = await get(`/validate/pending?limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      total = page.total;
      cases.push(...page.cases);
      cursor = page.nextCursor;
    }
    // The world's Deliberating cases (1 in 10) and the seeded ones, each once.
    expect(total).toBeGreaterThanOrEqual(CASES / 10);
    expect(new Set(cases.map((c) => c.address)).size).toBe(total);
    expect(cases.every((c) => c.state === "Deliberating" && c.judges.length > 0)).toBe(true);
    const deadlines = cases.map((c) => c.deliberationDeadline);
    expect(deadlines).toEqual([...deadlines].sort((x, y) => x - y));
  });

  it("a summons filed after hundreds of cases is first in the defendant's inbox; responding as listed clears it", async () => {
    // A day on, every summons of the world has lapsed: what B must do is only what comes next.
    await advanceTime(t.chain.reader, 2 * 24 * 3600);
    const filing = {
      plaintiff: t.address(A),
      defendant: t.address(B),
      claimDescription: "The newest dispute of all: an API key sold twice.",
      evidenceIpfsHash: "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
    };
    const first = await t.post("/cases", filing);
    expect(first.status, JSON.stringify(first.body)).toBe(402);
    const paid = await t.actor(A).send(first.body.accepts[0].extra.unsigned_tx);
    await t.write("/cases", { ...filing, payment_tx_hash: paid.transactionHash }, A);
    await t.indexed();
    const inbox = await get(`/agent/${t.address(B)}/inbox?limit=20`);
    expect(inbox.total).toBeGreaterThan(100);
    expect(inbox.requiredNow).toBe(1);
    const top = inbox.cases[0];
    expect(top.actions[0]).toMatchObject({ operation: "respond_to_case", required: true, as: "defendant" });
    const [, path] = top.actions[0].http.split(" ");
    await t.write(path, { from: t.address(B) }, B);
    await t.indexed();
    const after = await get(`/agent/${t.address(B)}/inbox?limit=20`);
    expect(after.requiredNow).toBe(0);
    expect((await get(`/cases/${top.case}`)).case.state).not.toBe("Summoned");
  });

  it("the keeper view pages every due case of the court by cursor, counted over all of them", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: steps are checked field by field
    const steps: any[] = [];
    let cursor: string | null = "";
    let pages = 0;
    let total = 0;
    while (cursor !== null) {
      const page = await get(`/keeper/actions?limit=50${cursor ? `&cursor=${cursor}` : ""}`);
      total = page.total;
      steps.push(...page.actions);
      cursor = page.nextCursor;
      pages++;
    }
    expect(pages).toBeGreaterThan(2);
    expect(total).toBeGreaterThan(CASES * 0.7);
    const defaults = steps.filter((s) => s.operation === "trigger_default");
    expect(defaults.length).toBeGreaterThan(150);
    // A listed default, sent as listed, ends its case.
    const d = defaults[defaults.length - 1];
    await t.write(d.http.split(" ")[1], { from: t.address(A) }, A);
    expect((await get(`/cases/${d.case}`)).case.state).toBe("Defaulted");
    await t.indexed();
    const again = await get("/keeper/actions?limit=100");
    expect(again.total).toBe(total - 1);
  });

  it("a cursor that is not one is a 400, not a 500", async () => {
    const r = await t.get("/keeper/actions?cursor=nonsense");
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("INVALID_INPUT");
  });
});
