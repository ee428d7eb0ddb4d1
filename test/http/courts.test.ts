import { type Address, type Hex, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import { caseFactoryAbi, courtRegistryAbi } from "../../src/chain/abi/generated.js";
import { forSuite, TestDocket } from "../support/index.js";

/**
 * Courts over docket's HTTP API on the dev world `npm start` runs: the General court (public votes)
 * and Agentic Commerce below it (hidden votes). Every write is an unsigned transaction a dev wallet
 * signs and broadcasts; every effect is read back through the API.
 */
describe("courts over HTTP, signed by test wallets", () => {
  let t: TestDocket;
  const AGENTIC = 2;

  const readCase = async (c: string) => (await t.get(`/cases/${c}`)).body.case;

  const filing = (plaintiff: number, defendant: number) => ({
    plaintiff: t.address(plaintiff),
    defendant: t.address(defendant),
    claimDescription: `An agent bought compute and got none (${Math.random()})`,
    evidenceIpfsHash: "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
  });

  /** Files through POST /cases in `court`: the 402, the fee paid as it says, the filing signed. */
  async function fileOverHttp(plaintiff: number, defendant: number, court?: number): Promise<Address> {
    const body = { ...filing(plaintiff, defendant), ...(court === undefined ? {} : { court }) };
    const first = await t.post("/cases", body);
    expect(first.status, JSON.stringify(first.body)).toBe(402);
    const paid = await t.actor(plaintiff).send(first.body.accepts[0].extra.unsigned_tx);
    const receipt = await t.write("/cases", { ...body, payment_tx_hash: paid.transactionHash }, plaintiff);
    const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
    if (!filed) throw new Error("no CaseFiled");
    return filed.args.caseAddr;
  }

  /** A case answered by its defendant and given a panel through the API: Deliberating. */
  async function seat(c: Address, defendant: number): Promise<string[]> {
    await t.write(`/cases/${c}/respond`, { from: t.address(defendant) }, defendant);
    await t.write(`/cases/${c}/assign-judges-random`, { from: t.address(0) }, 0);
    const v = await readCase(c);
    expect(v.state).toBe("Deliberating");
    return v.judges;
  }

  forSuite(async () => (t = await TestDocket.shared({ EVENT_POLL_MS: "200" })));

  it("GET /courts lists the General court (root, public votes) and Agentic Commerce (below it, hidden votes), with readable policies", async () => {
    const r = await t.get("/courts");
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(2);
    const [general, agentic] = r.body.courts;
    expect(general).toMatchObject({
      id: 1,
      name: "General",
      parent: null,
      depth: 0,
      children: [{ id: AGENTIC, name: "Agentic Commerce" }],
      parameters: { hiddenVotes: false, panelSize: 3, appealPanelSize: 5 },
    });
    expect(agentic).toMatchObject({
      id: AGENTIC,
      name: "Agentic Commerce",
      parent: { id: 1, name: "General" },
      depth: 1,
      children: [],
      parameters: { hiddenVotes: true },
    });
    for (const c of [general, agentic]) {
      for (const k of ["minJudgeStake", "minPartyStake", "appealBond"]) expect(c.parameters[k]).toMatch(/^\d+$/);
      expect(c.totalStake).toMatch(/^\d+$/);
      expect(c.policy.cid).toMatch(/^b[a-z2-7]{20,}$/);
      expect(c.policy.uri).toBe(`ipfs://${c.policy.cid}`);
      expect(c.policy.text).toContain(c.name);
      expect(c.judges).toBeGreaterThanOrEqual(3);
    }
    expect(BigInt(agentic.parameters.minJudgeStake)).toBeGreaterThan(BigInt(general.parameters.minJudgeStake));
    // A stake counts up the tree: the General pool holds the child court's too.
    expect(BigInt(general.totalStake)).toBeGreaterThan(BigInt(agentic.totalStake));
    expect(general.judges).toBeGreaterThan(agentic.judges);
  });

  it("GET /courts/{id} answers one court; an unknown id is 404 COURT_NOT_FOUND, a malformed one refused", async () => {
    const one = await t.get(`/courts/${AGENTIC}`);
    expect(one.status).toBe(200);
    expect(one.body.court).toEqual((await t.get("/courts")).body.courts[1]);
    const missing = await t.get("/courts/64");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "COURT_NOT_FOUND", details: { court: 64 } });
    // Past the 64 courts a tree can hold: still no court by that id, as an unknown case is none.
    for (const id of [65, 99, 4294967296]) {
      const r = await t.get(`/courts/${id}`);
      expect(r.status, String(id)).toBe(404);
      expect(r.body.error).toMatchObject({ code: "COURT_NOT_FOUND", details: { court: id } });
    }
    expect((await t.get("/courts/general")).status).toBe(422);
    expect((await t.get("/courts/0")).status).toBe(422);
  });

  it("a stake made straight on chain (not through docket) shows in the cached court reads within a poll", async () => {
    const judge = 18;
    const court = async () => (await t.get(`/courts/${AGENTIC}`)).body.court;
    const before = await court();
    // No docket write has touched the court reads yet: this answer is cached.
    expect((await t.get(`/courts/${AGENTIC}`)).headers.get("x-cache")).toBe("HIT");
    await t.actor(judge).write({
      address: t.chain.registry,
      abi: courtRegistryAbi,
      functionName: "stakeAsJudge",
      args: [BigInt(AGENTIC)],
      value: BigInt(before.parameters.minJudgeStake),
    });
    // The follower (one poll every 200 ms here) hears JudgeStaked and drops the court reads.
    const deadline = Date.now() + 5_000;
    let after = await court();
    while (after.judges === before.judges && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      after = await court();
    }
    expect(after.judges).toBe(before.judges + 1);
    expect((await t.get(`/judges/stake/${t.address(judge)}`)).body.courts).toEqual([
      { id: AGENTIC, name: "Agentic Commerce", staked: before.parameters.minJudgeStake, eligible: true },
    ]);
  });

  it("a case filed in Agentic Commerce shows its court after the interface's 18 fields, and its votes are hidden", async () => {
    const c = await fileOverHttp(15, 19, AGENTIC);
    const v = await readCase(c);
    expect(Object.keys(v).indexOf("court")).toBe(18);
    expect(v).toMatchObject({ state: "Summoned", court: { id: AGENTIC, name: "Agentic Commerce" }, hiddenVotes: true });
    // The defendant's inbox names the court of the case it must answer (the inbox answers from the
    // index, which holds the filing within a follower poll).
    await t.indexed();
    const inbox = (await t.get(`/agent/${t.address(19)}/inbox`)).body;
    expect(inbox.cases.find((x: { case: string }) => x.case === c)).toMatchObject({
      court: { id: AGENTIC, name: "Agentic Commerce" },
      state: "Summoned",
    });
    // The judges' view of cases being decided and the keeper's steps name theirs too.
    const pending = (await t.get("/validate/pending")).body.cases as { court: { id: number } }[];
    expect(new Set(pending.map((x) => x.court.id))).toEqual(new Set([1, AGENTIC]));
    const keeper = (await t.get(`/keeper/actions?court=${AGENTIC}`)).body;
    expect(keeper.actions.every((x: { court: { id: number } }) => x.court.id === AGENTIC)).toBe(true);
    const general = await readCase(await fileOverHttp(15, 19));
    expect(general).toMatchObject({ court: { id: 1, name: "General" }, hiddenVotes: false });
    // The filing's stake minimum is the court's own.
    const below = await t.post("/cases", { ...filing(15, 19), court: AGENTIC, stake: "1" });
    expect(below.status).toBe(422);
    expect(below.body.error).toMatchObject({ code: "STAKE_BELOW_MINIMUM", details: { court: { id: AGENTIC } } });
    const nowhere = await t.post("/cases", { ...filing(15, 19), court: 42 });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.error.code).toBe("COURT_NOT_FOUND");
  });

  it("stake_as_judge into a court, signed: the judge's stake per court, the court's pool and the General pool above it show it", async () => {
    const judge = t.address(16);
    const before = (await t.get("/courts")).body.courts;
    const min = BigInt(before[1].parameters.minJudgeStake);
    const low = await t.post("/judges/stake", { address: judge, amount: (min / 2n).toString(), court: AGENTIC });
    expect(low.status).toBe(422);
    expect(low.body.error).toMatchObject({
      code: "STAKE_BELOW_MINIMUM",
      details: { court: { id: AGENTIC, name: "Agentic Commerce" }, minimum: min.toString() },
    });

    await t.write("/judges/stake", { address: judge, amount: min.toString(), court: AGENTIC }, 16);

    const stake = (await t.get(`/judges/stake/${judge}`)).body;
    expect(stake).toMatchObject({
      staked: min.toString(),
      eligible: true,
      courts: [{ id: AGENTIC, name: "Agentic Commerce", staked: min.toString(), eligible: true }],
    });
    const after = (await t.get("/courts")).body.courts;
    expect(after[1].judges).toBe(before[1].judges + 1);
    expect(BigInt(after[1].totalStake) - BigInt(before[1].totalStake)).toBe(min);
    // Eligible in the General court too: a stake counts in every court above its own.
    expect(after[0].judges).toBe(before[0].judges + 1);
    expect(BigInt(after[0].totalStake) - BigInt(before[0].totalStake)).toBe(min);

    const pool = (await t.get(`/judges/pool?court=${AGENTIC}`)).body;
    expect(pool).toMatchObject({ court: { id: AGENTIC, name: "Agentic Commerce" }, minimumStake: min.toString() });
    expect(pool.judges.find((j: { address: string }) => j.address === judge)).toMatchObject({
      stakeInCourt: min.toString(),
      eligibleInCourt: true,
    });
    expect(pool.totalStake).toBe(after[1].totalStake);
    const general = (await t.get("/judges/pool?limit=100")).body;
    expect(general.judges.find((j: { address: string }) => j.address === judge)).toMatchObject({
      eligibleInCourt: true,
    });
    // Paged as /cases pages: pages of 2 put together are the whole list, each with the same total.
    for (const court of [1, AGENTIC]) {
      const whole = (await t.get(`/judges/pool?court=${court}&limit=100`)).body;
      expect(whole.total).toBe(whole.judges.length);
      expect(whole.total).toBeGreaterThan(2);
      const pages = [];
      for (let offset = 0; offset < whole.total; offset += 2) {
        const page = (await t.get(`/judges/pool?court=${court}&offset=${offset}&limit=2`)).body;
        expect([page.total, page.offset, page.limit, page.eligible, page.totalStake]).toEqual([
          whole.total,
          offset,
          2,
          whole.eligible,
          whole.totalStake,
        ]);
        pages.push(...page.judges);
      }
      expect(pages).toEqual(whole.judges);
      expect((await t.get(`/judges/pool?court=${court}&offset=${whole.total}`)).body.judges).toEqual([]);
    }
    expect((await t.get("/judges/pool?limit=101")).status).toBe(422);
    expect((await t.get(`/validate/stats/${judge}`)).body.courts).toEqual([
      { id: AGENTIC, name: "Agentic Commerce", staked: `${Number(min) / 1e18} ETH` },
    ]);
    const overview = (await t.get("/stats/overview")).body;
    expect(overview.courts[1]).toMatchObject({
      id: AGENTIC,
      parent: 1,
      hiddenVotes: true,
      totalStaked: after[1].totalStake,
    });
  });

  it("the interface's vote, verbatim, on the General court: one body field, one transaction, counted at once", async () => {
    const c = await fileOverHttp(3, 4);
    const judges = await seat(c, 4);
    for (const [i, judge] of judges.slice(0, 2).entries()) {
      const res = await fetch(`${t.url}/cases/${c}/vote`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ plaintiff_wins: true }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        unsigned_tx: { to: Address; value: string; data: Hex };
        instructions: string;
      };
      expect(Object.keys(body).sort()).toEqual(["instructions", "unsigned_tx"]);
      expect(body.unsigned_tx).toMatchObject({ to: c, value: "0", chainId: 31337 });
      const receipt = await t.actor(t.indexOf(judge)).send(body.unsigned_tx);
      expect(receipt.status).toBe("success");
      expect(await readCase(c)).toMatchObject({ votesForPlaintiff: i + 1, votesForDefendant: 0 });
    }
    // Two of three decide the case at once.
    expect(await readCase(c)).toMatchObject({ state: "Resolved", outcome: "PlaintiffWon", court: { id: 1 } });
  });

  it("on Agentic Commerce the vote needs `from`, and the error names the court's rule", async () => {
    const c = await fileOverHttp(5, 6, AGENTIC);
    const judges = await seat(c, 6);
    const r = await t.post(`/cases/${c}/vote`, { plaintiff_wins: true });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      code: "MISSING_FIELD",
      details: { field: "from", court: { id: AGENTIC, name: "Agentic Commerce" }, hiddenVotes: true },
    });
    expect(r.body.error.message).toContain("`Agentic Commerce` hides votes");
    // With `from`, the commit of a hidden vote, as before.
    const judge = judges[0] as string;
    const commit = await t.post(`/cases/${c}/vote`, { plaintiff_wins: true, from: judge });
    expect(commit.status).toBe(200);
    await t.actor(t.indexOf(judge)).send(commit.body.unsigned_tx);
    expect(await readCase(c)).toMatchObject({ votesCommitted: 1, votesForPlaintiff: 0, votingPhase: "commit" });
    expect(commit.body.reveal.salt as Hex).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
