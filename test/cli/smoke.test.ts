import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestDocket } from "../support/index.js";

describe("npm start's server on the seeded dev chain", () => {
  let t: TestDocket;
  beforeAll(async () => {
    t = await TestDocket.start();
  });
  afterAll(async () => {
    await t?.close();
  });

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
    // Ten cases: every state in the General court, a commit and a reveal phase in Agentic Commerce.
    expect(list).toMatchObject({ total: 10, offset: 0, limit: 20 });
    expect(list.total).toBe(t.devnet.seed?.cases.length);
    const states = await Promise.all(list.cases.map(async (a: string) => (await t.get(`/cases/${a}`)).body.case.state));
    expect(new Set(states)).toEqual(
      new Set(["Summoned", "Active", "Deliberating", "Resolved", "Defaulted", "Dismissed", "Appealed"]),
    );
  });
});
