import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { voteCommitment } from "../../src/chain/votes.js";
import { AGENTIC_COMMERCE_COURT } from "../../src/deploy/terms.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { TestDocket } from "../support/index.js";

/**
 * Hidden votes (commit-reveal), on the dev world's Agentic Commerce court, driven only through docket's HTTP
 * API: commit, reveal, a verdict, an appeal decided the same way, and a panel whose judges never
 * reveal. Every write is an unsigned transaction a test wallet signs and broadcasts; every effect
 * is read back through the API.
 */
describe("hidden votes over HTTP, signed by test wallets", () => {
  let t: TestDocket;
  const PLAINTIFF = 15;
  const DEFENDANT = 19;
  let caseAddr: Address;
  /** What each judge of the current round must keep to reveal. */
  const kits = new Map<string, { plaintiff_wins: boolean; salt: Hex }>();

  const readCase = async (c: Address = caseAddr) => (await t.get(`/cases/${c}`)).body.case;

  /** Files on chain, answers, and draws the panel through the API: a case in its commit phase. */
  async function openCase(): Promise<Address> {
    const c = (await t.fileOnChain(PLAINTIFF, DEFENDANT, undefined, AGENTIC_COMMERCE_COURT)) as Address;
    await t.write(`/cases/${c}/respond`, { from: t.address(DEFENDANT) }, DEFENDANT);
    await t.write(`/cases/${c}/assign-judges-random`, { from: t.address(0) }, 0);
    return c;
  }

  /** Every judge of the current round commits `votes[i]` through POST /vote and keeps its kit. */
  async function commitAll(c: Address, votes: boolean[]): Promise<void> {
    kits.clear();
    const { judges } = await readCase(c);
    for (const [i, judge] of (judges as string[]).entries()) {
      const r = await t.post(`/cases/${c}/vote`, { plaintiff_wins: votes[i], from: judge });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      kits.set(judge, { plaintiff_wins: r.body.reveal.plaintiff_wins, salt: r.body.reveal.salt });
      await t.actor(t.indexOf(judge)).send(r.body.unsigned_tx);
    }
  }

  async function reveal(c: Address, judge: string, justification?: string): Promise<void> {
    const kit = kits.get(judge);
    if (!kit) throw new Error(`no kit for ${judge}`);
    await t.write(`/cases/${c}/reveal`, { ...kit, justification, from: judge }, t.indexOf(judge));
  }

  beforeAll(async () => {
    t = await TestDocket.shared();
    caseAddr = await openCase();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a drawn panel starts in the commit phase, with deadlines in chain time", async () => {
    const c = await readCase();
    expect(c).toMatchObject({ state: "Deliberating", hiddenVotes: true, votingPhase: "commit", votesCommitted: 0 });
    expect(c.judges).toHaveLength(3);
    expect(c.revealDeadline - c.commitDeadline).toBe(300);
    expect(c.votes.map((v: { vote: null }) => v.vote)).toEqual([null, null, null]);
  });

  it("vote_on_case needs `from` on a hidden court (400), and refuses a non-judge through the simulation", async () => {
    const missing = await t.post(`/cases/${caseAddr}/vote`, { plaintiff_wins: true });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: "MISSING_FIELD", details: { field: "from" } });
    const stranger = await t.post(`/cases/${caseAddr}/vote`, { plaintiff_wins: true, from: t.address(PLAINTIFF) });
    expect(stranger.status).toBe(500);
    expect(stranger.body.error).toMatchObject({ code: "CONTRACT_REVERT", details: { reason: "NotAssignedJudge" } });
  });

  it("a commit hides the vote: counts stay 0, the case shows how many committed; a given salt is used as given", async () => {
    const { judges } = await readCase();
    const judge = judges[0] as Address;
    const salt = `0x${"5a".repeat(32)}` as Hex;
    const r = await t.post(`/cases/${caseAddr}/vote`, { plaintiff_wins: true, salt, from: judge });
    expect(r.status).toBe(200);
    expect(r.body.reveal).toMatchObject({ plaintiff_wins: true, salt, round: 1 });
    expect(r.body.reveal.commitment).toBe(
      voteCommitment({ caseAddress: caseAddr, judge, round: 1, plaintiffWins: true, salt }),
    );
    kits.set(judge, { plaintiff_wins: true, salt });
    await t.actor(t.indexOf(judge)).send(r.body.unsigned_tx);
    const c = await readCase();
    expect(c).toMatchObject({ votesCommitted: 1, votesForPlaintiff: 0, votesForDefendant: 0, votingPhase: "commit" });
    expect(c.votes[0]).toMatchObject({ judge, vote: "committed" });
    // Too early to reveal: the other judges have not committed and the commit deadline is ahead.
    const early = await t.post(`/cases/${caseAddr}/reveal`, { ...kits.get(judge), from: judge });
    expect(early.body.error).toMatchObject({ code: "CONTRACT_REVERT", details: { reason: "RevealPhaseNotOpen" } });
  });

  it("once every judge committed the reveal phase opens; a wrong salt is refused; the verdict waits for every reveal", async () => {
    const { judges } = await readCase();
    for (const [i, judge] of (judges as string[]).entries()) {
      if (i === 0) continue;
      const r = await t.post(`/cases/${caseAddr}/vote`, { plaintiff_wins: i === 1, from: judge });
      kits.set(judge, { plaintiff_wins: r.body.reveal.plaintiff_wins, salt: r.body.reveal.salt });
      await t.actor(t.indexOf(judge)).send(r.body.unsigned_tx);
    }
    expect(await readCase()).toMatchObject({ votesCommitted: 3, votingPhase: "reveal" });
    const [j0, j1, j2] = judges as string[];
    const wrong = await t.post(`/cases/${caseAddr}/reveal`, {
      plaintiff_wins: false,
      salt: kits.get(j0 as string)?.salt,
      from: j0,
    });
    expect(wrong.body.error).toMatchObject({ code: "CONTRACT_REVERT", details: { reason: "CommitmentMismatch" } });
    const tooLong = await t.post(`/cases/${caseAddr}/reveal`, {
      ...kits.get(j0 as string),
      justification: "x".repeat(513),
    });
    expect(tooLong.status).toBe(422);

    await reveal(caseAddr, j0 as string, "The delivery logs show nothing arrived.");
    expect(await readCase()).toMatchObject({ state: "Deliberating", votesForPlaintiff: 1, votesCommitted: 3 });
    await reveal(caseAddr, j1 as string, "Agreed: no delivery.");
    // Two of three agree, but a committed vote is still hidden: nothing is decided before it is in,
    // so a judge cannot watch the majority form and keep a minority vote to itself.
    expect(await readCase()).toMatchObject({ state: "Deliberating", votesForPlaintiff: 2, votingPhase: "reveal" });
    await reveal(caseAddr, j2 as string, "The receipt is signed.");
    const done = await readCase();
    expect(done).toMatchObject({
      state: "Resolved",
      outcome: "PlaintiffWon",
      votesForPlaintiff: 2,
      votesForDefendant: 1,
      votingPhase: null,
    });
    expect(done.votes).toEqual([
      { judge: j0, vote: "plaintiff", justification: "The delivery logs show nothing arrived." },
      { judge: j1, vote: "plaintiff", justification: "Agreed: no delivery." },
      { judge: j2, vote: "defendant", justification: "The receipt is signed." },
    ]);
  });

  it("appeal under hidden votes: five fresh judges commit and reveal; the verdict is final", async () => {
    const round1 = (await readCase()).judges as string[];
    // Five fresh judges must be free: the seed's random draws may have left too few of its eight
    // eligible (a seeded no-show is slashed below the minimum), so two more stake first.
    for (const i of [16, 17]) {
      await t.write("/judges/stake", { address: t.address(i), amount: "100000000000000000" }, i);
    }
    await t.write(`/cases/${caseAddr}/appeal`, { from: t.address(DEFENDANT) }, DEFENDANT);
    await t.write(`/cases/${caseAddr}/assign-judges-random`, { from: t.address(0) }, 0);
    const c = await readCase();
    expect(c).toMatchObject({ state: "Deliberating", votingPhase: "commit", votesCommitted: 0 });
    expect(c.judges).toHaveLength(5);
    for (const j of c.judges) expect(round1).not.toContain(j);
    await commitAll(caseAddr, [false, false, false, true, true]);
    expect((await readCase()).votingPhase).toBe("reveal");
    for (const j of (c.judges as string[]).slice(0, 3)) await reveal(caseAddr, j);
    // Three of five agree but two commitments stay hidden: the reveal deadline decides, and the
    // silent judges are no-shows.
    expect(await readCase()).toMatchObject({ state: "Deliberating", votesForDefendant: 3 });
    const silent = (c.judges as string[]).slice(3);
    const stakeOf = async (j: string) => BigInt((await t.get(`/judges/stake/${j}`)).body.staked);
    const before = await Promise.all(silent.map(stakeOf));
    await advanceTime(t.chain.reader, 601);
    await t.write(`/cases/${caseAddr}/resolve-timeout`, { from: t.address(0) }, 0);
    const final = await readCase();
    expect(final).toMatchObject({
      state: "Resolved",
      outcome: "DefendantWon",
      appealWindowOpen: false,
      votesForDefendant: 3,
    });
    expect(final.verdictReason).toMatch(/appeal/i);
    const after = await Promise.all(silent.map(stakeOf));
    for (const [i, b] of before.entries()) expect(after[i]).toBe(b - b / 10n);
  });

  it("judges who never reveal are no-shows: the case is dismissed after the reveal deadline and they are slashed", async () => {
    const c = await openCase();
    await commitAll(c, [true, false, true]);
    const { judges } = await readCase(c);
    const [revealer, ...silent] = judges as string[];
    await reveal(c, revealer as string);
    const stakeOf = async (j: string) => BigInt((await t.get(`/judges/stake/${j}`)).body.staked);
    const before = await Promise.all(silent.map(stakeOf));
    const revealerBefore = await stakeOf(revealer as string);
    const early = await t.post(`/cases/${c}/resolve-timeout`, { from: t.address(0) });
    expect(early.body.error).toMatchObject({ code: "CONTRACT_REVERT", details: { reason: "DeadlineNotReached" } });
    // The reveal deadline is at most commit (300 s) + reveal (300 s) after the panel was seated.
    await advanceTime(t.chain.reader, 601);
    await t.write(`/cases/${c}/resolve-timeout`, { from: t.address(0) }, 0);
    expect(await readCase(c)).toMatchObject({ state: "Dismissed", outcome: "Dismissed", votesForPlaintiff: 1 });
    const after = await Promise.all(silent.map(stakeOf));
    for (const [i, b] of before.entries()) expect(after[i]).toBe(b - b / 10n); // slashBps 1000 on the dev chain
    // The judge who revealed is released unscored: no majority formed to agree with.
    expect(await stakeOf(revealer as string)).toBe(revealerBefore);
  });
});
