import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { type Docket, startServer } from "../src/server.js";

describe("npm start's server on the seeded dev chain", () => {
  let docket: Docket;
  beforeAll(async () => {
    docket = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent" }));
  });
  afterAll(async () => {
    await docket?.close();
  });

  it("reports health with chain id, contracts, minimums and the dev chain's RPC URL", async () => {
    const res = await fetch(`${docket.url}/health`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe("ok");
    expect(body.chainId).toBe(31337);
    expect(body.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(BigInt(body.minimums.judgeStake)).toBeGreaterThan(0n);
  });

  it("lists the seeded cases in every demo state", async () => {
    const list = await (await fetch(`${docket.url}/cases?limit=20&offset=0`)).json();
    expect(list).toMatchObject({ total: 8, offset: 0, limit: 20 });
    const states = await Promise.all(
      list.cases.map(async (a: string) => (await (await fetch(`${docket.url}/cases/${a}`)).json()).case.state),
    );
    expect(new Set(states)).toEqual(
      new Set(["Summoned", "Active", "Deliberating", "Resolved", "Defaulted", "Dismissed", "Appealed"]),
    );
  });
});
