import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { advanceTime } from "../../src/devnet/seed.js";
import { BuiltDocket, forSuite } from "../support/index.js";

const run = promisify(execFile);

/**
 * The README's curl walk-through signs with examples/sign.ts: it must keep working, against docket as
 * `npm start` runs it (the built entry). docket here is pointed at a leased chain as at any chain, so
 * the examples get the chain's JSON-RPC URL as a user on an external chain gives it (RPC_URL).
 */
describe("examples/sign.ts", () => {
  let t: BuiltDocket;
  forSuite(async () => (t = await BuiltDocket.shared()));

  it("self-register a free account, sign the answer, read the agent back", async () => {
    const me = t.devnet.accounts[15] as { address: string; privateKey: string };
    const res = await fetch(`${t.url}/agent/self-register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: me.address, name: "my-agent" }),
    });
    const child = run("npx", ["tsx", "examples/sign.ts"], {
      env: { ...process.env, PRIVATE_KEY: me.privateKey, DOCKET_URL: t.url, RPC_URL: t.devnet.rpcUrl },
    });
    child.child.stdin?.end(await res.text());
    expect(JSON.parse((await child).stdout)).toMatchObject({ status: "success" });
    expect((await t.get(`/agent/${me.address}`)).body.agent).toMatchObject({ registered: true, name: "my-agent" });
  });

  it("the README's round trip: the interface's vote on the seeded General-court case, signed by a judge, decides it", async () => {
    const caseAddr = "0x95Eb80e6aBb5D8de0a75bE2822AD1E10efFe9F51";
    const before = (await t.get(`/cases/${caseAddr}`)).body.case;
    expect(before).toMatchObject({ state: "Deliberating", votesForPlaintiff: 1, court: { id: 1, name: "General" } });
    const voted = new Set(
      (before.votes as { judge: string; vote: string | null }[]).filter((v) => v.vote !== null).map((v) => v.judge),
    );
    const judge = (before.judges as string[]).find((j) => !voted.has(j)) as string;
    const account = t.devnet.accounts.find((a) => a.address === judge);
    // Exactly the README's request: the body the service interface documents, nothing else.
    const res = await fetch(`${t.url}/cases/${caseAddr}/vote`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ plaintiff_wins: true }),
    });
    const child = run("npx", ["tsx", "examples/sign.ts"], {
      env: { ...process.env, PRIVATE_KEY: account?.privateKey, DOCKET_URL: t.url, RPC_URL: t.devnet.rpcUrl },
    });
    child.child.stdin?.end(await res.text());
    const { stdout } = await child;
    expect(JSON.parse(stdout)).toMatchObject({ status: "success" });
    const after = (await t.get(`/cases/${caseAddr}`)).body.case;
    expect(after).toMatchObject({ votesForPlaintiff: 2, state: "Resolved", outcome: "PlaintiffWon" });
  });
});

/** docs/agents.md's keeper loop: one sweep executes every permissionless step docket lists. */
describe("examples/keeper.ts", () => {
  let t: BuiltDocket;
  forSuite(async () => (t = await BuiltDocket.shared()));

  it("after every window closed, one sweep defaults, resolves and settles the open cases, and nothing is left", async () => {
    await advanceTime(t.chain.reader, 2 * 24 * 3600);
    // The keeper view answers from the index: it must hold the lent chain's seeded world (its job
    // included) before the view is read.
    await t.indexed();
    const listed = (await t.get("/keeper/actions")).body;
    const before = listed.actions as { case: string; operation: string }[];
    // ...and the seeded job whose challenge window closed undisputed, to finalize.
    const jobs = listed.jobs as { job: number; operation: string }[];
    expect(jobs.map((j) => j.operation)).toEqual(["finalize_job"]);
    // Six cases still heard (active, appealed, one deliberating in the General court, two in Agentic
    // Commerce, and the seeded job's dispute).
    expect(before.map((s) => s.operation).sort()).toEqual([
      "resolve_after_deadline",
      "resolve_after_deadline",
      "resolve_after_deadline",
      "resolve_after_deadline",
      "resolve_after_deadline",
      "resolve_after_deadline",
      "settle_case",
      "trigger_default",
    ]);
    const keeper = t.devnet.accounts[18];
    const { stdout } = await run("npx", ["tsx", "examples/keeper.ts", "--once"], {
      env: { ...process.env, PRIVATE_KEY: keeper?.privateKey, DOCKET_URL: t.url, RPC_URL: t.devnet.rpcUrl },
    });
    const done = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(done.map((d) => `${d.case ?? `job ${d.job}`}:${d.operation}:${d.status}`).sort()).toEqual(
      [
        ...before.map((s) => `${s.case}:${s.operation}:success`),
        ...jobs.map((j) => `job ${j.job}:${j.operation}:success`),
      ].sort(),
    );
    // The keeper view answers from the index, which holds the sweep within a follower poll.
    await t.indexed();
    const after = (await t.get("/keeper/actions")).body;
    expect(after.actions).toEqual([]);
    expect(after.jobs).toEqual([]);
    // The finalized job paid its provider.
    expect((await t.get(`/jobs/${jobs[0]?.job}`)).body.job.state).toBe("Completed");
    const summoned = t.devnet.seed?.cases.find((c) => c.label === "summoned")?.address as string;
    expect((await t.get(`/cases/${summoned}`)).body.case.state).toBe("Defaulted");
  });
});
