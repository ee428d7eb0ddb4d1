import { describe, expect, it } from "vitest";
import { forSuite, TestDocket } from "../support/index.js";

describe("npm start's server on the seeded dev chain", () => {
  let t: TestDocket;
  forSuite(async () => (t = await TestDocket.start()));

  it("reports health with chain id, contracts, minimums and the dev chain's RPC URL", async () => {
    const { status, body } = await t.get("/health");
    expect(status).toBe(200);
    expect(body.status).toBe("ok");
    expect(body.chainId).toBe(31337);
    expect(body.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(BigInt(body.minimums.judgeStake)).toBeGreaterThan(0n);
  });

  it("lists the seeded cases in every demo state", async () => {
    const list = (await t.get("/cases?limit=20&offset=0")).body;
    // Ten cases: every state in the General court, a commit and a reveal phase in Agentic Commerce;
    // and three the seeded jobs' disputes opened.
    expect(list).toMatchObject({ total: 13, offset: 0, limit: 20 });
    expect(list.total).toBe(t.devnet.seed?.cases.length);
    const states = await Promise.all(list.cases.map(async (a: string) => (await t.get(`/cases/${a}`)).body.case.state));
    expect(new Set(states)).toEqual(
      new Set(["Summoned", "Active", "Deliberating", "Resolved", "Defaulted", "Dismissed", "Appealed"]),
    );
  });

  it("lists the seeded jobs in every step, each readable with its evidence", async () => {
    const list = (await t.get("/jobs?limit=20")).body;
    expect(list.total).toBe(6);
    expect(list.total).toBe(t.devnet.seed?.jobs.length);
    const jobs = await Promise.all(list.jobs.map(async (j: { id: number }) => (await t.get(`/jobs/${j.id}`)).body.job));
    const steps = jobs.map((j) => `${j.state}/${j.evaluation.phase}`).sort();
    expect(steps).toEqual([
      "Completed/ruled",
      "Funded/waiting",
      "Open/waiting",
      "Rejected/ruled",
      "Submitted/disputed",
      "Submitted/in_window",
    ]);
    const ruled = jobs.filter((j) => j.evaluation.phase === "ruled");
    expect(ruled.map((j) => j.evaluation.dispute.ruling.winner).sort()).toEqual(["client", "provider"]);
    // The deliverable is published: its CID reads back as the provider's work.
    const submitted = jobs.find((j) => j.evaluation.phase === "in_window");
    const work = await fetch(`${t.url}/evidence/${submitted.deliverableCid}`);
    expect(await work.text()).toMatch(/^Q3 summary/);
    // The client's statement is the case's evidence.
    const judged = jobs.find((j) => j.evaluation.phase === "disputed");
    const c = (await t.get(`/cases/${judged.evaluation.dispute.case}`)).body.case;
    expect(c.arbitration.job.id).toBe(judged.id);
    const evidence = (await t.get(`/cases/${judged.evaluation.dispute.case}/evidence`)).body;
    expect(JSON.stringify(evidence)).toMatch(/2022 data, not 2023/);
  });
});
