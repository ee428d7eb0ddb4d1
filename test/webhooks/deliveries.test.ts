import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readChainTime } from "../../src/chain/reads/core.js";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { advanceTime } from "../../src/devnet/seed.js";
import type { WebhookWorker } from "../../src/operations/webhooks/worker.js";
import { TestDocket } from "../support/index.js";
import { Receiver } from "./receiver.js";

/**
 * Deliveries (docs/webhooks.md): a real receiver verifying every delivery with standardwebhooks gets
 * a judge's reminder before its vote's deadline and the vote's event after one follower poll and one
 * worker pass; every delivery after being down for ten minutes; a webhook failing for three days is
 * disabled and says why; an endpoint never verified gets nothing. The worker's timer is off
 * (WEBHOOKS_POLL_MS an hour) and its clock is the test's: passes are counted, time is moved, nothing
 * waits on the wall clock.
 */
describe("webhook deliveries", () => {
  let t: TestDocket;
  let rx: Receiver;
  let worker: WebhookWorker;
  let clock = Date.now();

  beforeAll(async () => {
    t = await TestDocket.shared({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_POLL_MS: "3600000" });
    rx = await Receiver.start();
    worker = t.docket.webhooks as WebhookWorker;
    worker.clock = () => clock;
    // The inbox reads the index: the seeded world in it first.
    await t.indexed();
  });
  afterAll(async () => {
    await t?.close();
    await rx?.close();
  });

  const seeded = (state: string) => t.devnet.seed?.cases.find((c) => c.state === state)?.address as string;

  async function signed(index: number) {
    const owner = devAccount(index).account;
    const message = (await t.get(`/webhooks/nonce?address=${owner.address}`)).body.message as string;
    return { message, signature: await owner.signMessage({ message }) };
  }

  /** A verified webhook of dev account `index` to `to`, which is given its secret. */
  async function subscribe(index: number, to: Receiver, extra: Record<string, unknown> = {}): Promise<string> {
    const made = await t.post("/webhooks", { ...(await signed(index)), url: to.url, ...extra });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    to.secret = made.body.secret;
    const v = await t.post(`/webhooks/${made.body.id}/verify`, await signed(index));
    expect(v.body.status, JSON.stringify(v.body)).toBe("active");
    return made.body.id as string;
  }

  async function listed(index: number, id: string) {
    const r = await t.post("/webhooks/list", await signed(index));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: a webhook as list_webhooks answers it, checked field by field
    return (r.body.webhooks as { id: string }[]).find((w) => w.id === id) as Record<string, any>;
  }

  it("a judge is reminded before its vote's deadline, then gets its vote's event within one poll", async () => {
    const target = seeded("Deliberating");
    const judge = (await t.get(`/cases/${target}`)).body.case.judges[1] as Address;
    const idx = t.indexOf(judge);
    const inbox = await t.get(`/agent/${judge}/inbox`);
    const due = (
      inbox.body.cases as { case: string; actions: { operation: string; required: boolean; deadline: number }[] }[]
    )
      .find((c) => c.case.toLowerCase() === target.toLowerCase())
      ?.actions.find((a) => a.required && a.deadline !== null);
    expect(due, JSON.stringify(inbox.body)).toBeDefined();
    const deadline = due?.deadline as number;
    // A lead half the time left (the seeded deadline is minutes ahead, nearer as the run goes on).
    // Chain time as docket reads it (the next block's, on a dev chain whose blocks come with transactions).
    const head = async () => Number(await readChainTime(t.chain));
    const left = deadline - (await head());
    expect(left, "the seeded vote's deadline is still ahead").toBeGreaterThan(180);
    const lead = Math.floor(left / 2);
    await subscribe(idx, rx, { reminders: [lead] });
    clock = Math.max(clock, (await head()) * 1000);
    await worker.pass();
    const ofTarget = (type: string) => rx.taken.filter((d) => d.type === type && d.data.case === target);
    expect(ofTarget("reminder.due")).toEqual([]);

    // Half the lead before the deadline, on chain time: one reminder, signed, naming the action and its deadline.
    await advanceTime(t.chain.reader, deadline - (await head()) - Math.floor(lead / 2));
    await worker.pass();
    await worker.pass();
    const reminders = ofTarget("reminder.due");
    expect(reminders).toHaveLength(1);
    const r = reminders[0];
    expect(r?.verified).toBe(true);
    expect(r?.data).toMatchObject({ case: target, operation: due?.operation, deadline, leadSeconds: lead });
    expect(r?.data.secondsLeft).toBeGreaterThan(0);
    expect(r?.data.secondsLeft).toBeLessThanOrEqual(lead);
    expect(r?.data.chainTime).toBeLessThan(deadline);

    // The vote: one follower poll puts it in the index, one pass delivers it.
    await t.write(`/cases/${target}/vote`, { plaintiff_wins: true, from: judge }, idx);
    await t.indexed();
    await worker.pass();
    const votes = ofTarget("vote.cast");
    expect(votes, JSON.stringify(rx.seen.map((d) => d.type))).toHaveLength(1);
    expect(votes[0]?.verified).toBe(true);
    expect(votes[0]?.data.addresses).toContain(judge);
  });

  it("a defendant is reminded to answer, and once the answer window passed its plaintiff is told anyone may default it", async () => {
    const [plaintiff, defendant] = [13, 14];
    const toDefendant = await Receiver.start();
    const toPlaintiff = await Receiver.start();
    await subscribe(defendant, toDefendant, { reminders: [30 * 86_400] });
    await subscribe(plaintiff, toPlaintiff, { reminders: [60] });
    const filed = await t.fileOnChain(plaintiff, defendant);
    await t.indexed();
    clock += 1_000;
    await worker.pass();
    const answer = toDefendant.taken.find((d) => d.type === "reminder.due" && d.data.case === filed);
    expect(answer?.data).toMatchObject({ as: "defendant", required: true });
    expect(answer?.data.deadline).toBeGreaterThan(answer?.data.chainTime);
    expect(toPlaintiff.taken.filter((d) => d.type.startsWith("reminder") && d.data.case === filed)).toEqual([]);

    // Past the answer window (a deadline passing emits nothing on chain): the plaintiff hears of it.
    await advanceTime(t.chain.reader, (answer?.data.deadline as number) - Number(await readChainTime(t.chain)) + 5);
    clock += 1_000;
    await worker.pass();
    const overdue = toPlaintiff.taken.filter((d) => d.type === "reminder.overdue" && d.data.case === filed);
    expect(overdue, JSON.stringify(toPlaintiff.seen.map((d) => d.type))).toHaveLength(1);
    expect(overdue[0]?.data).toMatchObject({ as: "anyone", state: "Summoned" });
    expect(overdue[0]?.data.http).toMatch(new RegExp(`^POST /cases/${filed}/`));
    // Told once.
    clock += 1_000;
    await worker.pass();
    expect(toPlaintiff.taken.filter((d) => d.type === "reminder.overdue" && d.data.case === filed)).toHaveLength(1);
    await toDefendant.close();
    await toPlaintiff.close();
  });

  it("after ten minutes down, every delivery arrives, retried with growing gaps, the owner seeing why", async () => {
    const plaintiff = 3;
    const down = await Receiver.start();
    const id = await subscribe(plaintiff, down, { reminders: [] });
    down.mode = "down";
    const cases = [
      await t.fileOnChain(plaintiff, 4),
      await t.fileOnChain(plaintiff, 5),
      await t.fileOnChain(plaintiff, 6),
    ];
    await t.indexed();

    const start = clock;
    const attemptsAt = new Map<string, number[]>();
    while (clock - start < 600_000) {
      clock += 10_000;
      const before = down.seen.length;
      await worker.pass();
      for (const d of down.seen.slice(before)) attemptsAt.set(d.id, [...(attemptsAt.get(d.id) ?? []), clock]);
    }
    expect(down.taken).toEqual([]);
    const filed = new Set(down.seen.filter((d) => d.type === "case.filed").map((d) => d.data.case));
    expect(filed).toEqual(new Set(cases));
    for (const [, at] of attemptsAt) {
      // 5 s doubling with jitter: some six to nine attempts in ten minutes, each gap longer.
      expect(at.length).toBeGreaterThanOrEqual(5);
      expect(at.length).toBeLessThanOrEqual(10);
      const gaps = at.slice(1).map((a, i) => a - (at[i] as number));
      expect(gaps[gaps.length - 1]).toBeGreaterThan((gaps[0] as number) * 4);
    }
    const failing = await listed(plaintiff, id);
    expect(failing.status).toBe("active");
    expect(failing.deliveries.pending).toBe(attemptsAt.size);
    expect(failing.deliveries.failingSince).not.toBeNull();
    expect(failing.deliveries.recent[0]).toMatchObject({ lastStatus: 503, lastError: "the endpoint answered 503" });
    expect(Date.parse(failing.deliveries.recent[0].nextAttemptAt)).toBeGreaterThan(
      Date.parse(failing.deliveries.recent[0].lastAttemptAt),
    );

    down.mode = "up";
    const back = clock;
    while (down.taken.length < attemptsAt.size && clock - back < 30 * 60_000) {
      clock += 10_000;
      await worker.pass();
    }
    expect(new Set(down.taken.map((d) => d.id))).toEqual(new Set(attemptsAt.keys()));
    expect(down.taken.every((d) => d.verified)).toBe(true);
    const healthy = await listed(plaintiff, id);
    expect(healthy.deliveries).toMatchObject({ pending: 0, failed: 0, delivered: attemptsAt.size, failingSince: null });
    await down.close();
  });

  it("a webhook failing for three days is disabled, says why, and verify_webhook turns it on again", async () => {
    const owner = 7;
    const dead = await Receiver.start();
    const id = await subscribe(owner, dead, { reminders: [] });
    dead.mode = "down";
    await t.fileOnChain(owner, 8);
    await t.indexed();
    const start = clock;
    // Retries run to the first attempt after 72 hours (the last gap is three to six hours).
    while (clock - start < 79 * 3_600_000) {
      clock += 1_800_000;
      await worker.pass();
    }
    const w = await listed(owner, id);
    expect(w.status).toBe("disabled");
    expect(w.disabledReason).toMatch(/every delivery failed for 72 hours .*the endpoint answered 503.*verify_webhook/);
    expect(w.deliveries.failed).toBeGreaterThan(0);
    // Disabled: a new event is not sent.
    const seen = dead.seen.length;
    await t.fileOnChain(owner, 9);
    await t.indexed();
    clock += 60_000;
    await worker.pass();
    expect(dead.seen.length).toBe(seen);
    dead.mode = "up";
    const v = await t.post(`/webhooks/${id}/verify`, await signed(owner));
    expect(v.body).toMatchObject({ status: "active", disabledReason: null });
    await worker.pass();
    expect(dead.taken.some((d) => d.type === "case.filed")).toBe(true);
    await dead.close();
  });

  it("an endpoint never verified is sent nothing", async () => {
    const owner = 10;
    const quiet = await Receiver.start();
    const made = await t.post("/webhooks", { ...(await signed(owner)), url: quiet.url });
    expect(made.body.status).toBe("pending_verification");
    await t.fileOnChain(owner, 11);
    await t.indexed();
    clock += 60_000;
    await worker.pass();
    expect(quiet.seen).toEqual([]);
    await quiet.close();
  });
});
