import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { advanceTime } from "../../src/devnet/seed.js";
import { rawCid } from "../../src/evidence/cid.js";
import { forSuite, TestDocket } from "../support/index.js";

/**
 * A whole case driven only through docket's HTTP API: every write is an unsigned transaction that
 * a test wallet signs and broadcasts, and every effect is read back through the API.
 */
describe("case lifecycle over HTTP, signed by test wallets", () => {
  let t: TestDocket;
  const PLAINTIFF = 15;
  const DEFENDANT = 19;
  const NEW_JUDGES = [16, 17, 18];
  let caseAddr: Address;

  const readCase = async () => {
    const r = await t.get(`/cases/${caseAddr}`);
    expect(r.status).toBe(200);
    return r.body.case;
  };

  forSuite(async () => (t = await TestDocket.shared()));

  it("registers an agent, and discovery and the agent record show it", async () => {
    const before = await t.get("/agent/discover?limit=100");
    const who = t.address(PLAINTIFF);
    expect((await t.get(`/agent/${who}`)).status).toBe(404);
    await t.write(
      "/agent/self-register",
      { address: who, name: "plaintiff-bot", metadataURI: "https://x.example/p.json" },
      PLAINTIFF,
    );
    const agent = await t.get(`/agent/${who}`);
    expect(agent.status).toBe(200);
    expect(agent.body.agent).toMatchObject({
      address: who,
      name: "plaintiff-bot",
      metadataURI: "https://x.example/p.json",
    });
    expect(agent.body.agent.agentId).toBe(before.body.total + 1);
    const after = await t.get("/agent/discover?limit=100");
    expect(after.body.total).toBe(before.body.total + 1);
    expect(after.body.agents.map((a: { address: string }) => a.address)).toContain(who);
  });

  it("stakes three new judges; the pool and their stakes show them eligible", async () => {
    const min = (await t.get("/judges/pool")).body.minimumStake as string;
    for (const j of NEW_JUDGES) {
      await t.write("/judges/stake", { address: t.address(j), amount: min }, j);
      const stake = await t.get(`/judges/stake/${t.address(j)}`);
      // canUnstake waits for the seeded world's waiting draws (issue #31): see the unstake test.
      expect(stake.body).toMatchObject({ staked: min, eligible: true, activeCases: 0 });
    }
    const pool = await t.get("/judges/pool");
    const addrs = pool.body.judges.map((j: { address: string }) => j.address);
    for (const j of NEW_JUDGES) expect(addrs).toContain(t.address(j));
  });

  it("files (on chain), the defendant responds, judges are drawn: Deliberating with 3 judges", async () => {
    caseAddr = await t.fileOnChain(PLAINTIFF, DEFENDANT, "Delivered model weights were not the agreed checkpoint.");
    expect(await readCase()).toMatchObject({ state: "Summoned", stateIndex: 1, plaintiff: t.address(PLAINTIFF) });
    await t.write(`/cases/${caseAddr}/respond`, { from: t.address(DEFENDANT) }, DEFENDANT);
    const active = await readCase();
    expect(active.state).toBe("Active");
    expect(BigInt(active.defendantStake)).toBeGreaterThan(0n);
    await t.write(
      `/cases/${caseAddr}/evidence`,
      { evidenceIpfsHash: rawCid("defence-1").toString(), from: t.address(DEFENDANT) },
      DEFENDANT,
    );
    const ev = await t.get(`/cases/${caseAddr}/evidence`);
    expect(ev.body.evidence).toEqual([
      expect.objectContaining({ filing: true, role: "plaintiff" }),
      expect.objectContaining({
        reference: rawCid("defence-1").toString(),
        submitter: t.address(DEFENDANT),
        role: "defendant",
      }),
    ]);
    await t.write(`/cases/${caseAddr}/assign-judges-random`, { seed: "42", from: t.address(0) }, 0);
    const c = await readCase();
    expect(c).toMatchObject({ state: "Deliberating", stateIndex: 3, votesForPlaintiff: 0, votesForDefendant: 0 });
    expect(c.judges).toHaveLength(3);
    expect(c.judges).not.toContain(t.address(PLAINTIFF));
    expect(c.judges).not.toContain(t.address(DEFENDANT));
    await t.indexed();
    const pending = await t.get("/validate/pending");
    expect(pending.body.cases.map((p: { address: string }) => p.address)).toContain(caseAddr);
  });

  it("refuses a non-judge's vote with CONTRACT_REVERT and the contract's reason", async () => {
    const r = await t.post(`/cases/${caseAddr}/vote`, { plaintiff_wins: true, from: t.address(DEFENDANT) });
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe("CONTRACT_REVERT");
    expect(r.body.error.details.reason).toBe("NotAssignedJudge");
  });

  it("two judges vote for the plaintiff: Resolved, PlaintiffWon, appeal window open", async () => {
    const { judges } = await readCase();
    await t.write(`/cases/${caseAddr}/vote`, { plaintiff_wins: true, from: judges[0] }, t.indexOf(judges[0]));
    const mid = await readCase();
    expect(mid).toMatchObject({ state: "Deliberating", votesForPlaintiff: 1, resolvedAt: null, outcome: null });
    const twice = await t.post(`/cases/${caseAddr}/vote`, { plaintiff_wins: false, from: judges[0] });
    expect(twice.body.error).toMatchObject({ code: "CONTRACT_REVERT", details: { reason: "AlreadyVoted" } });
    await t.write(`/cases/${caseAddr}/vote`, { plaintiff_wins: true, from: judges[1] }, t.indexOf(judges[1]));
    const done = await readCase();
    expect(done).toMatchObject({ state: "Resolved", stateIndex: 4, outcome: "PlaintiffWon", appealWindowOpen: true });
    expect(done.votesForPlaintiff).toBe(2);
    expect(typeof done.resolvedAt).toBe("number");
    expect(done.verdictReason).toMatch(/plaintiff/);
    await t.indexed();
    const pending = await t.get("/validate/pending");
    expect(pending.body.cases.map((p: { address: string }) => p.address)).not.toContain(caseAddr);
  });

  it("the defendant appeals with the bond; five fresh judges decide for the defendant, finally", async () => {
    const round1 = (await readCase()).judges as string[];
    await t.write(`/cases/${caseAddr}/appeal`, { from: t.address(DEFENDANT) }, DEFENDANT);
    const appealed = await readCase();
    expect(appealed).toMatchObject({
      state: "Appealed",
      appealUsed: true,
      outcome: null,
      resolvedAt: null,
      appealWindowOpen: false,
    });
    await t.write(`/cases/${caseAddr}/assign-judges-random`, { from: t.address(0) }, 0);
    const c = await readCase();
    expect(c.state).toBe("Deliberating");
    expect(c.judges).toHaveLength(5);
    for (const j of c.judges) expect(round1).not.toContain(j);
    for (const j of c.judges.slice(0, 3)) {
      await t.write(`/cases/${caseAddr}/vote`, { plaintiff_wins: false, from: j }, t.indexOf(j));
    }
    const final = await readCase();
    expect(final).toMatchObject({
      state: "Resolved",
      outcome: "DefendantWon",
      appealWindowOpen: false,
      appealUsed: true,
    });
    expect(final.verdictReason).toMatch(/appeal/i);
    const stats = await t.get(`/validate/stats/${c.judges[0]}`);
    expect(stats.body.casesWon).toBeGreaterThanOrEqual(1);
    expect(stats.body.rewards).toMatch(/^[0-9.]+ ETH$/);
    expect(stats.body.rewards).not.toBe("0 ETH");
    const defendant = await t.get(`/agent/${t.address(PLAINTIFF)}`);
    expect(defendant.body.agent.casesLost).toBe(1);
  });

  it("a judge serving on an open case cannot unstake; one with none can", async () => {
    await t.indexed();
    const pending = await t.get("/validate/pending");
    const serving = pending.body.cases[0].judges[0] as Address;
    const refused = await t.post("/judges/unstake", { address: serving });
    expect(refused.status).toBe(500);
    expect(refused.body.error.details.reason).toBe("JudgeServingOnOpenCase");
    const free = NEW_JUDGES.map((j) => t.address(j));
    // Issue #31: a draw waiting in the General court holds every judge of its pool; the seeded
    // world has such cases, so a judge who wants to leave executes their draws first, as the keeper
    // view lists them (a draw armed over 256 blocks ago re-arms first, so it may take two rounds).
    const held = await t.get(`/judges/stake/${free[0]}`);
    if (!held.body.canUnstake) {
      const blocked = await t.post("/judges/unstake", { address: free[0] });
      expect(blocked.body.error.details.reason).toBe("DrawPendingInCourt");
    }
    await t.runWaitingDraws(1, 0);
    // The draws just run may have seated the new judges: any judge of the pool with no case will do.
    const pool = (await t.get("/judges/pool?limit=100")).body.judges.map((j: { address: string }) => j.address);
    for (const addr of [...free, ...pool]) {
      const s = await t.get(`/judges/stake/${addr}`);
      if (!s.body.canUnstake) continue;
      await t.write("/judges/unstake", { address: addr }, t.indexOf(addr));
      expect((await t.get(`/judges/stake/${addr}`)).body).toMatchObject({ staked: "0", eligible: false });
      return;
    }
    throw new Error("no judge was free to unstake");
  });

  it("default: a summons left unanswered past the deadline is Defaulted for the plaintiff", async () => {
    const c = await t.fileOnChain(PLAINTIFF, 14);
    const early = await t.post(`/cases/${c}/trigger-default`, { from: t.address(0) });
    expect(early.body.error).toMatchObject({ code: "CONTRACT_REVERT", details: { reason: "ResponseWindowStillOpen" } });
    await advanceTime(t.chain.reader, 301);
    await t.write(`/cases/${c}/trigger-default`, { from: t.address(0) }, 0);
    const r = await t.get(`/cases/${c}`);
    expect(r.body.case).toMatchObject({ state: "Defaulted", stateIndex: 6, outcome: "PlaintiffWon" });
  });

  it("timeout: a panel that does not decide in time is Dismissed and stakes refunded", async () => {
    const c = await t.fileOnChain(PLAINTIFF, DEFENDANT);
    await t.write(`/cases/${c}/respond`, { stake: "20000000000000000" }, DEFENDANT);
    await t.write(`/cases/${c}/assign-judges-random`, {}, 0);
    await advanceTime(t.chain.reader, 601);
    const before = await t.chain.reader.getBalance({ address: t.address(DEFENDANT) });
    await t.write(`/cases/${c}/resolve-timeout`, { from: t.address(0) }, 0);
    const r = await t.get(`/cases/${c}`);
    expect(r.body.case).toMatchObject({ state: "Dismissed", stateIndex: 5, outcome: "Dismissed" });
    const after = await t.chain.reader.getBalance({ address: t.address(DEFENDANT) });
    expect(after - before).toBe(20000000000000000n);
  });
});
