/**
 * Issue #31, the ERC-8183 job side, each attack replayed with real transactions: a job the court
 * could not judge is refunded, never paid by silence (1); a case dismissed without a verdict
 * refunds the client (2b, from the evaluator's side); a squatter cannot take the provider's ERC-8004
 * validation request for its job (4). docs/security.md ("ERC-8183 jobs") names these tests.
 */
import { type Address, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as arbKit from "./arbitrationHelpers.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;
const client = () => kit.actor(c, 1);
const provider = () => kit.actor(c, 2);
const keeper = () => kit.actor(c, 5);
const squatter = () => kit.actor(c, 15);
const panel = () => arbKit.eightJudges(c).slice(0, 3);
const BUDGET = 50_000_000n;
const WINDOW = 300n;
let general: Address;

beforeAll(async () => {
  c = await kit.bootCourt(kit.P);
  await kit.stakeJudges(c, arbKit.eightJudges(c), 10n ** 18n, 2n);
  await arbKit.mintJobToken(c, client().address, 1000n * BUDGET);
  general = arbKit.evaluatorOf(c, 1);
}, 120_000);

afterAll(async () => {
  await c?.stop();
});

const balances = async () => ({
  client: await arbKit.tokenOf(c, client().address),
  provider: await arbKit.tokenOf(c, provider().address),
});
const maxDuration = () =>
  c.reader.readContract({
    address: arbKit.arbitrationOf(c).arbitrator,
    abi: arbKit.docketArbitratorAbi,
    functionName: "maxDuration",
    args: ["0x"],
  });
const finalize = (jobId: bigint) =>
  keeper().write({ address: general, abi: arbKit.courtEvaluatorAbi, functionName: "finalize", args: [jobId] });

/** A job created and funded now, submitted in the next block, expiring `expiresAfterSubmission` seconds after it. */
async function submittedExpiring(expiresAfterSubmission: bigint) {
  // fundedJob's expiry counts from the block before createJob; four more blocks follow (create,
  // budget, approve, fund) and the submission is the fifth, each one second later on anvil.
  const jobId = await arbKit.fundedJob(c, client(), provider().address, general, {
    budget: BUDGET,
    expiresIn: expiresAfterSubmission + 5n,
  });
  const before = await balances();
  await arbKit.submitJob(c, provider(), jobId);
  const job = await arbKit.readJob(c, jobId);
  expect(job.expiredAt - BigInt(job.submittedAt)).toBe(expiresAfterSubmission);
  return { jobId, before };
}

describe("issue 31 (1): a job the court cannot judge is refunded, never paid by silence", () => {
  it("dev timings, expiry 2,400 s after submission: the dispute is refused and finalize refunds the client", async () => {
    const { jobId, before } = await submittedExpiring(2400n);
    await kit.expectRevert(arbKit.disputeJob(c, general, client(), jobId, "bafkreijunk"), "JobExpiresBeforeRuling");
    await kit.advance(c, WINDOW + 1n);
    const r = await finalize(jobId);
    expect(await balances()).toEqual({ client: before.client + BUDGET, provider: before.provider });
    expect((await arbKit.readJob(c, jobId)).status).toBe(arbKit.JobStatus.Rejected);
    const [fin] = parseEventLogs({ abi: arbKit.courtEvaluatorAbi, eventName: "JobFinalized", logs: r.logs });
    expect(fin?.args.refunded).toBe(true);
  });

  it("the rule's edge: paid only when a dispute at the window's last second could still be ruled before expiry", async () => {
    const d = await maxDuration();
    // windowEnd + maxDuration == expiredAt: a dispute at the window's end would be refused, so no payment.
    const edge = await submittedExpiring(WINDOW + d);
    // One second more: the client could dispute through the whole window, and chose not to.
    const room = await submittedExpiring(WINDOW + d + 1n);
    await kit.advance(c, WINDOW + 1n);
    await finalize(edge.jobId);
    await finalize(room.jobId);
    expect((await arbKit.readJob(c, edge.jobId)).status).toBe(arbKit.JobStatus.Rejected);
    expect((await arbKit.readJob(c, room.jobId)).status).toBe(arbKit.JobStatus.Completed);
  });
});

describe("issue 31 (2b): no verdict is not no objection", () => {
  it("nobody seats a panel, the deadline passes, the case is dismissed (ruling 0): the client is refunded", async () => {
    const { jobId, before } = await submittedExpiring(7200n);
    const { caseAddr } = await arbKit.disputeJob(c, general, client(), jobId, "bafkreijunk");
    await kit.respond(caseAddr, provider(), 0n);
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    const r = await kit.resolveAfterDeadline(caseAddr, keeper());
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Dismissed);
    const [ruled] = parseEventLogs({ abi: arbKit.courtEvaluatorAbi, eventName: "JobRuled", logs: r.logs });
    expect(await balances()).toEqual({ client: before.client + BUDGET, provider: before.provider });
    expect((await arbKit.readJob(c, jobId)).status).toBe(arbKit.JobStatus.Rejected);
    expect([ruled?.args.ruling, ruled?.args.completed]).toEqual([0n, false]);
  });

  it("a seated panel that never votes: dismissed at the deadline, the client is refunded", async () => {
    const { jobId, before } = await submittedExpiring(7200n);
    const { caseAddr } = await arbKit.disputeJob(c, general, client(), jobId, "bafkreijunk");
    await kit.respond(caseAddr, provider(), 0n);
    await kit.seat(c, caseAddr, panel());
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await kit.resolveAfterDeadline(caseAddr, keeper());
    expect((await arbKit.readJob(c, jobId)).status).toBe(arbKit.JobStatus.Rejected);
    expect(await balances()).toEqual({ client: before.client + BUDGET, provider: before.provider });
  });
});

describe("issue 31 (4): a squatter cannot block the provider's ERC-8004 validation of its job", () => {
  const identity = () => c.devnet.deployment.erc8004?.identity as Address;
  async function agentOf(who: ReturnType<typeof kit.actor>, uri: string) {
    const read = () =>
      c.reader.readContract({
        address: identity(),
        abi: kit.identityRegistryAbi,
        functionName: "agentIdOf",
        args: [who.address],
      });
    if ((await read()) === 0n)
      await who.write({ address: identity(), abi: kit.identityRegistryAbi, functionName: "register", args: [uri] });
    return read();
  }
  const request = (who: ReturnType<typeof kit.actor>, agentId: bigint, hash: `0x${string}`) =>
    who.write({
      address: arbKit.arbitrationOf(c).validation,
      abi: arbKit.validationRegistryAbi,
      functionName: "validationRequest",
      args: [general, agentId, "ipfs://bafkreirequest", hash],
    });

  it("the squatter files the job's predictable request hash first, under its own agent; the provider's request still stands and is answered", async () => {
    const providerAgent = await agentOf(provider(), "https://agents.example/provider.json");
    const squatterAgent = await agentOf(squatter(), "https://agents.example/squatter.json");
    const { jobId } = await submittedExpiring(7200n);
    const hash = await c.reader.readContract({
      address: general,
      abi: arbKit.courtEvaluatorAbi,
      functionName: "validationRequestHash",
      args: [jobId, providerAgent],
    });
    await request(squatter(), squatterAgent, hash);
    await request(provider(), providerAgent, hash);
    const { caseAddr } = await arbKit.disputeJob(c, general, client(), jobId, "bafkreijunk");
    await kit.respond(caseAddr, provider(), 0n);
    await kit.seat(c, caseAddr, panel());
    for (const judge of panel().slice(0, 2)) await kit.vote(caseAddr, judge, false);
    await kit.advance(c, kit.P.appealWindow + 1n);
    const r = await kit.settle(caseAddr, keeper());
    const answered = parseEventLogs({
      abi: arbKit.validationRegistryAbi,
      eventName: "ValidationResponse",
      logs: r.logs,
    });
    expect(answered.map((l) => [l.args.agentId, l.args.requestHash, l.args.response])).toEqual([
      [providerAgent, hash, 100],
    ]);
    // The squatter's request is its own and unanswered; a hash-only lookup no longer picks one of the two.
    const v = arbKit.arbitrationOf(c).validation;
    const status = (agentId: bigint) =>
      c.reader.readContract({
        address: v,
        abi: arbKit.validationRegistryAbi,
        functionName: "isAnswered",
        args: [agentId, hash],
      });
    expect([await status(providerAgent), await status(squatterAgent)]).toEqual([
      [true, true],
      [true, false],
    ]);
    await kit.expectRevert(
      c.reader.readContract({
        address: v,
        abi: arbKit.validationRegistryAbi,
        functionName: "getValidationStatus",
        args: [hash],
      }),
      "RequestAmbiguous",
      [hash],
    );
  });
});
