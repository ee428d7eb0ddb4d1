/**
 * ERC-8183 jobs judged by the court: the reference AgenticCommerce escrow with a CourtEvaluator as
 * its evaluator. Undisputed, the provider is paid after the challenge window (the attacks on that
 * rule are in jobsAttacks.test.ts); disputed, the case
 * (public votes in the General court, hidden votes in Agentic Commerce) decides who gets the
 * escrow, read back in token balances; a dispute that could outlast the job is refused; the
 * provider's ERC-8004 validation request is answered with the ruling.
 */
import { type Address, encodeFunctionData, parseEventLogs, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawCid } from "../../src/evidence/cid.js";
import * as arbKit from "./arbitrationHelpers.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;
const client = () => kit.actor(c, 1);
const provider = () => kit.actor(c, 2);
const keeper = () => kit.actor(c, 5);
const judges = () => arbKit.eightJudges(c);
const panel = () => judges().slice(0, 3);
const BUDGET = 50_000_000n;
const GENERAL = 1;
const COMMERCE = 2;
let general: Address;
let hiddenCourt: Address;

beforeAll(async () => {
  c = await kit.bootCourt(kit.P);
  // Staked in Agentic Commerce (hidden votes), so counted in the General court's pool too.
  await kit.stakeJudges(c, judges(), 10n ** 18n, BigInt(COMMERCE));
  await arbKit.mintJobToken(c, client().address, 1000n * BUDGET);
  general = arbKit.evaluatorOf(c, GENERAL);
  hiddenCourt = arbKit.evaluatorOf(c, COMMERCE);
}, 120_000);

afterAll(async () => {
  await c?.stop();
});

const finalize = (evaluator: Address, jobId: bigint) =>
  keeper().write({ address: evaluator, abi: arbKit.courtEvaluatorAbi, functionName: "finalize", args: [jobId] });
const commerceBalance = () => arbKit.tokenOf(c, arbKit.arbitrationOf(c).commerce);

/** The provider answers, the panel is seated, two of three vote (for the plaintiff, the client, or not) and the verdict settles. */
async function judgedPublicly(caseAddr: Address, clientWins: boolean) {
  await kit.respond(caseAddr, provider(), 0n);
  await kit.seat(c, caseAddr, panel());
  for (const judge of panel().slice(0, 2)) await kit.vote(caseAddr, judge, clientWins);
  await kit.advance(c, kit.P.appealWindow + 1n);
  return kit.settle(caseAddr, keeper());
}

/** A funded and submitted job with `evaluator`; returns its id and the balances before. */
async function submitted(evaluator: Address, opts: { expiresIn?: bigint; description?: string } = {}) {
  const jobId = await arbKit.fundedJob(c, client(), provider().address, evaluator, { budget: BUDGET, ...opts });
  await arbKit.submitJob(c, provider(), jobId);
  return {
    jobId,
    client: await arbKit.tokenOf(c, client().address),
    provider: await arbKit.tokenOf(c, provider().address),
  };
}

describe("AgenticCommerce (ERC-8183)", () => {
  const commerce = () => arbKit.arbitrationOf(c).commerce;
  const job = (who: ReturnType<typeof kit.actor>, functionName: string, args: readonly unknown[]) =>
    who.send({
      to: commerce(),
      data: encodeFunctionData({ abi: arbKit.agenticCommerceAbi, functionName, args } as never),
    });

  it("each step only by its role and in its state: setProvider, setBudget, fund, submit, complete, reject, claimRefund", async () => {
    const now = (await c.reader.getBlock()).timestamp;
    const zero = "0x0000000000000000000000000000000000000000";
    await kit.expectRevert(job(client(), "createJob", [zero, zero, now + 3600n, "x", zero]), "InvalidEvaluator");
    await kit.expectRevert(job(client(), "createJob", [zero, keeper().address, now, "x", zero]), "ExpiryNotInFuture");
    await kit.expectRevert(
      job(client(), "createJob", [zero, keeper().address, now + 3600n, "x", keeper().address]),
      "HooksUnsupported",
    );
    await job(client(), "createJob", [zero, keeper().address, now + 3600n, "no provider yet", zero]);
    const id = await c.reader.readContract({
      address: commerce(),
      abi: arbKit.agenticCommerceAbi,
      functionName: "jobCount",
    });
    await kit.expectRevert(job(provider(), "setProvider", [id, provider().address, "0x"]), "NotClient");
    await job(client(), "setBudget", [id, BUDGET, "0x"]);
    await kit.expectRevert(job(client(), "fund", [id, BUDGET, "0x"]), "ProviderNotSet");
    await job(client(), "setProvider", [id, provider().address, "0x"]);
    await kit.expectRevert(job(client(), "setProvider", [id, keeper().address, "0x"]), "ProviderAlreadySet");
    await kit.expectRevert(job(keeper(), "setBudget", [id, 1n, "0x"]), "NotClientOrProvider");
    // The provider proposes a price; the client's stale expectation is refused (front-running).
    await job(provider(), "setBudget", [id, BUDGET + 1n, "0x"]);
    await client().write({
      address: arbKit.arbitrationOf(c).token,
      abi: kit.testUSDAbi,
      functionName: "approve",
      args: [commerce(), BUDGET + 1n],
    });
    await kit.expectRevert(job(client(), "fund", [id, BUDGET, "0x"]), "BudgetMismatch", [BUDGET + 1n, BUDGET]);
    await kit.expectRevert(job(provider(), "fund", [id, BUDGET + 1n, "0x"]), "NotClient");
    await kit.expectRevert(job(provider(), "submit", [id, arbKit.deliverableDigest("early"), "0x"]), "WrongStatus");
    await job(client(), "fund", [id, BUDGET + 1n, "0x"]);
    await kit.expectRevert(job(client(), "setBudget", [id, 1n, "0x"]), "WrongStatus");
    await kit.expectRevert(job(keeper(), "submit", [id, arbKit.deliverableDigest("x"), "0x"]), "NotProvider");
    await kit.expectRevert(job(client(), "reject", [id, toHex(0, { size: 32 }), "0x"]), "NotEvaluator");
    await kit.expectRevert(job(keeper(), "complete", [id, toHex(0, { size: 32 }), "0x"]), "WrongStatus");
    await kit.expectRevert(job(keeper(), "claimRefund", [id]), "NotExpired");
    await job(provider(), "submit", [id, arbKit.deliverableDigest("done"), "0x"]);
    await kit.expectRevert(job(client(), "complete", [id, toHex(0, { size: 32 }), "0x"]), "NotEvaluator");
    // The evaluator here is a plain account: it completes.
    const before = await arbKit.tokenOf(c, provider().address);
    await job(keeper(), "complete", [id, toHex(7, { size: 32 }), "0x"]);
    expect(await arbKit.tokenOf(c, provider().address)).toBe(before + BUDGET + 1n);
    await kit.expectRevert(job(keeper(), "reject", [id, toHex(0, { size: 32 }), "0x"]), "WrongStatus");
    await kit.expectRevert(job(keeper(), "claimRefund", [id]), "WrongStatus");
  });

  it("after expiry anyone refunds a funded or submitted job to its client", async () => {
    const j = await submitted(general, { expiresIn: 1000n });
    await kit.expectRevert(job(keeper(), "claimRefund", [j.jobId]), "NotExpired");
    await kit.advance(c, 1001);
    const r = await job(keeper(), "claimRefund", [j.jobId]);
    expect(parseEventLogs({ abi: arbKit.agenticCommerceAbi, eventName: "JobExpired", logs: r.logs })).toHaveLength(1);
    expect((await arbKit.readJob(c, j.jobId)).status).toBe(arbKit.JobStatus.Expired);
    expect(await arbKit.tokenOf(c, client().address)).toBe(j.client + BUDGET);
    expect((await arbKit.readEvaluation(c, general, j.jobId)).phase).toBe(arbKit.Phase.Closed);
    const [total, page] = await c.reader.readContract({
      address: commerce(),
      abi: arbKit.agenticCommerceAbi,
      functionName: "getJobs",
      args: [0n, 2n],
    });
    expect(page.map((x) => x.id)).toEqual([total, total - 1n]);
  });
});

describe("ValidationRegistry (ERC-8004)", () => {
  it("only the agent's owner or operator asks, once per hash; only the named validator answers, 0 to 100", async () => {
    const identity = c.devnet.deployment.erc8004?.identity as Address;
    const v = arbKit.arbitrationOf(c).validation;
    const val = (who: ReturnType<typeof kit.actor>, functionName: string, args: readonly unknown[]) =>
      who.send({ to: v, data: encodeFunctionData({ abi: arbKit.validationRegistryAbi, functionName, args } as never) });
    await kit.actor(c, 15).write({
      address: identity,
      abi: kit.identityRegistryAbi,
      functionName: "register",
      args: ["https://agents.example/15.json"],
    });
    const agentId = await c.reader.readContract({
      address: identity,
      abi: kit.identityRegistryAbi,
      functionName: "agentIdOf",
      args: [kit.actor(c, 15).address],
    });
    const hash = toHex(12345n, { size: 32 });
    await kit.expectRevert(
      val(keeper(), "validationRequest", [keeper().address, agentId, "ipfs://x", hash]),
      "NotAuthorized",
    );
    await kit.expectRevert(
      val(kit.actor(c, 15), "validationRequest", [keeper().address, 999_999n, "ipfs://x", hash]),
      "AgentNotFound",
    );
    await val(kit.actor(c, 15), "validationRequest", [keeper().address, agentId, "ipfs://x", hash]);
    await kit.expectRevert(
      val(kit.actor(c, 15), "validationRequest", [keeper().address, agentId, "ipfs://x", hash]),
      "RequestExists",
    );
    await kit.expectRevert(val(kit.actor(c, 15), "validationResponse", [hash, 100, "", hash, "t"]), "NotValidator");
    await kit.expectRevert(
      val(keeper(), "validationResponse", [hash, 101, "", hash, "t"]),
      "ResponseOutOfRange",
      [101],
    );
    await val(keeper(), "validationResponse", [hash, 80, "ipfs://answer", hash, "t"]);
    await val(keeper(), "validationResponse", [hash, 60, "ipfs://again", hash, "t"]);
    const read = <T>(functionName: string, args: readonly unknown[]) =>
      c.reader.readContract({
        address: v,
        abi: arbKit.validationRegistryAbi,
        functionName,
        args,
      } as never) as Promise<T>;
    expect((await read<unknown[]>("getValidationStatus", [hash])).slice(0, 3)).toEqual([keeper().address, agentId, 60]);
    expect(await read("getSummary", [agentId, [], ""])).toEqual([1n, 60]);
    expect(await read("getSummary", [agentId, [client().address], ""])).toEqual([0n, 0]);
    expect(await read("getAgentValidations", [agentId])).toEqual([hash]);
    expect(await read("getValidatorRequests", [keeper().address])).toContain(hash);
    expect(await read("getIdentityRegistry", [])).toBe(identity);
  });
});

describe("jobs: the challenge window", () => {
  it("undisputed: nobody may finalize during the window; after it anyone does and the provider is paid", async () => {
    const held = await commerceBalance();
    const j = await submitted(general);
    expect(await commerceBalance()).toBe(held + BUDGET);
    const e = await arbKit.readEvaluation(c, general, j.jobId);
    expect(e.phase).toBe(arbKit.Phase.InWindow);
    await kit.expectRevert(finalize(general, j.jobId), "ChallengeWindowOpen", [e.windowEndsAt]);
    await kit.advance(c, 301);
    expect((await arbKit.readEvaluation(c, general, j.jobId)).phase).toBe(arbKit.Phase.Finalizable);
    const r = await finalize(general, j.jobId);
    expect(parseEventLogs({ abi: arbKit.courtEvaluatorAbi, eventName: "JobFinalized", logs: r.logs })).toHaveLength(1);
    expect((await arbKit.readJob(c, j.jobId)).status).toBe(arbKit.JobStatus.Completed);
    expect(await arbKit.tokenOf(c, provider().address)).toBe(j.provider + BUDGET);
    expect(await arbKit.tokenOf(c, client().address)).toBe(j.client);
    expect(await commerceBalance()).toBe(held);
    expect((await arbKit.readEvaluation(c, general, j.jobId)).phase).toBe(arbKit.Phase.Finalized);
    // After the window the client can no longer dispute.
    const k = await submitted(general);
    await kit.advance(c, 301);
    await kit.expectRevert(arbKit.disputeJob(c, general, client(), k.jobId, "bafkreilate"), "ChallengeWindowClosed");
    await finalize(general, k.jobId);
  });

  it("only the client disputes, once, and only a submitted job of this evaluator; a disputed job cannot be finalized", async () => {
    const j = await submitted(general);
    const dispute = (who = client(), jobId = j.jobId, evaluator = general) =>
      arbKit.disputeJob(c, evaluator, who, jobId, "bafkreiclaim");
    await kit.expectRevert(dispute(provider()), "OnlyClient", [provider().address]);
    await kit.expectRevert(dispute(client(), j.jobId, hiddenCourt), "NotThisEvaluator", [j.jobId]);
    const funded = await arbKit.fundedJob(c, client(), provider().address, general);
    await kit.expectRevert(dispute(client(), funded), "NotSubmitted", [funded]);
    await dispute();
    await kit.expectRevert(dispute(), "AlreadyDisputed", [j.jobId]);
    await kit.advance(c, 301);
    await kit.expectRevert(finalize(general, j.jobId), "AlreadyDisputed", [j.jobId]);
  });

  it("a dispute that could be ruled after the job expires is refused up front", async () => {
    // + 1: the lapsed appeal ends a second after its deadline (public votes; see maxDuration).
    const maxDuration = BigInt(kit.P.responseWindow + kit.P.appealWindow + 4n * kit.P.deliberationPeriod + 1n);
    const j = await submitted(general, { expiresIn: maxDuration - 100n });
    await kit.expectRevert(arbKit.disputeJob(c, general, client(), j.jobId, "bafkreiclaim"), "JobExpiresBeforeRuling");
    const deadline = await c.reader.readContract({
      address: general,
      abi: arbKit.courtEvaluatorAbi,
      functionName: "rulingDeadline",
    });
    const now = (await c.reader.getBlock()).timestamp;
    expect(deadline - now).toBe(maxDuration);
  });
});

describe("jobs: disputes judged by the court", () => {
  it("the case names the client against the provider, with the job's description and deliverable as a CID", async () => {
    const description = "Translate the contract into French. ".repeat(3);
    const jobId = await arbKit.fundedJob(c, client(), provider().address, general, { description });
    await arbKit.submitJob(c, provider(), jobId, arbKit.deliverableDigest("la traduction"));
    const { caseAddr } = await arbKit.disputeJob(c, general, client(), jobId, "bafkreiclientsays");
    const v = await kit.readCase(c, caseAddr);
    expect(v.plaintiff).toBe(client().address);
    expect(v.defendant).toBe(provider().address);
    expect(v.evidenceIpfsHash).toBe("bafkreiclientsays");
    expect(v.claimDescription).toContain(`ERC-8183 job ${jobId} on ${arbKit.arbitrationOf(c).commerce.toLowerCase()}`);
    expect(v.claimDescription).toContain(rawCid("la traduction").toString());
    expect(v.claimDescription.endsWith(description)).toBe(true);
    expect(
      await c.reader.readContract({
        address: general,
        abi: arbKit.courtEvaluatorAbi,
        functionName: "deliverableCid",
        args: [arbKit.deliverableDigest("la traduction")],
      }),
    ).toBe(rawCid("la traduction").toString());
    const e = await arbKit.readEvaluation(c, general, jobId);
    expect([e.phase, e.disputed, e.caseAddr]).toEqual([arbKit.Phase.Disputed, true, caseAddr]);
  });

  it("public votes, the provider wins: the ruling completes the job and the provider is paid", async () => {
    const held = await commerceBalance();
    const j = await submitted(general);
    const { disputeId, caseAddr } = await arbKit.disputeJob(c, general, client(), j.jobId);
    const r = await judgedPublicly(caseAddr, false);
    const ruled = parseEventLogs({ abi: arbKit.courtEvaluatorAbi, eventName: "JobRuled", logs: r.logs });
    expect(ruled.map((l) => [l.args.jobId, l.args.disputeId, l.args.ruling, l.args.completed])).toEqual([
      [j.jobId, disputeId, 2n, true],
    ]);
    const job = await arbKit.readJob(c, j.jobId);
    expect(job.status).toBe(arbKit.JobStatus.Completed);
    expect(job.reason).toBe(toHex(BigInt(caseAddr), { size: 32 }));
    expect(await arbKit.tokenOf(c, provider().address)).toBe(j.provider + BUDGET);
    expect(await arbKit.tokenOf(c, client().address)).toBe(j.client);
    expect(await commerceBalance()).toBe(held);
    expect((await arbKit.readEvaluation(c, general, j.jobId)).phase).toBe(arbKit.Phase.Ruled);
  });

  it("public votes, the client wins: the ruling rejects the job and refunds the client", async () => {
    const j = await submitted(general);
    const { caseAddr } = await arbKit.disputeJob(c, general, client(), j.jobId);
    await judgedPublicly(caseAddr, true);
    expect((await arbKit.readJob(c, j.jobId)).status).toBe(arbKit.JobStatus.Rejected);
    expect(await arbKit.tokenOf(c, client().address)).toBe(j.client + BUDGET);
    expect(await arbKit.tokenOf(c, provider().address)).toBe(j.provider);
  });

  it("hidden votes (Agentic Commerce), both ways: the escrow goes to whoever the revealed majority found for", async () => {
    for (const clientWins of [true, false]) {
      const j = await submitted(hiddenCourt);
      const { caseAddr } = await arbKit.disputeJob(c, hiddenCourt, client(), j.jobId);
      expect((await kit.readCase(c, caseAddr)).hiddenVotes).toBe(true);
      expect((await kit.readCase(c, caseAddr)).courtId).toBe(BigInt(COMMERCE));
      await kit.respond(caseAddr, provider(), 0n);
      await kit.seat(c, caseAddr, panel());
      await kit.commitAndReveal(c, caseAddr, [
        [panel()[0] as never, clientWins],
        [panel()[1] as never, clientWins],
        [panel()[2] as never, !clientWins],
      ]);
      expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Resolved);
      await kit.advance(c, kit.P.appealWindow + 1n);
      await kit.settle(caseAddr, keeper());
      expect((await arbKit.readJob(c, j.jobId)).status).toBe(
        clientWins ? arbKit.JobStatus.Rejected : arbKit.JobStatus.Completed,
      );
      expect(await arbKit.tokenOf(c, client().address)).toBe(j.client + (clientWins ? BUDGET : 0n));
      expect(await arbKit.tokenOf(c, provider().address)).toBe(j.provider + (clientWins ? 0n : BUDGET));
    }
  });

  it("the provider who never answers loses by default; a dismissed case (ruling 0) refunds the client: no verdict is no acceptance", async () => {
    const j = await submitted(general);
    const { caseAddr } = await arbKit.disputeJob(c, general, client(), j.jobId);
    await kit.advance(c, kit.P.responseWindow + 1n);
    await kit.triggerDefault(caseAddr, keeper());
    expect((await arbKit.readJob(c, j.jobId)).status).toBe(arbKit.JobStatus.Rejected);
    expect(await arbKit.tokenOf(c, client().address)).toBe(j.client + BUDGET);

    const k = await submitted(general);
    const dismissed = await arbKit.disputeJob(c, general, client(), k.jobId);
    await kit.respond(dismissed.caseAddr, provider(), 0n);
    await kit.seat(c, dismissed.caseAddr, panel());
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(dismissed.caseAddr, keeper());
    expect((await kit.readCase(c, dismissed.caseAddr)).state).toBe(kit.State.Dismissed);
    const job = await arbKit.readJob(c, k.jobId);
    expect(job.status).toBe(arbKit.JobStatus.Rejected);
    expect(await arbKit.tokenOf(c, provider().address)).toBe(k.provider);
    expect(await arbKit.tokenOf(c, client().address)).toBe(k.client + BUDGET);
    const e = await arbKit.readEvaluation(c, general, k.jobId);
    expect([e.phase, e.ruling]).toEqual([arbKit.Phase.Ruled, 0]);
  });
});

describe("jobs: the court as an ERC-8004 validator", () => {
  it("when the case ends, the evaluator answers the provider agent's validation request for the job: 100 won, 0 lost", async () => {
    const a = arbKit.arbitrationOf(c);
    const identity = c.devnet.deployment.erc8004?.identity as Address;
    await provider().write({
      address: identity,
      abi: kit.identityRegistryAbi,
      functionName: "register",
      args: ["https://agents.example/provider.json"],
    });
    const agentId = await c.reader.readContract({
      address: identity,
      abi: kit.identityRegistryAbi,
      functionName: "agentIdOf",
      args: [provider().address],
    });
    expect(agentId).toBeGreaterThan(0n);
    for (const providerWins of [true, false]) {
      const j = await submitted(general);
      const requestHash = await c.reader.readContract({
        address: general,
        abi: arbKit.courtEvaluatorAbi,
        functionName: "validationRequestHash",
        args: [j.jobId, agentId],
      });
      await provider().write({
        address: a.validation,
        abi: arbKit.validationRegistryAbi,
        functionName: "validationRequest",
        args: [general, agentId, "ipfs://bafkreiprovidersrequest", requestHash],
      });
      const { caseAddr } = await arbKit.disputeJob(c, general, client(), j.jobId);
      const r = await judgedPublicly(caseAddr, !providerWins);
      const [answered] = parseEventLogs({
        abi: arbKit.validationRegistryAbi,
        eventName: "ValidationResponse",
        logs: r.logs,
      });
      expect(answered?.args.responseURI).toBe(`eip155:${c.devnet.chainId}:${caseAddr.toLowerCase()}`);
      const [validator, agent, response, responseHash, tag] = await c.reader.readContract({
        address: a.validation,
        abi: arbKit.validationRegistryAbi,
        functionName: "getValidationStatus",
        args: [requestHash],
      });
      expect([validator, agent, response, responseHash, tag]).toEqual([
        general,
        agentId,
        providerWins ? 100 : 0,
        toHex(BigInt(caseAddr), { size: 32 }),
        "docket-ruling",
      ]);
    }
  });

  it("a job with no validation request, or a request from another agent, is ruled all the same", async () => {
    const j = await submitted(general);
    const { caseAddr } = await arbKit.disputeJob(c, general, client(), j.jobId);
    const r = await judgedPublicly(caseAddr, false);
    expect(
      parseEventLogs({ abi: arbKit.validationRegistryAbi, eventName: "ValidationResponse", logs: r.logs }),
    ).toHaveLength(0);
    expect((await arbKit.readJob(c, j.jobId)).status).toBe(arbKit.JobStatus.Completed);
  });
});
