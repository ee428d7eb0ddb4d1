import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorStatus } from "../../src/errors/errors.js";
import { inboxUri } from "../../src/mcp/resources.js";
import { TestDocket } from "../support/docket.js";
import { type Driver, disputedJob, JobFlow, undisputedJob } from "../support/jobFlow.js";
import { call, connectHttp, modern } from "./helpers.js";

/**
 * The arbitration flow of docs/arbitration.md over MCP (Streamable HTTP, the official client, the
 * 2026-07-28 era), as an agent runs it: every write a tool's unsigned transaction, signed by a test
 * wallet and mined; every effect read back with get_job and get_case. The client's inbox resource
 * is pushed when its job is disputed.
 */
describe("jobs judged by docket's court, over MCP", () => {
  let t: TestDocket;
  let client: Client;
  let f: JobFlow;
  let buyer: Address;
  let seller: Address;

  beforeAll(async () => {
    t = await TestDocket.shared({ EVENT_POLL_MS: "3600000" });
    await t.docket.follower?.poll();
    client = await connectHttp("2026-07-28", `${t.url}/mcp`);
    const driver: Driver = async (name, args) => {
      const r = await call(client, name, args);
      const code = r.isError ? (r.body?.error?.code as string | undefined) : undefined;
      return { ok: !r.isError, body: r.body, code, status: code ? errorStatus[code as keyof typeof errorStatus] : 200 };
    };
    f = new JobFlow(t, driver);
    buyer = t.address(16);
    seller = t.address(17);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it("the General court rules for the provider; the client's inbox resource is pushed when the job is disputed", async () => {
    const got: string[] = [];
    modern(client).setNotificationHandler("notifications/resources/updated", (n) => {
      got.push(n.params.uri);
    });
    const sub = await modern(client).listen({ resourceSubscriptions: [inboxUri(buyer)] });
    await disputedJob(f, buyer, seller, 1, false);
    await t.docket.follower?.poll();
    await expect.poll(() => got, { timeout: 10_000 }).toContain(inboxUri(buyer));
    await sub.close();
  });

  it("Agentic Commerce (hidden votes) rules for the client: refunded", async () => {
    await disputedJob(f, buyer, seller, 2, true);
  });

  it("undisputed: finalize_job after the window pays the provider", async () => {
    await undisputedJob(f, buyer, seller, t.address(18));
  });

  it("an unknown job is a tool error with the envelope; an even panel is raised to the next odd one", async () => {
    const missing = await f.call("get_job", { id: 424242 });
    expect(missing).toMatchObject({ ok: false, code: "JOB_NOT_FOUND" });
    const cost = await f.ok("get_arbitration_cost", { court: 2, jurors: 4 });
    expect(cost).toMatchObject({ court: { id: 2, name: "Agentic Commerce" }, jurors: 5 });
  });
});
