import { type Address, parseEventLogs, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agenticCommerceAbi } from "../../src/chain/abi/generated.js";
import { advanceTime } from "../../src/devnet/seed.js";
import type { DocketEvent } from "../../src/events/types.js";
import { testArbitrableAbi } from "../contracts/arbitrationHelpers.js";
import { TestDocket } from "../support/docket.js";
import { BUDGET, disputedJob, failedRuling, httpDriver, JobFlow, undisputedJob } from "../support/jobFlow.js";

/**
 * docket as the arbitrator of ERC-8183 jobs, over HTTP (docs/arbitration.md): every transaction
 * built by docket, signed by a dev account, mined, and read back through the API and the token's
 * balances. The General court judges in the open, Agentic Commerce with hidden votes.
 */
describe("jobs judged by docket's court, over HTTP", () => {
  let t: TestDocket;
  let f: JobFlow;
  let client: Address;
  let provider: Address;
  const events: DocketEvent[] = [];

  beforeAll(async () => {
    t = await TestDocket.shared({ EVENT_POLL_MS: "3600000" });
    // The follower's first poll marks where it starts; what it publishes after is what GET /events streams.
    await t.docket.follower?.poll();
    t.docket.events.subscribe((e) => events.push(e));
    f = new JobFlow(t, httpDriver(t));
    client = t.address(15);
    provider = t.address(19);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("the General court (public votes) rules for the provider: the job completes and the provider is paid", async () => {
    const { id } = await disputedJob(f, client, provider, 1, false);
    // The follower pushes the dispute and the delivered ruling on GET /events (and to MCP subscribers).
    await t.docket.follower?.poll();
    expect(events).toContainEqual(
      expect.objectContaining({ type: "job.disputed", data: expect.objectContaining({ jobId: String(id) }) }),
    );
    const delivered = events.find((e) => e.type === "ruling.delivered");
    expect(delivered?.data).toMatchObject({ ruling: "2" });
    const disputedEvent = events.find((e) => e.type === "job.disputed");
    expect(disputedEvent?.addresses).toEqual(expect.arrayContaining([client, provider]));
  });

  it("Agentic Commerce (hidden votes: commit, then reveal) rules for the client: the job is rejected and the client refunded", async () => {
    await disputedJob(f, client, provider, 2, true);
  });

  it("undisputed, the window passes: anyone finalizes (a keeper action) and the provider is paid", async () => {
    await undisputedJob(f, client, provider, t.address(16));
  });

  it("refuses up front, with the rule: an expiry the court could not judge within, the client submitting, a job that would expire before a ruling", async () => {
    await f.mint(client, BUDGET);
    // Twenty minutes of life: less than the window, the court's worst case and an hour of work.
    const short = await f.call("create_job", { from: client, provider, court: 1, description: "x", expiresIn: 1200 });
    expect(short).toMatchObject({
      status: 422,
      body: { error: { code: "JOB_STEP_REFUSED", details: { rule: "expiry_too_short", expiresIn: 1200 } } },
    });
    const least = short.body.error.details.minExpiresIn;
    expect(least).toBe(short.body.error.details.challengeWindow + short.body.error.details.maxDuration + 3600);
    // By default the job outlives the window, the worst case and a week of work.
    const created = await f.ok("create_job", { from: client, provider, court: 1, description: "x" });
    const chainNow = Number((await t.chain.reader.getBlock()).timestamp);
    expect(created.expiredAt - chainNow).toBe(least - 3600 + 7 * 86_400);
    // Such a job made without docket (straight on the contract) is still refused a dispute, and refunds when finalized.
    const a = f.arbitration;
    const now = (await t.chain.reader.getBlock()).timestamp;
    const r = await t.actor(15).write({
      address: a.commerce,
      abi: agenticCommerceAbi,
      functionName: "createJob",
      args: [provider, a.evaluators[0]?.address as Address, now + 1200n, "Too short a life", zeroAddress],
    });
    const id = Number(
      parseEventLogs({ abi: agenticCommerceAbi, eventName: "JobCreated", logs: r.logs })[0]?.args.jobId,
    );
    await f.fund(id, client, BUDGET);
    const byClient = await f.call("submit_job", { id, from: client, deliverable: `0x${"ab".repeat(32)}` });
    expect(byClient).toMatchObject({
      status: 422,
      body: { error: { code: "JOB_STEP_REFUSED", details: { rule: "only_provider" } } },
    });
    await f.write("submit_job", { id, from: provider, deliverable: `0x${"ab".repeat(32)}` }, provider);
    expect((await f.job(id)).deliverable).toBe(`0x${"ab".repeat(32)}`);
    const byProvider = await f.call("dispute_job", { id, from: provider, statement: "x" });
    expect(byProvider).toMatchObject({ status: 422, body: { error: { details: { rule: "expires_before_ruling" } } } });
    expect((await f.job(id)).evaluation).toMatchObject({ disputable: false, judgeable: false });
    const tooLate = await f.call("dispute_job", { id, from: client, statement: "x" });
    expect(tooLate.status).toBe(422);
    expect(tooLate.body.error.message).toMatch(/expires at \d+, before a ruling/);
    const read = await f.ok("get_job", { id });
    await advanceTime(t.chain.reader, read.job.evaluation.windowEndsAt - read.chainTime + 1);
    const before = await f.balance(client);
    const { body } = await f.write("finalize_job", { id, from: t.address(16) }, t.address(16));
    expect(body.pays).toBe(false);
    expect(await f.job(id)).toMatchObject({ state: "Rejected", evaluation: { phase: "finalized" } });
    expect(await f.balance(client)).toBe(before + BUDGET);
  });

  it("bad input: 404 for a job that does not exist, 400 for a bad address or a deliverable that is no CID nor bytes32, 422 for a bad id", async () => {
    expect(await t.get("/jobs/999999")).toMatchObject({ status: 404, body: { error: { code: "JOB_NOT_FOUND" } } });
    expect((await t.get("/jobs/abc")).status).toBe(422);
    expect((await t.post("/jobs/1/dispute", { from: "0x123", statement: "x" })).status).toBe(400);
    const r = await t.post("/jobs/1/submit", { from: provider, deliverable: "not a cid" });
    expect(r).toMatchObject({ status: 400, body: { error: { code: "INVALID_INPUT" } } });
    const both = await t.post("/jobs/1/dispute", { from: client });
    expect(both).toMatchObject({ status: 400, body: { error: { code: "INVALID_INPUT" } } });
    expect(await t.get("/arbitration/cost?court=64")).toMatchObject({
      status: 404,
      body: { error: { code: "COURT_NOT_FOUND" } },
    });
  });

  it("a ruling the arbitrable refuses is due, listed for keepers, and delivered once when deliver_ruling is retried", async () => {
    const { arbitrable, caseAddr } = await failedRuling(f, client, provider);
    const c = (await t.get(`/cases/${caseAddr}`)).body.case;
    expect(c).toMatchObject({ state: "Resolved", arbitration: { arbitrable, job: null } });
    const keeper = (await t.get("/keeper/actions")).body;
    expect(keeper.actions).toContainEqual(
      expect.objectContaining({
        case: caseAddr,
        operation: "deliver_ruling",
        http: `POST /cases/${caseAddr}/deliver-ruling`,
      }),
    );
    const calls = () =>
      t.chain.reader.readContract({ address: arbitrable, abi: testArbitrableAbi, functionName: "calls" });
    // Still refused: the retry is mined, the ruling stays due.
    await f.write("deliver_ruling", { address: caseAddr, from: t.address(16) }, t.address(16));
    expect(await calls()).toBe(0n);
    await t.actor(0).write({ address: arbitrable, abi: testArbitrableAbi, functionName: "setFailing", args: [false] });
    await f.write("deliver_ruling", { address: caseAddr, from: t.address(16) }, t.address(16));
    expect(await calls()).toBe(1n);
    const again = await t.post(`/cases/${caseAddr}/deliver-ruling`, {});
    expect(again).toMatchObject({ status: 422, body: { error: { details: { rule: "ruling_delivered" } } } });
    const plain = await t.fileOnChain(15, 19);
    const none = await t.post(`/cases/${plain}/deliver-ruling`, {});
    expect(none).toMatchObject({ status: 422, body: { error: { details: { rule: "not_a_dispute" } } } });
    expect((await t.get(`/cases/${plain}`)).body.case.arbitration).toBeNull();
  });

  it("list_jobs pages like /cases and filters by state, client and provider", async () => {
    const all = (await t.get("/jobs?limit=2&offset=0")).body;
    expect(all.jobs).toHaveLength(2);
    expect(all.total).toBeGreaterThanOrEqual(4);
    // A filtered list is the index's: it holds the jobs once the follower has read their blocks.
    await t.indexed();
    const mine = (await t.get(`/jobs?client=${client}&state=Completed`)).body;
    expect(mine.total).toBeGreaterThanOrEqual(2);
    for (const j of mine.jobs) expect(j).toMatchObject({ client, state: "Completed" });
    expect(
      (await t.get(`/jobs?provider=${t.address(3)}`)).body.jobs.every(
        (j: { provider: string }) => j.provider === t.address(3),
      ),
    ).toBe(true);
  });
});
