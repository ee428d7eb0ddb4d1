import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disputeCaseAbi } from "../../src/chain/abi/generated.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { TestDocket } from "../support/index.js";

/**
 * The inbox (GET /agent/{address}/inbox) and the keeper view (GET /keeper/actions) on the dev
 * world's seeded courts (the General court's public votes, Agentic Commerce's hidden ones): what each party, judge and a stranger may or must do in every
 * seeded state, then actions taken as the inbox lists them (its route, signed by a test wallet,
 * broadcast) and their effect read back through the inbox.
 */
describe("inbox and keeper view over HTTP", () => {
  let t: TestDocket;
  // biome-ignore lint/suspicious/noExplicitAny: cases are checked field by field
  const cases = new Map<string, any>();
  const STRANGER = 18;

  const inbox = async (who: string, q = "") => {
    const r = await t.get(`/agent/${who}/inbox${q}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  /** The inbox entry of one case, or undefined when the case is not in the address's inbox. */
  const entry = async (who: string, caseAddr: string) =>
    // biome-ignore lint/suspicious/noExplicitAny: entries are checked field by field
    (await inbox(who)).cases.find((c: any) => c.case === caseAddr);
  // biome-ignore lint/suspicious/noExplicitAny: actions are checked field by field
  const ops = (e: any) => (e?.actions ?? []).map((a: any) => `${a.as}:${a.operation}${a.required ? "!" : ""}`);
  /** A deadline read straight from the case contract (the case view shows only some). */
  const deadline = async (caseAddr: string, name: "responseDeadline" | "appealDeadline") =>
    Number(
      await t.chain.reader.readContract({
        address: caseAddr as `0x${string}`,
        abi: disputeCaseAbi,
        functionName: name,
      }),
    );

  beforeAll(async () => {
    t = await TestDocket.shared();
    for (const c of t.devnet.seed?.cases ?? []) cases.set(c.label, (await t.get(`/cases/${c.address}`)).body.case);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a summoned case: the defendant must respond before the response deadline; the plaintiff waits", async () => {
    const c = cases.get("summoned");
    const d = await entry(c.defendant, c.address);
    expect(d).toMatchObject({ state: "Summoned", roles: ["defendant"], waitingFor: null });
    expect(ops(d)).toEqual(["defendant:respond_to_case!"]);
    const due = await deadline(c.address, "responseDeadline");
    expect(d.actions[0]).toMatchObject({ http: `POST /cases/${c.address}/respond`, deadline: due });
    const p = await entry(c.plaintiff, c.address);
    expect(p).toMatchObject({ roles: ["plaintiff"], actions: [] });
    expect(p.waitingFor).toContain("response");
    expect(p.nextChangeAt).toBe(due);
  });

  it("the commit phase: judges who have not committed must commit; the one who did waits; parties may add evidence", async () => {
    const c = cases.get("deliberating, commit phase, one vote committed");
    // biome-ignore lint/suspicious/noExplicitAny: votes are checked field by field
    const committed = c.votes.filter((v: any) => v.vote === "committed").map((v: any) => v.judge);
    expect(committed).toHaveLength(1);
    for (const judge of c.judges as string[]) {
      const e = await entry(judge, c.address);
      expect(e.roles).toEqual(["judge"]);
      if (committed.includes(judge)) {
        expect(ops(e)).toEqual([]);
        expect(e.waitingFor).toContain("commitments");
      } else {
        expect(ops(e)).toEqual(["judge:vote_on_case!"]);
        expect(e.actions[0]).toMatchObject({ http: `POST /cases/${c.address}/vote`, deadline: c.commitDeadline });
      }
    }
    expect(ops(await entry(c.plaintiff, c.address))).toEqual(["plaintiff:submit_evidence"]);
    expect(ops(await entry(c.defendant, c.address))).toEqual(["defendant:submit_evidence"]);
  });

  it("the reveal phase: committed judges must reveal before the reveal deadline; the one who revealed waits", async () => {
    const c = cases.get("deliberating, reveal phase, one vote revealed");
    for (const v of c.votes as { judge: string; vote: string }[]) {
      const e = await entry(v.judge, c.address);
      if (v.vote === "committed") {
        expect(ops(e)).toEqual(["judge:reveal_vote!"]);
        expect(e.actions[0]).toMatchObject({ http: `POST /cases/${c.address}/reveal`, deadline: c.revealDeadline });
      } else {
        expect(ops(e)).toEqual([]);
        expect(e.waitingFor).toContain("reveals");
      }
    }
  });

  it("a verdict in its appeal window: only the loser may appeal; nobody may settle yet", async () => {
    const c = cases.get("resolved, appeal window open");
    const loser = c.outcome === "PlaintiffWon" ? c.defendant : c.plaintiff;
    const winner = loser === c.plaintiff ? c.defendant : c.plaintiff;
    const l = await entry(loser, c.address);
    expect(ops(l)).toEqual([`${loser === c.plaintiff ? "plaintiff" : "defendant"}:file_appeal`]);
    expect(l.actions[0].deadline).toBe(await deadline(c.address, "appealDeadline"));
    const w = await entry(winner, c.address);
    expect(ops(w)).toEqual([]);
    expect(w.waitingFor).toContain("appeal window");
    // The judges stay bound until the outcome is final, with nothing to do.
    expect(ops(await entry(c.judges[0], c.address))).toEqual([]);
  });

  it("an active case and an appealed one await a draw that anyone may execute; round-1 judges are past judges", async () => {
    const active = cases.get("active");
    const e = await entry(active.plaintiff, active.address);
    // Optional steps by deadline: the draw has one (the deliberation deadline), evidence none.
    expect(ops(e)).toEqual(["anyone:assign_judges_random", "plaintiff:submit_evidence"]);
    const appealed = cases.get("appealed");
    const a = await entry(appealed.plaintiff, appealed.address);
    expect(ops(a)).toEqual(["anyone:assign_judges_random"]);
    // The first round's judges stay bound to the case (scored at the final outcome), with nothing to do.
    const [firstPanel] = await t.chain.reader.readContract({
      address: appealed.address,
      abi: disputeCaseAbi,
      functionName: "getPanel",
      args: [1],
    });
    expect(firstPanel).toHaveLength(3);
    for (const judge of firstPanel) {
      const e = await entry(judge, appealed.address);
      expect(e.roles).toEqual(["past_judge"]);
      expect(ops(e)).toEqual(["anyone:assign_judges_random"]);
    }
  });

  it("closed cases are in nobody's inbox; a stranger's inbox is empty", async () => {
    for (const label of ["defaulted", "dismissed", "resolved, settled"]) {
      const c = cases.get(label);
      expect(await entry(c.plaintiff, c.address)).toBeUndefined();
      expect(await entry(c.defendant, c.address)).toBeUndefined();
    }
    const s = await inbox(t.address(STRANGER));
    expect(s).toMatchObject({ total: 0, actionsNow: 0, requiredNow: 0, cases: [] });
  });

  it("required actions come first; counts and paging agree", async () => {
    // Account 1 is a party to several seeded cases (and maybe a judge in others).
    const who = t.address(1);
    const all = await inbox(who);
    expect(all.total).toBeGreaterThan(1);
    expect(all.cases).toHaveLength(all.total);
    // biome-ignore lint/suspicious/noExplicitAny: entries are checked field by field
    const flat = all.cases.flatMap((c: any) => c.actions);
    expect(all.actionsNow).toBe(flat.length);
    // biome-ignore lint/suspicious/noExplicitAny: entries are checked field by field
    expect(all.requiredNow).toBe(flat.filter((a: any) => a.required).length);
    const firstOptional = all.cases.findIndex(
      // biome-ignore lint/suspicious/noExplicitAny: entries are checked field by field
      (c: any) => !c.actions[0]?.required,
    );
    // biome-ignore lint/suspicious/noExplicitAny: entries are checked field by field
    expect(all.cases.slice(firstOptional).every((c: any) => !c.actions[0]?.required)).toBe(true);
    const pages = [];
    for (let offset = 0; offset < all.total; offset += 1)
      pages.push(...(await inbox(who, `?limit=1&offset=${offset}`)).cases);
    // biome-ignore lint/suspicious/noExplicitAny: entries are checked field by field
    expect(new Set(pages.map((c: any) => c.case))).toEqual(new Set(all.cases.map((c: any) => c.case)));
  });

  it("bad input in the envelope: a malformed address (400), a limit over 100 (422, as every page)", async () => {
    const bad = await t.get("/agent/0x123/inbox");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_ADDRESS");
    const big = await t.get(`/agent/${t.address(1)}/inbox?limit=101`);
    expect(big.status).toBe(422);
    expect(JSON.stringify(big.body.error.details)).toContain("limit");
  });

  it("acting as the inbox says changes the inbox: a judge commits through the listed route", async () => {
    const c = cases.get("deliberating, commit phase, one vote committed");
    const judge = (c.votes as { judge: string; vote: string | null }[]).find((v) => v.vote === null)?.judge as string;
    const [act] = (await entry(judge, c.address)).actions;
    const [method, path] = act.http.split(" ");
    expect(method).toBe("POST");
    await t.write(path, { plaintiff_wins: true, from: judge }, t.indexOf(judge));
    // The inbox answers from the index: once it holds the block of the commitment.
    await t.indexed();
    const after = await entry(judge, c.address);
    expect(ops(after)).toEqual([]);
    expect(after.waitingFor).toContain("commitments");
  });

  it("the keeper view lists every permissionless step, paged, and each executes; deadlines passing add steps", async () => {
    const walk = async (limit: number) => {
      // biome-ignore lint/suspicious/noExplicitAny: steps are checked field by field
      const steps: any[] = [];
      let cursor: string | null = "";
      let pages = 0;
      while (cursor !== null) {
        const r = await t.get(`/keeper/actions?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        steps.push(...r.body.actions);
        cursor = r.body.nextCursor;
        pages++;
      }
      return { steps, pages };
    };
    const before = await walk(100);
    const label = (s: { case: string; operation: string }) => `${s.case}:${s.operation}`;
    // The seeded job whose dispute the provider answered waits for its panel like any case.
    const jobCase = [...cases.entries()].find(([l]) => l.startsWith("job: disputed"))?.[1].address;
    expect(before.steps.map(label).sort()).toEqual(
      [
        `${cases.get("active").address}:assign_judges_random`,
        `${cases.get("appealed").address}:assign_judges_random`,
        `${jobCase}:assign_judges_random`,
      ].sort(),
    );
    const paged = await walk(2);
    expect(paged.pages).toBeGreaterThan(1);
    expect(paged.steps.map(label).sort()).toEqual(before.steps.map(label).sort());

    // A day later every window has closed: the summoned case may be defaulted, the verdict settled,
    // the cases still voting resolved.
    await advanceTime(t.chain.reader, 2 * 24 * 3600);
    const later = await walk(100);
    const expected = [
      `${cases.get("summoned").address}:trigger_default`,
      `${cases.get("resolved, appeal window open").address}:settle_case`,
      `${cases.get("deliberating, one vote cast").address}:resolve_after_deadline`,
      `${cases.get("deliberating, commit phase, one vote committed").address}:resolve_after_deadline`,
      `${cases.get("deliberating, reveal phase, one vote revealed").address}:resolve_after_deadline`,
      `${cases.get("active").address}:resolve_after_deadline`,
      `${cases.get("appealed").address}:resolve_after_deadline`,
      `${jobCase}:resolve_after_deadline`,
    ];
    expect(later.steps.map(label).sort()).toEqual(expected.sort());
    // The plaintiff of the summoned case sees the default in its inbox too.
    const summoned = cases.get("summoned");
    expect(ops(await entry(summoned.plaintiff, summoned.address))).toEqual(["anyone:trigger_default"]);

    // A keeper (a stranger) executes every step as listed; the open cases are then all closed or final.
    for (const s of later.steps) {
      const [, path] = s.http.split(" ");
      await t.write(path, { from: t.address(STRANGER) }, STRANGER);
    }
    await t.indexed();
    const done = await walk(100);
    expect(done.steps).toEqual([]);
    expect(await entry(summoned.plaintiff, summoned.address)).toBeUndefined();
    const defaulted = (await t.get(`/cases/${summoned.address}`)).body.case;
    expect(defaulted.state).toBe("Defaulted");
  });
});
