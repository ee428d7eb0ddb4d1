/**
 * Courts: the tree under the General court, per-court terms copied at filing, stakes counted up the
 * tree, per-court draws and appeals that move up to the parent court; and two holes of issue #26
 * (an appeal that cannot get a panel, and a sortition tree that churn could fill), each replayed.
 */
import { type Address, type Hex, parseEther, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { AGENTIC_COMMERCE_COURT, type CourtParams, courtConfig, devChildCourts } from "../../src/deploy/terms.js";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;

/** A child court's terms: public votes (one transaction per vote), a higher minimum judge stake. */
const childParams = (over: Partial<CourtParams> = {}): CourtParams => ({
  ...kit.P,
  minJudgeStake: parseEther("0.2"),
  appealBond: parseEther("0.03"),
  ...over,
});

/** Creates a court below `parent` as the owner; returns its id. */
async function createCourt(name: string, params: CourtParams, parent = 1n, policy = `bafkrei${name.toLowerCase()}`) {
  const r = await c.owner.write({
    address: c.registry,
    abi: kit.courtRegistryAbi,
    functionName: "createCourt",
    args: [parent, name, policy, courtConfig(params)],
  });
  const [created] = parseEventLogs({ abi: kit.courtRegistryAbi, eventName: "CourtCreated", logs: r.logs });
  if (!created) throw new Error("createCourt emitted no CourtCreated");
  return created.args.courtId;
}

function readCourt(id: bigint) {
  return kit.readView(c, c.registry, kit.courtRegistryAbi, "getCourt", [id]);
}

function eligibleIn(judge: Address, court: bigint) {
  return kit.readView(c, c.registry, kit.courtRegistryAbi, "isEligibleJudgeIn", [judge, court]);
}

/** A fresh funded account that takes no other part here (anvil_setBalance only funds it). */
async function freshActor(eth = "10"): Promise<Actor> {
  const account = privateKeyToAccount(generatePrivateKey() as Hex);
  await kit.rpc(c, "anvil_setBalance", [account.address, `0x${parseEther(eth).toString(16)}`]);
  return kit.actorFor(c, account);
}

async function freshActors(n: number, eth = "10"): Promise<Actor[]> {
  const out: Actor[] = [];
  for (let i = 0; i < n; i++) out.push(await freshActor(eth));
  return out;
}

const stakeIn = (who: Actor, court: bigint, value: bigint) =>
  who.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "stakeAsJudge", args: [court], value });
const unstakeFrom = (who: Actor, court: bigint) =>
  who.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstakeFrom", args: [court] });
const unstakeAll = (who: Actor) =>
  who.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstake" });

const { party } = kit.courtOfFile(async (court) => {
  c = court;
  // Everyday General judges, so General draws never run short.
  await kit.stakeJudges(
    c,
    [7, 8, 9, 10, 11, 12, 13].map((i) => kit.actor(c, i)),
  );
});

describe("the court tree", () => {
  it("the dev world has the General court (id 1, the root) and Agentic Commerce below it, with their policies", async () => {
    const [ok, general] = await readCourt(1n);
    expect(ok).toBe(true);
    expect([general.id, general.parent, general.depth, general.name]).toEqual([1n, 0n, 0, "General"]);
    expect(general.policy).toBe(c.devnet.deployment.courts[0]?.policy);
    expect(general.policy).toMatch(/^bafkrei[a-z2-7]{52}$/);
    expect(general.config.terms.hiddenVotes).toBe(false);
    expect(general.children).toContain(AGENTIC_COMMERCE_COURT);
    const [, ac] = await readCourt(AGENTIC_COMMERCE_COURT);
    const acParams = devChildCourts[0]?.params as CourtParams;
    expect([ac.parent, ac.name, ac.config.terms.hiddenVotes, ac.config.minJudgeStake]).toEqual([
      1n,
      "Agentic Commerce",
      true,
      acParams.minJudgeStake,
    ]);
    expect(ac.policy).toBe(c.devnet.deployment.courts[1]?.policy);
    expect(ac.policy).not.toBe(general.policy);
    const [missing] = await readCourt(999n);
    expect(missing).toBe(false);
  });

  it("createCourt and setCourt: the owner only; names, policies, stakes and terms are checked", async () => {
    const cfg = courtConfig(childParams());
    const create = (who: Actor, parent: bigint, name: string, policy: string, config = cfg) =>
      who.write({
        address: c.registry,
        abi: kit.courtRegistryAbi,
        functionName: "createCourt",
        args: [parent, name, policy, config],
      });
    await kit.expectRevert(create(party(1), 1n, "Rogue", "bafkreirogue"), "OnlyOwner");
    await kit.expectRevert(create(c.owner, 999n, "Orphan", "bafkreiorphan"), "UnknownCourt", [999n]);
    await kit.expectRevert(create(c.owner, 0n, "Second root", "bafkreiroot"), "UnknownCourt", [0n]);
    await kit.expectRevert(create(c.owner, 1n, "", "bafkreix"), "NameRequired");
    await kit.expectRevert(create(c.owner, 1n, "n".repeat(65), "bafkreix"), "NameTooLong", [64n]);
    await kit.expectRevert(create(c.owner, 1n, "No policy", ""), "PolicyInvalid", [128n]);
    await kit.expectRevert(create(c.owner, 1n, "Long policy", "b".repeat(129)), "PolicyInvalid", [128n]);
    // A child's minimum judge stake is at least its parent's.
    await kit.expectRevert(
      create(c.owner, 1n, "Cheap", "bafkreicheap", { ...cfg, minJudgeStake: kit.P.minJudgeStake - 1n }),
      "InvalidParameter",
    );
    await kit.expectRevert(
      create(c.owner, 1n, "Even", "bafkreieven", { ...cfg, terms: { ...cfg.terms, panelSize: 4 } }),
      "InvalidParameter",
    );
    const id = await createCourt("Admin", childParams());
    const [, v] = await readCourt(id);
    expect([v.parent, v.depth, v.name, v.policy, v.config.minJudgeStake]).toEqual([
      1n,
      1,
      "Admin",
      "bafkreiadmin",
      parseEther("0.2"),
    ]);
    // setCourt: the owner only, and the General court's minimum cannot rise above a child's.
    const general = courtConfig(kit.P);
    const set = (who: Actor, court: bigint, config = general, name = "General") =>
      who.write({
        address: c.registry,
        abi: kit.courtRegistryAbi,
        functionName: "setCourt",
        args: [court, name, "bafkreigeneral2", config],
      });
    await kit.expectRevert(set(party(1), 1n), "OnlyOwner");
    await kit.expectRevert(set(c.owner, 999n), "UnknownCourt", [999n]);
    await kit.expectRevert(set(c.owner, 1n, { ...general, minJudgeStake: parseEther("0.3") }), "InvalidParameter");
    const r = await set(c.owner, id, courtConfig(childParams({ appealBond: parseEther("0.04") })), "Admin 2");
    const [changed] = parseEventLogs({ abi: kit.courtRegistryAbi, eventName: "CourtChanged", logs: r.logs });
    expect([changed?.args.courtId, changed?.args.name, changed?.args.config.terms.appealBond]).toEqual([
      id,
      "Admin 2",
      parseEther("0.04"),
    ]);
    // Filing in a court that does not exist is refused.
    await kit.expectRevert(kit.fileCase(c, party(1), party(2).address, { court: 999n }), "UnknownCourt", [999n]);
  });

  it("the registry's second half (RegistryBook) runs only on the registry's storage: called directly it holds nothing and changes nothing", async () => {
    const book = await c.reader.readContract({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "book" });
    const overview = (address: Address) =>
      c.reader.readContract({ address, abi: kit.courtRegistryAbi, functionName: "getOverview" });
    const read = (address: Address, functionName: "courtCount" | "owner") =>
      c.reader.readContract({ address, abi: kit.courtRegistryAbi, functionName });
    // Through the registry: the registry's courts and owner. Directly: empty storage.
    expect((await overview(c.registry)).minJudgeStake).toBe(kit.P.minJudgeStake);
    expect((await overview(book)).minJudgeStake).toBe(0n);
    expect(await read(book, "courtCount")).toBe(0n);
    expect(await read(book, "owner")).toBe("0x0000000000000000000000000000000000000000");
    // Nobody is the book's owner, so nobody can create a court in it, the registry's owner included.
    await kit.expectRevert(
      c.owner.write({
        address: book,
        abi: kit.courtRegistryAbi,
        functionName: "createCourt",
        args: [1n, "Rogue", "bafkreirogue", courtConfig(kit.P)],
      }),
      "OnlyOwner",
    );
    // A selector neither half has, or coin sent to the fallback, is refused.
    await expect(party(0).send({ to: c.registry, data: "0xdeadbeef" })).rejects.toThrow();
    await expect(party(0).send({ to: c.registry, value: 1n })).rejects.toThrow();
  });

  it("stakes per court: each court's minimum, unstakeFrom one court, at most four courts", async () => {
    const child = await createCourt("Stakes", childParams());
    const who = await freshActor();
    await kit.expectRevert(stakeIn(who, child, parseEther("0.1")), "StakeBelowMinimum", [
      parseEther("0.2"),
      parseEther("0.1"),
    ]);
    await kit.expectRevert(stakeIn(who, 999n, parseEther("1")), "UnknownCourt", [999n]);
    await stakeIn(who, child, parseEther("0.2"));
    // A stake in the child counts in the General court above it.
    expect(await eligibleIn(who.address, child)).toBe(true);
    expect(await eligibleIn(who.address, 1n)).toBe(true);
    expect(await eligibleIn(who.address, AGENTIC_COMMERCE_COURT)).toBe(false);
    await stakeIn(who, 0n, parseEther("0.1"));
    const [courts, stakes] = await kit.readView(c, c.registry, kit.courtRegistryAbi, "getJudgeCourts", [who.address]);
    expect([courts, stakes]).toEqual([
      [child, 1n],
      [parseEther("0.2"), parseEther("0.1")],
    ]);
    const [, generalBefore] = await readCourt(1n);
    const before = await kit.balance(c, who.address);
    await unstakeFrom(who, child);
    expect(await kit.balance(c, who.address)).toBeGreaterThan(before + parseEther("0.19"));
    expect(await eligibleIn(who.address, child)).toBe(false);
    expect(await eligibleIn(who.address, 1n)).toBe(true);
    const [, generalAfter] = await readCourt(1n);
    expect(generalAfter.totalStake).toBe(generalBefore.totalStake - parseEther("0.2"));
    await kit.expectRevert(unstakeFrom(who, child), "NotStakedInCourt", [child]);
    // At most four courts at once.
    const more = [await createCourt("Extra1", childParams()), await createCourt("Extra2", childParams())];
    await stakeIn(who, child, parseEther("0.2"));
    for (const m of more) await stakeIn(who, m, parseEther("0.2"));
    await kit.expectRevert(stakeIn(who, AGENTIC_COMMERCE_COURT, parseEther("0.2")), "TooManyCourts", [4n]);
    await unstakeAll(who);
    expect(await eligibleIn(who.address, 1n)).toBe(false);
  });
});

describe("draws per court", () => {
  it("a case filed in a child court copies its terms and is judged by that court's pool", async () => {
    const params = childParams({ appealBond: parseEther("0.025"), deliberationPeriod: 900n });
    const child = await createCourt("Pool", params);
    const pool = await freshActors(3);
    for (const j of pool) await stakeIn(j, child, parseEther("0.2"));
    const { caseAddr } = await kit.fileCase(c, party(1), party(2).address, { court: child });
    const view = await kit.readCase(c, caseAddr);
    expect([view.courtId, view.appealCourtId, view.appealBond]).toEqual([child, child, parseEther("0.025")]);
    const terms = await c.reader.readContract({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "terms" });
    expect(terms[1]).toBe(900n);
    await kit.respond(caseAddr, party(2));
    await kit.drawJudges(c, caseAddr, party(3));
    // Only the child's three judges could be drawn, though the General court has more.
    expect(new Set((await kit.readCase(c, caseAddr)).judges)).toEqual(new Set(pool.map((j) => j.address)));
    // The child's judges are free again after the verdict is settled.
    await kit.vote(caseAddr, pool[0] as Actor, true);
    await kit.vote(caseAddr, pool[1] as Actor, true);
    await kit.advance(c, params.appealWindow + 1n);
    await c.owner.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "settle" });
  });

  it("a judge staked in a child court is drawn in the General court", async () => {
    const child = await createCourt("Whales", childParams());
    const whale = await freshActor("2000");
    await stakeIn(whale, child, parseEther("1000"));
    const { caseAddr } = await kit.fileCase(c, party(1), party(3).address);
    await kit.respond(caseAddr, party(3));
    await kit.drawJudges(c, caseAddr, party(4));
    const v = await kit.readCase(c, caseAddr);
    expect(v.courtId).toBe(1n);
    // Its 1000 ETH in the child count in the General court: against a few ETH, it is drawn.
    expect(v.judges).toContain(whale.address);
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
  });

  it("an appeal that reaches the jump size is drawn from the parent court's pool", async () => {
    const child = await createCourt("Jumps", childParams({ jumpPanelSize: 5 }));
    const pool = await freshActors(3);
    for (const j of pool) await stakeIn(j, child, parseEther("0.2"));
    const { caseAddr } = await kit.fileCase(c, party(1), party(5).address, { court: child });
    expect((await kit.readCase(c, caseAddr)).appealCourtId).toBe(1n);
    await kit.respond(caseAddr, party(5));
    await kit.drawJudges(c, caseAddr, party(3));
    const round1 = (await kit.readCase(c, caseAddr)).judges;
    expect(new Set(round1)).toEqual(new Set(pool.map((j) => j.address)));
    await kit.vote(caseAddr, pool.find((j) => j.address === round1[0]) as Actor, true);
    await kit.vote(caseAddr, pool.find((j) => j.address === round1[1]) as Actor, true);
    await kit.appeal(caseAddr, party(5), parseEther("0.03"));
    const status = await c.reader.readContract({
      address: caseAddr,
      abi: kit.disputeCaseAbi,
      functionName: "getStatus",
    });
    expect(status.courtId).toBe(1n);
    // Five more judges than the child has: only the General court's pool can seat them.
    await kit.drawJudges(c, caseAddr, party(3));
    const round2 = (await kit.readCase(c, caseAddr)).judges;
    expect(round2).toHaveLength(5);
    for (const a of round2) expect(round1).not.toContain(a);
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
  });

  it("a court's changes never reach a case filed before them", async () => {
    const params = childParams({ jumpPanelSize: 0 });
    const child = await createCourt("Frozen", params);
    const pool = await freshActors(8);
    for (const j of pool) await stakeIn(j, child, parseEther("0.2"));
    const { caseAddr } = await kit.fileCase(c, party(2), party(6).address, { court: child });
    const before = await c.reader.readContract({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "terms" });
    await c.owner.write({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "setCourt",
      args: [
        child,
        "Frozen",
        "bafkreifrozen2",
        courtConfig({
          ...params,
          appealBond: parseEther("0.09"),
          deliberationPeriod: 60n,
          panelSize: 5,
          appealPanelSize: 7,
          jumpPanelSize: 7,
          hiddenVotes: true,
        }),
      ],
    });
    expect(await c.reader.readContract({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "terms" })).toEqual(
      before,
    );
    const v = await kit.readCase(c, caseAddr);
    expect([v.appealBond, v.hiddenVotes, v.appealCourtId]).toEqual([params.appealBond, false, child]);
    await kit.respond(caseAddr, party(6));
    await kit.drawJudges(c, caseAddr, party(3));
    const round1 = (await kit.readCase(c, caseAddr)).judges;
    expect(round1).toHaveLength(3);
    const judgeOf = (a: Address) => pool.find((j) => j.address === a) as Actor;
    await kit.vote(caseAddr, judgeOf(round1[0] as Address), false);
    await kit.vote(caseAddr, judgeOf(round1[1] as Address), false);
    // The bond the case copied, not the court's new one; five judges from the child, not seven.
    await kit.expectRevert(kit.appeal(caseAddr, party(2), parseEther("0.09")), "WrongAppealBond", [
      params.appealBond,
      parseEther("0.09"),
    ]);
    await kit.appeal(caseAddr, party(2), params.appealBond);
    await kit.drawJudges(c, caseAddr, party(3));
    const round2 = (await kit.readCase(c, caseAddr)).judges;
    expect(round2).toHaveLength(5);
    for (const a of round2) expect(pool.map((j) => j.address)).toContain(a);
    // A case filed now takes the new terms.
    const { caseAddr: later } = await kit.fileCase(c, party(3), party(4).address, { court: child });
    expect((await kit.readCase(c, later)).appealBond).toBe(parseEther("0.09"));
    await kit.advance(c, kit.P.deliberationPeriod + kit.P.responseWindow + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
  });
});

/** A court of its own with 7 judges and a case there decided 2-1 for the plaintiff by three of them. */
async function twoToOne(name: string) {
  const params = childParams({ jumpPanelSize: 0 });
  const court = await createCourt(name, params);
  const honest = await freshActors(7);
  for (const j of honest) await stakeIn(j, court, parseEther("0.2"));
  const [plaintiff, defendant] = await freshActors(2, "1");
  const { caseAddr } = await kit.fileCase(c, plaintiff as Actor, (defendant as Actor).address, { court });
  await kit.respond(caseAddr, defendant as Actor);
  await kit.seat(c, caseAddr, honest.slice(0, 3));
  await kit.vote(caseAddr, honest[0] as Actor, true);
  await kit.vote(caseAddr, honest[1] as Actor, false);
  await kit.vote(caseAddr, honest[2] as Actor, true);
  return { params, court, honest, plaintiff, defendant, caseAddr };
}

describe("issue #26", () => {
  it("hole 1 (and issue #31): the defendant's idle judge cannot leave the appeal's armed draw", async () => {
    // The sequence in a court of its own: 7 honest judges, a 2-1 verdict for the plaintiff,
    // the defendant's own idle judge stakes (8 judges: exactly 3 + 5), the defendant appeals, its
    // judge tries to leave before the draw.
    const { params, court, defendant, caseAddr } = await twoToOne("Hole one");
    // Issue #31 closed the sybil's way out (a judge counted in an armed draw cannot leave it, see
    // drawLock.test.ts): the sybil stays and is drawn. Without it the pool is one short of 3 + 5.
    const sybil = await freshActor();
    await stakeIn(sybil, court, parseEther("0.2"));
    await kit.appeal(caseAddr, defendant as Actor, params.appealBond);
    await kit.expectRevert(unstakeAll(sybil), "DrawPendingInCourt", [court]);
    await kit.advance(c, params.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
    await unstakeAll(sybil);
  });

  it("hole 1: an appeal that cannot get a panel lets the first verdict stand; the appellant loses its bond", async () => {
    // No sybil (issue #31 keeps it in the draw): 7 judges, 3 of them in round one, 5 needed on appeal.
    const { params, honest, plaintiff, defendant, caseAddr } = await twoToOne("Hole one short");
    await kit.appeal(caseAddr, defendant as Actor, params.appealBond);
    await kit.expectRevert(kit.drawJudges(c, caseAddr, c.owner), "NotEnoughJudges", [4n, 5n]);
    await kit.advance(c, params.deliberationPeriod + 1n);
    const dismissedBefore = (
      await c.reader.readContract({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "getStats" })
    ).byState[kit.State.Dismissed];
    const plaintiffBefore = await kit.balance(c, (plaintiff as Actor).address);
    const defendantBefore = await kit.balance(c, (defendant as Actor).address);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.outcome, v.settled]).toEqual([kit.State.Resolved, kit.Outcome.PlaintiffWon, true]);
    // The plaintiff takes the pot, the defendant's bond included; the defendant gets nothing back.
    const pot = 2n * kit.P.minPartyStake + params.appealBond;
    const fee = (pot * BigInt(params.courtFeeBps)) / 10_000n;
    expect(await kit.balance(c, (plaintiff as Actor).address)).toBe(plaintiffBefore + pot - fee);
    expect(await kit.balance(c, (defendant as Actor).address)).toBe(defendantBefore);
    // The round-one majority is rewarded, the minority slashed.
    const [maj, min] = await Promise.all(
      [honest[0], honest[1]].map((j) =>
        kit.readView(c, c.registry, kit.courtRegistryAbi, "getJudge", [(j as Actor).address]),
      ),
    );
    expect(maj?.rewards).toBeGreaterThan(0n);
    expect(min?.slashed).toBeGreaterThan(0n);
    const dismissed = async () =>
      (await c.reader.readContract({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "getStats" })).byState[
        kit.State.Dismissed
      ];
    expect(await dismissed()).toBe(dismissedBefore);
  });

  it("hole 3: stake-and-unstake churn reuses leaves, so the tree never fills and a new judge can always join", async () => {
    const court = await createCourt("Churn", childParams());
    const leaves = async (id: bigint) =>
      c.reader.readContract({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "poolLeaves", args: [id] });
    const [generalBefore] = await leaves(1n);
    // The sequence: fresh addresses stake the minimum and unstake, over and over.
    for (let i = 0; i < 12; i++) {
      const churner = await freshActor("1");
      await stakeIn(churner, court, parseEther("0.2"));
      await unstakeAll(churner);
    }
    // One leaf served them all, in the court and in the General court above it.
    expect(await leaves(court)).toEqual([1n, 0n]);
    expect((await leaves(1n))[0]).toBeLessThanOrEqual(generalBefore + 1n);
    const newcomer = await freshActor("1");
    await stakeIn(newcomer, court, parseEther("0.2"));
    expect(await leaves(court)).toEqual([1n, 1n]);
    expect(await eligibleIn(newcomer.address, court)).toBe(true);
  });

  it("a judge staked after the arming is never drawn, and no leaf is freed for it while the draw waits", async () => {
    const court = await createCourt("Reuse", childParams({ jumpPanelSize: 0 }));
    const regular = await freshActors(4);
    for (const j of regular) await stakeIn(j, court, parseEther("0.2"));
    // A whale whose leaf holds nearly all the weight at the arming block.
    const whale = await freshActor("2000");
    await stakeIn(whale, court, parseEther("1000"));
    const { caseAddr } = await kit.fileCase(c, party(1), party(2).address, { court });
    await kit.respond(caseAddr, party(2));
    // After the arming the whale cannot leave (issue #31: its leaf is not freed for a newcomer to
    // take); a newcomer with a large stake joins under a leaf of its own.
    await kit.expectRevert(unstakeAll(whale), "DrawPendingInCourt", [court]);
    const newcomer = await freshActor("2000");
    await stakeIn(newcomer, court, parseEther("1000"));
    await kit.drawJudges(c, caseAddr, party(3));
    const panel = (await kit.readCase(c, caseAddr)).judges;
    expect(panel).toHaveLength(3);
    expect(panel).not.toContain(newcomer.address);
    for (const a of panel) expect([...regular, whale].map((j) => j.address)).toContain(a);
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, c.owner);
  });
});
