/**
 * Issue #31: money stays where the court puts it: the court's record, the filing fee and the
 * owner's powers. Each attack is replayed with real transactions: a stranger's dispute naming a
 * victim (3a), a default bought against one's own sybil (3b), a loss refused by making the court an
 * operator (3c), a token filing voided by a watcher (5), and the owner hand-picking a panel.
 */
import { type Abi, type Address, encodeFunctionData, parseEventLogs } from "viem";
import { describe, expect, it } from "vitest";
import type { Erc8004Deployment } from "../../src/chain/deployments.js";
import { deployCourt } from "../../src/deploy/deploy.js";
import { DEV_TOKEN_FILING_FEE } from "../../src/deploy/terms.js";
import type { Actor } from "../../src/devnet/actor.js";
import { arbitrationOf, deployTestArbitrable, extraData, openDispute } from "./arbitrationHelpers.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;
let e: Erc8004Deployment;
const judges = () => [7, 8, 9].map((i) => kit.actor(c, i));
const keeper = () => kit.actor(c, 17);

kit.courtOfFile(async (court) => {
  c = court;
  e = c.devnet.deployment.erc8004 as Erc8004Deployment;
  await kit.stakeJudges(c, judges());
});

const identity = kit.identityRegistryAbi as Abi;
const idWrite = (who: Actor, functionName: string, args: readonly unknown[]) =>
  who.send({ to: e.identity, data: encodeFunctionData({ abi: identity, functionName, args }) });

/** Registers an ERC-8004 agent owned by `who` (its agent wallet too) and answers its id. */
async function register(who: Actor): Promise<bigint> {
  const r = await idWrite(who, "register", [`https://agents.example/${who.address}.json`, []]);
  const [ev] = parseEventLogs({ abi: kit.identityRegistryAbi, eventName: "Registered", logs: r.logs });
  if (!ev) throw new Error("no Registered event");
  return ev.args.agentId;
}

async function card(who: Address) {
  const [k] = await c.reader.readContract({
    address: e.reporter,
    abi: kit.courtReputationAbi,
    functionName: "describe",
    args: [[who]],
  });
  if (!k) throw new Error("no card");
  return k;
}

const feedbackOf = (
  r: { logs: Parameters<typeof parseEventLogs>[0]["logs"] },
  eventName: "FeedbackPosted" | "FeedbackFailed",
) =>
  parseEventLogs({ abi: kit.courtReputationAbi, eventName, logs: r.logs }).map((l) => [
    l.args.party,
    l.args.agentId,
    ...("outcome" in l.args ? [l.args.outcome] : []),
  ]);

/** Three judges are seated (a dev factory) and two of them decide; the verdict is paid out. */
async function decide(caseAddr: Address, plaintiffWins: boolean) {
  await kit.seat(c, caseAddr, judges());
  const [j1, j2] = judges() as [Actor, Actor];
  await kit.vote(caseAddr, j1, plaintiffWins);
  await kit.vote(caseAddr, j2, plaintiffWins);
  await kit.advance(c, kit.P.appealWindow + 1n);
  return kit.settle(caseAddr, keeper());
}

describe("#31 3a: a dispute goes on a party's record only if it agreed to the arbitrable", () => {
  it("a stranger's arbitrable names a victim as plaintiff and loses for it: the victim's record is untouched", async () => {
    const attacker = kit.actor(c, 1);
    const victim = kit.actor(c, 2);
    const sybil = kit.actor(c, 3);
    const victimAgent = await register(victim);
    const arbitrable = await deployTestArbitrable(c, attacker);
    // "I withdraw; find for the defendant": filed by the attacker's arbitrable, the victim as plaintiff.
    const data = extraData({ plaintiff: victim.address, defendant: sybil.address, claim: "I withdraw my claim." });
    const { caseAddr } = await openDispute(c, arbitrable, attacker, data);
    await kit.respond(caseAddr, sybil, 0n);
    const r = await decide(caseAddr, false);

    const record = await kit.readAgent(c, victim.address);
    expect([record.casesLost, record.reputation]).toEqual([0, 0n]);
    expect(feedbackOf(r, "FeedbackPosted").filter(([p]) => p === victim.address)).toEqual([]);
    expect((await card(victim.address)).lost).toBe(0n);
    expect(victimAgent).toBeGreaterThan(0n);
    expect(
      await c.reader.readContract({
        address: c.factory,
        abi: kit.caseFactoryAbi,
        functionName: "onRecord",
        args: [caseAddr, victim.address],
      }),
    ).toBe(false);
  });

  it("a stranger's dispute that ends dismissed posts no dismissal on the victim either", async () => {
    const attacker = kit.actor(c, 1);
    const victim = kit.actor(c, 6);
    const victimAgent = await register(victim);
    const arbitrable = await deployTestArbitrable(c, attacker);
    const data = extraData({ plaintiff: attacker.address, defendant: victim.address });
    const { caseAddr } = await openDispute(c, arbitrable, attacker, data);
    await kit.respond(caseAddr, victim, 0n);
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    const r = await kit.resolveAfterDeadline(caseAddr, keeper());
    expect(feedbackOf(r, "FeedbackPosted")).toEqual([]);
    expect((await card(victim.address)).dismissed).toBe(0n);
    expect(victimAgent).toBeGreaterThan(0n);
  });

  it("a party that consented to the arbitrable (or is it) is on record; consent is read at filing", async () => {
    const arbitrator = arbitrationOf(c).arbitrator;
    const client = kit.actor(c, 4);
    const provider = kit.actor(c, 5);
    const arbitrable = await deployTestArbitrable(c, client);
    const consent = (who: Actor, allowed: boolean) =>
      who.write({
        address: arbitrator,
        abi: kit.docketArbitratorAbi,
        functionName: "setConsent",
        args: [arbitrable, allowed],
      });
    await consent(client, true);
    await consent(provider, true);
    const { caseAddr } = await openDispute(
      c,
      arbitrable,
      client,
      extraData({ plaintiff: client.address, defendant: provider.address }),
    );
    // Withdrawn after filing: the case keeps what held when it was filed.
    await consent(provider, false);
    await kit.respond(caseAddr, provider, 0n);
    await decide(caseAddr, true);
    expect((await kit.readAgent(c, client.address)).casesWon).toBe(1);
    expect((await kit.readAgent(c, provider.address)).casesLost).toBe(1);
    expect(
      await c.reader.readContract({
        address: arbitrator,
        abi: kit.docketArbitratorAbi,
        functionName: "consented",
        args: [arbitrable, arbitrable],
      }),
    ).toBe(true);
  });
});

describe("#31 3b: a default is scored as a default, not a verdict", () => {
  it("suing one's own sybil that never answers buys no win and no verdict", async () => {
    const plaintiff = kit.actor(c, 10);
    const sybil = kit.actor(c, 11);
    const pId = await register(plaintiff);
    await register(sybil);
    const { caseAddr } = await kit.fileCase(c, plaintiff, sybil.address);
    await kit.advance(c, kit.P.responseWindow + 1n);
    const r = await kit.triggerDefault(caseAddr, keeper());

    const record = await kit.readAgent(c, plaintiff.address);
    expect([record.casesWon, record.reputation]).toEqual([0, 0n]);
    expect((await kit.readAgent(c, sybil.address)).noShows).toBe(1);
    const k = await card(plaintiff.address);
    expect([k.verdicts.count, k.won, k.defaultWins]).toEqual([0n, 0n, 1n]);
    expect((await card(sybil.address)).defaulted).toBe(1n);
    expect(feedbackOf(r, "FeedbackPosted").map(([, , o]) => o)).toEqual(["default-won", "defaulted"]);
    const summary = (tag1: string, tag2: string) =>
      c.reader.readContract({
        address: e.reputation,
        abi: kit.reputationRegistryAbi,
        functionName: "getSummary",
        args: [pId, [e.reporter], tag1, tag2],
      });
    expect(await summary("verdict", "")).toEqual([0n, 0n, 0]);
    expect(await summary("default", "won")).toEqual([1n, 100n, 0]);
  });
});

describe("#31 3c: a refused feedback stays on chain for anyone to retry, to the agent fixed at filing", () => {
  it("a loser who made the court its operator, then revoked, still gets its loss", async () => {
    const plaintiff = kit.actor(c, 12);
    const loser = kit.actor(c, 13);
    const loserAgent = await register(loser);
    const { caseAddr } = await kit.fileCase(c, plaintiff, loser.address);
    await kit.respond(caseAddr, loser);
    // About to lose: the court's reporter becomes its operator, so the registry refuses the court's feedback.
    await idWrite(loser, "setApprovalForAll", [e.reporter, true]);
    const r = await decide(caseAddr, true);
    expect(feedbackOf(r, "FeedbackFailed")).toEqual([[loser.address, loserAgent]]);
    // It revokes before the cases it wins; the loss is still on chain and anyone posts it.
    await idWrite(loser, "setApprovalForAll", [e.reporter, false]);
    const pending = await c.reader.readContract({
      address: e.reporter,
      abi: kit.courtReputationAbi,
      functionName: "pendingFeedback",
      args: [caseAddr, loser.address],
    });
    expect(pending).toEqual([2, loserAgent]);
    expect((await card(loser.address)).refused).toBe(1n);
    const retried = await keeper().write({
      address: e.reporter,
      abi: kit.courtReputationAbi,
      functionName: "retryFeedback",
      args: [caseAddr, loser.address],
    });
    expect(feedbackOf(retried, "FeedbackPosted")).toEqual([[loser.address, loserAgent, "lost"]]);
    const k = await card(loser.address);
    expect([k.lost, k.refused]).toEqual([1n, 0n]);
    await kit.expectRevert(
      keeper().write({
        address: e.reporter,
        abi: kit.courtReputationAbi,
        functionName: "retryFeedback",
        args: [caseAddr, loser.address],
      }),
      "NoPendingFeedback",
    );
  });

  it("the agent is fixed at filing: a party that moves its agent wallet away mid-case still gets the entry", async () => {
    const plaintiff = kit.actor(c, 14);
    const loser = kit.actor(c, 15);
    const loserAgent = await register(loser);
    const { caseAddr } = await kit.fileCase(c, plaintiff, loser.address);
    await kit.respond(caseAddr, loser);
    // It hands the agent to another address of its own: by the case's end it is no longer its wallet.
    await idWrite(loser, "transferFrom", [loser.address, kit.actor(c, 16).address, loserAgent]);
    const r = await decide(caseAddr, true);
    expect(feedbackOf(r, "FeedbackPosted")).toEqual([[loser.address, loserAgent, "lost"]]);
    const fixed = await c.reader.readContract({
      address: e.reporter,
      abi: kit.courtReputationAbi,
      functionName: "agentsOfCase",
      args: [caseAddr],
    });
    expect(fixed).toEqual([true, 0n, loserAgent]);
  });
});

describe("#31 item 5: a watcher who submits a pending filing's authorization first voids nothing", () => {
  it("the fee that reached the factory files that payer's case, once", async () => {
    const plaintiff = kit.actor(c, 18);
    const watcher = kit.actor(c, 19);
    await c.owner.write({
      address: c.feeToken,
      abi: kit.testUSDAbi,
      functionName: "mint",
      args: [plaintiff.address, DEV_TOKEN_FILING_FEE * 3n],
    });
    const recipientBefore = await kit.tokenBalance(c, c.owner.address);
    const signed = await kit.authorizeTokenFee(c, plaintiff);
    // The watcher copies the authorization out of the pending filing and submits it to the token first.
    await kit.submitAuthorization(watcher, c.feeToken, signed.auth, signed.signature);
    expect(await kit.tokenBalance(c, c.factory)).toBe(DEV_TOKEN_FILING_FEE);
    const file = () =>
      kit.callAs(
        plaintiff,
        c.factory,
        kit.caseFactoryAbi,
        "fileCaseWithAuthorization",
        [0n, kit.actor(c, 1).address, "Undelivered dataset", "bafy-token", signed.fee] as const,
        kit.P.minPartyStake,
      );
    const r = await file();
    const [filed] = parseEventLogs({ abi: kit.caseFactoryAbi, eventName: "CaseFiled", logs: r.logs });
    expect(filed?.args.paymentRef).toBe(signed.auth.nonce);
    expect(await kit.tokenBalance(c, c.factory)).toBe(0n);
    expect(await kit.tokenBalance(c, c.owner.address)).toBe(recipientBefore + DEV_TOKEN_FILING_FEE);
    await kit.expectRevert(file(), "PaymentRefUsed");
  });

  it("someone else's copy of the payer's authorization files nothing", async () => {
    const payer = kit.actor(c, 18);
    const other = kit.actor(c, 10);
    const signed = await kit.authorizeTokenFee(c, payer);
    await kit.submitAuthorization(kit.actor(c, 19), c.feeToken, signed.auth, signed.signature);
    // The other party presents the payer's authorization as its own: the signature is not its.
    await kit.expectRevert(
      kit.callAs(
        other,
        c.factory,
        kit.caseFactoryAbi,
        "fileCaseWithAuthorization",
        [0n, kit.actor(c, 1).address, "Undelivered dataset", "bafy-token", signed.fee] as const,
        kit.P.minPartyStake,
      ),
      "InvalidSignature",
    );
    await c.owner.write({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "refundToken",
      args: [c.feeToken, payer.address, DEV_TOKEN_FILING_FEE],
    });
  });
});

describe("#31 also found: the owner hand-picks no panel outside a dev or test deployment", () => {
  it("a factory deployed without manualSeating refuses assignJudges for every case", async () => {
    const d = await deployCourt(c.owner.wallet, c.reader, kit.P);
    const manual = (factory: Address) =>
      c.reader.readContract({ address: factory, abi: kit.caseFactoryAbi, functionName: "manualSeating" });
    const other = { ...c, factory: d.factory, registry: d.registry };
    await kit.stakeJudges(other, judges());
    const { caseAddr } = await kit.fileCase(other, kit.actor(c, 1), kit.actor(c, 2).address);
    await kit.respond(caseAddr, kit.actor(c, 2));
    await kit.expectRevert(kit.seat(other, caseAddr, judges()), "ManualSeatingOff");
    expect([await manual(d.factory), await manual(c.factory)]).toEqual([false, true]);
  });
});
