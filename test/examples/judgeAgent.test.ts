import { spawn } from "node:child_process";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { AGENTIC_COMMERCE_COURT } from "../../src/deploy/terms.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { forSuite, TestDocket, until } from "../support/index.js";

interface Line {
  step: string;
  judge: string;
  // biome-ignore lint/suspicious/noExplicitAny: log lines are checked field by field
  [field: string]: any;
}

/**
 * Runs examples/judge-agent as a child process until it is idle. The inbox timer is set far past
 * the test's length: anything the agent does after its first pass was set off by a pushed event.
 */
function runAgent(
  t: TestDocket,
  privateKey: string,
  mode = "--until-idle",
  env: Record<string, string> = {},
): Promise<Line[]> {
  return new Promise((resolve, reject) => {
    // tsx itself rather than through npx: the same run, a second less per agent on a busy machine.
    const child = spawn("node_modules/.bin/tsx", ["examples/judge-agent/index.ts", mode], {
      env: { ...process.env, PRIVATE_KEY: privateKey, DOCKET_URL: t.url, INBOX_POLL_MS: "600000", ...env },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString("utf8");
    });
    child.stderr.on("data", (b: Buffer) => {
      err += b.toString("utf8");
    });
    const timer = setTimeout(() => child.kill(), 50_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      const lines = out
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line);
      if (code === 0) resolve(lines);
      else reject(new Error(`judge agent exited with ${code}: ${err}\n${out}`));
    });
  });
}

const keyOf = (t: TestDocket, judge: string) =>
  t.devnet.accounts.find((a) => a.address.toLowerCase() === judge.toLowerCase())?.privateKey as string;

const indexOf = (lines: Line[], pred: (l: Line) => boolean) => lines.findIndex(pred);

/** Closes the seeded open cases (their panels would keep a judge busy until a deadline): a day on, every keeper action. */
async function closeSeededCases(t: TestDocket): Promise<void> {
  // A step can make the next one due only later (a verdict, then its appeal window): rounds until
  // the keeper has nothing left, each read at the chain time just reached (not a view of before it).
  for (let round = 0; round < 4; round++) {
    await advanceTime(t.chain.reader, 2 * 24 * 3600);
    // The keeper view answers from the index: it must hold the writes of the round before.
    await t.indexed();
    const now = Number((await t.chain.reader.getBlock({ blockTag: "latest" })).timestamp);
    let steps: { http: string }[] = [];
    await until(
      "the keeper view at the chain time reached",
      async () => {
        const r = await t.get("/keeper/actions");
        steps = r.body.actions;
        return r.body.chainTime >= now;
      },
      20_000,
    );
    if (steps.length === 0) return;
    for (const step of steps) await t.write(step.http.split(" ")[1] as string, { from: t.address(18) }, 18);
  }
  throw new Error("the seeded cases did not close in four rounds");
}

/**
 * Tops up every seeded Agentic Commerce judge (accounts 11 to 14) by the court's minimum: closing the
 * seeded cases slashes their no-shows, and which judges those were depends on the draws' entropy, so
 * on some runs two of the four fall below the court's minimum and a panel of three cannot be drawn.
 */
async function topUpAgenticJudges(t: TestDocket): Promise<void> {
  for (const i of [11, 12, 13, 14]) {
    await t.write(
      "/judges/stake",
      { address: t.address(i), amount: "200000000000000000", court: Number(AGENTIC_COMMERCE_COURT) },
      i,
    );
  }
}

describe("examples/judge-agent on a hidden-vote court (Agentic Commerce)", () => {
  let t: TestDocket;
  // Webhooks to the agents' endpoints on loopback (as on a developer's machine), delivered every 200 ms.
  forSuite(
    async () =>
      (t = await TestDocket.shared({ EVENT_POLL_MS: "200", WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_POLL_MS: "200" })),
  );

  it("three agents, one per drawn judge, commit, reveal on the pushed events (a stream, or webhooks for two) and decide a fresh case", async () => {
    await closeSeededCases(t);
    await topUpAgenticJudges(t);
    const plaintiff = t.address(1);
    const defendant = t.address(2);
    const c = await t.fileOnChain(1, 2, "Forty GPU-hours billed, twelve delivered.", AGENTIC_COMMERCE_COURT);
    await t.write(`/cases/${c}/respond`, { from: defendant }, 2);
    // The defendant's delivery record (published, then submitted by CID) says the hours were delivered
    // to the terms: what the default rule reads, so it rules for the defendant.
    const record = {
      record: "delivery",
      item: "40 GPU-hours",
      delivered: true,
      meetsTerms: true,
      notes: "Job logs a1-a40.",
    };
    const published = await t.post("/evidence", {
      content: JSON.stringify(record),
      mediaType: "application/json",
      name: "Delivery logs",
    });
    await t.write(`/cases/${c}/evidence`, { evidenceIpfsHash: published.body.document.cid, from: defendant }, 2);
    await t.write(`/cases/${c}/assign-judges-random`, { from: t.address(18) }, 18);
    const drawn = (await t.get(`/cases/${c}`)).body.case;
    expect(drawn).toMatchObject({ state: "Deliberating", hiddenVotes: true, votingPhase: "commit" });
    const judges = drawn.judges as Address[];
    expect(judges).toHaveLength(3);
    expect(judges).not.toContain(plaintiff);

    // The first judge's agent commits in one pass and exits; its second run keeps no state from the
    // first and still reveals (its salt is derived from its key).
    const first = await runAgent(t, keyOf(t, judges[0] as string), "--once");
    expect(first.filter((l) => l.case === c).map((l) => l.step)).toEqual([
      "action",
      "decision",
      "tx",
      "committed",
      "confirmed",
    ]);
    // The first follows GET /events; the other two sleep until docket's webhook deliveries wake them.
    const logs = await Promise.all(
      judges.map((j, i) => runAgent(t, keyOf(t, j), "--until-idle", i > 0 ? { WEBHOOK_PORT: "0" } : {})),
    );
    logs[0] = [...first, ...(logs[0] as Line[])];

    for (const [i, lines] of logs.entries()) {
      const on = (step: string) => indexOf(lines, (l) => l.step === step && l.case === c);
      expect(lines.every((l) => l.judge === judges[i])).toBe(true);
      const decision = lines[on("decision")];
      expect(decision).toMatchObject({ plaintiffWins: false, evidence: 2 });
      expect(decision?.justification).toContain("delivery record shows 40 GPU-hours delivered to the terms");
      expect(decision?.justification).toContain("the defendant prevails");
      // Decided under the case's court: the agent read its policy.
      expect(decision?.justification).toMatch(/^Agentic Commerce court\./);
      expect(on("committed")).toBeGreaterThan(on("decision"));
      expect(on("revealed")).toBeGreaterThan(on("committed"));
      expect(lines.filter((l) => l.step === "committed")).toHaveLength(1);
      // These two reveal in a later pass than their commit, and only a delivery of docket's webhooks
      // starts one (no stream, the inbox timer never fires). The restarted first judge may find the
      // reveal open on its first pass.
      if (i > 0) {
        expect(lines.some((l) => l.step === "subscribed")).toBe(true);
        expect(lines.some((l) => l.step === "event")).toBe(false);
        const pushed = indexOf(lines, (l) => l.step === "delivery" && l.type === "vote.committed" && l.case === c);
        expect(pushed).toBeGreaterThan(-1);
        expect(pushed).toBeLessThan(on("revealed"));
      }
      const statuses = lines.filter((l) => l.step === "tx").map((l) => l.status);
      expect(statuses).toEqual(["success", "success"]);
      expect(lines.filter((l) => l.step === "confirmed" && l.case === c).map((l) => l.myVote)).toEqual([
        "committed",
        "defendant",
      ]);
      expect(lines.at(-1)?.step).toBe("idle");
      expect(lines.some((l) => l.step === "refused" || l.step === "error")).toBe(false);
    }

    const after = (await t.get(`/cases/${c}`)).body.case;
    expect(after).toMatchObject({ state: "Resolved", outcome: "DefendantWon", votesForDefendant: 3 });
    for (const v of after.votes) expect(v.justification).toContain("the defendant prevails");
    await t.indexed();
    expect((await t.get(`/agent/${judges[0]}/inbox`)).body.requiredNow).toBe(0);
  }, 90_000);
});

describe("examples/judge-agent on a public-vote court (the General court)", () => {
  let t: TestDocket;
  forSuite(async () => (t = await TestDocket.shared({ EVENT_POLL_MS: "200" })));

  it("one agent's vote is the second for the plaintiff and decides a fresh case", async () => {
    // A judge of the seeded cases may also sit on a hidden-vote panel, whose reveal it would wait for.
    await closeSeededCases(t);
    const c = await t.fileOnChain(3, 4, "Sixty API calls paid for, none answered.");
    await t.write(`/cases/${c}/respond`, { from: t.address(4) }, 4);
    // The plaintiff's delivery record says nothing was delivered: the default rule rules for the plaintiff.
    const record = {
      record: "delivery",
      item: "60 API calls",
      delivered: false,
      meetsTerms: false,
      notes: "None answered.",
    };
    const published = await t.post("/evidence", {
      content: JSON.stringify(record),
      mediaType: "application/json",
      name: "Call log",
    });
    await t.write(`/cases/${c}/evidence`, { evidenceIpfsHash: published.body.document.cid, from: t.address(3) }, 3);
    await t.write(`/cases/${c}/assign-judges-random`, { from: t.address(18) }, 18);
    const drawn = (await t.get(`/cases/${c}`)).body.case;
    expect(drawn).toMatchObject({ state: "Deliberating", hiddenVotes: false, court: { id: 1, name: "General" } });
    const [first, judge] = drawn.judges as string[];
    // The first judge votes as the service interface documents it: `{ plaintiff_wins }` alone.
    const at = (a: string) => t.devnet.accounts.findIndex((x) => x.address === a);
    await t.write(`/cases/${c}/vote`, { plaintiff_wins: true }, at(first as string));
    const before = (await t.get(`/cases/${c}`)).body.case;
    expect(before).toMatchObject({ state: "Deliberating", votesForPlaintiff: 1, votesForDefendant: 0 });

    const lines = await runAgent(t, keyOf(t, judge as string));

    expect(lines.find((l) => l.step === "decision" && l.case === c)).toMatchObject({ plaintiffWins: true });
    expect(lines.find((l) => l.step === "voted" && l.case === c)).toBeDefined();
    expect(lines.find((l) => l.step === "confirmed" && l.case === c)).toMatchObject({
      state: "Resolved",
      outcome: "PlaintiffWon",
    });
    const after = (await t.get(`/cases/${c}`)).body.case;
    expect(after).toMatchObject({ state: "Resolved", outcome: "PlaintiffWon", votesForPlaintiff: 2 });
    expect(after.votes[1]).toMatchObject({ judge, vote: "plaintiff" });
  }, 60_000);
});
