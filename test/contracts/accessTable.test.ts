/**
 * Who may call every state-changing function of the three contracts, as one table, checked for
 * completeness against the generated ABIs: a function added to a contract fails this file until it
 * is listed here. Each row is also run: a restricted function refuses a wrong caller with the
 * named error, and an open one ("anyone") lets a stranger who takes no other part in the case do
 * it. The detailed refusals (wrong state, deadlines, arguments) live in the tests each row cites;
 * the citations are checked too, so they cannot go stale silently.
 */

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Abi, type Address, encodeFunctionData, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseTerms, courtConfig, DEV_TOKEN_FILING_FEE } from "../../src/deploy/terms.js";
import type { Actor } from "../../src/devnet/actor.js";
import * as arbKit from "./arbitrationHelpers.js";
import * as kit from "./helpers.js";

type ContractName =
  | "CourtRegistry"
  | "CaseFactory"
  | "DisputeCase"
  | "CourtReputation"
  | "DocketArbitrator"
  | "AgenticCommerce"
  | "CourtEvaluator"
  | "ValidationRegistry";

/** Who may call a function, and so who is refused (and with which error). */
type Access =
  /** Only the owner of the contract (the factory's owner for CaseFactory). */
  | { only: "owner" }
  /** Only the CaseFactory (a case's own factory, or the registry's linked factory). */
  | { only: "factory" }
  /** Only a case contract the factory created. */
  | { only: "case" }
  /** Only the factory, once, when it clones the case; nobody after. */
  | { only: "initializer" }
  /** Only a party to the case in the given role. */
  | { only: "role"; role: string; error: string }
  /** Anyone, but it acts on the caller's own account: a caller with nothing there is refused. */
  | { only: "self"; what: string; error: string }
  /** Anyone at all (a keeper, or any agent for itself). */
  | { only: "anyone" };

const errorOf: Record<string, string> = {
  owner: "OnlyOwner",
  factory: "OnlyFactory",
  case: "OnlyCase",
  initializer: "AlreadyInitialized",
};

interface Row {
  /** Who may call it, in words. */
  mayCall: string;
  access: Access;
  /** Existing tests that assert this in detail: file in test/contracts, and the test's title. */
  coveredBy: { file: string; test: string }[];
  /** Runs the check: a wrong caller refused, or (for "anyone") a stranger allowed. */
  check: () => Promise<unknown>;
}

let c: kit.CourtDeployment;
/** A second court, with hidden votes, for the commit-reveal rows (a public court refuses them all). */
let h: kit.CourtDeployment;
/** On `h`: a case deliberating, panel judge(0..2), judge(0) committed. */
let hidden: Address = "0x";
/** Cases prepared in each stage the checks need. */
const cases: Record<
  "expiredSummons" | "expiredActive" | "settleable" | "summoned" | "active" | "deliberating" | "resolved",
  Address
> = {
  expiredSummons: "0x",
  expiredActive: "0x",
  settleable: "0x",
  summoned: "0x",
  active: "0x",
  deliberating: "0x",
  resolved: "0x",
};
const party = (i: number) => kit.actor(c, i);
const judge = (i: number) => kit.actor(c, 7 + i);
/** Takes no part in any case here, holds no stake and is owed nothing. */
const stranger = () => kit.actor(c, 16);

const panel = () => [judge(0), judge(1), judge(2)];
const terms = caseTerms(kit.P);

/** Sends a write by name, as a wallet would send raw calldata. */
const call = (who: Actor, to: Address, abi: Abi, functionName: string, args: readonly unknown[], value?: bigint) =>
  who.send({ to, value, data: encodeFunctionData({ abi, functionName, args }) });
const reg = (who: Actor, functionName: string, args: readonly unknown[] = [], value?: bigint) =>
  call(who, c.registry, kit.courtRegistryAbi, functionName, args, value);
const fac = (who: Actor, functionName: string, args: readonly unknown[] = [], value?: bigint) =>
  call(who, c.factory, kit.caseFactoryAbi, functionName, args, value);
const onCase = (caseAddr: Address, who: Actor, functionName: string, args: readonly unknown[] = [], value?: bigint) =>
  call(who, caseAddr, kit.disputeCaseAbi, functionName, args, value);

const A = "access.test.ts";
const CA = "caseAccess.test.ts";
const ACC = "accounting.test.ts";
const PAY = "payments.test.ts";
const HV = "hiddenVotes.test.ts";
const FF = "filingFee.test.ts";
const DG = "drawGrinding.test.ts";
const E8 = "erc8004.test.ts";
const reporter = () => (c.devnet.deployment.erc8004 as { reporter: Address }).reporter;
const TF = "tokenFee.test.ts";
const AR = "arbitration.test.ts";
const RC = "records.test.ts";
const JB = "jobs.test.ts";
const ERC8183 =
  "each step only by its role and in its state: setProvider, setBudget, fund, submit, complete, reject, claimRefund";
const VR = "only the agent's owner or operator asks, once per hash; only the named validator answers, 0 to 100";
const arbitration = () => arbKit.arbitrationOf(c);
const general = () => arbKit.evaluatorOf(c, 1);
/** Prepared in beforeAll: an arbitrated case's ruling that failed to deliver (still failing), a job
 * past its challenge window, a job past its expiry. */
const prepared = { failedDispute: 0n, finalizable: 0n, expired: 0n };
const arb = (who: Actor, functionName: string, args: readonly unknown[] = [], value?: bigint) =>
  call(who, arbitration().arbitrator, arbKit.docketArbitratorAbi, functionName, args, value);
const job = (who: Actor, functionName: string, args: readonly unknown[] = []) =>
  call(who, arbitration().commerce, arbKit.agenticCommerceAbi, functionName, args);
const ev = (who: Actor, functionName: string, args: readonly unknown[] = [], value?: bigint) =>
  call(who, general(), arbKit.courtEvaluatorAbi, functionName, args, value);
const val = (who: Actor, functionName: string, args: readonly unknown[] = []) =>
  call(who, arbitration().validation, arbKit.validationRegistryAbi, functionName, args);
/** A new job of party(1) for party(2) with the General court's evaluator, taken as far as `stage`. */
async function jobAt(stage: "open" | "funded" | "submitted"): Promise<bigint> {
  if (stage === "open") {
    const now = (await c.reader.getBlock()).timestamp;
    await job(party(1), "createJob", [ZERO, general(), now + 7200n, "a job", ZERO]);
    return c.reader.readContract({
      address: arbitration().commerce,
      abi: arbKit.agenticCommerceAbi,
      functionName: "jobCount",
    });
  }
  const id = await arbKit.fundedJob(c, party(1), party(2).address, general(), { budget: 1_000_000n });
  if (stage === "submitted") await arbKit.submitJob(c, party(2), id);
  return id;
}
const ZERO = "0x0000000000000000000000000000000000000000";
/** `who` registers an ERC-8004 agent; its id. */
async function newAgent(who: Actor): Promise<bigint> {
  const identity = c.devnet.deployment.erc8004?.identity as Address;
  await who.send({
    to: identity,
    data: encodeFunctionData({ abi: kit.identityRegistryAbi, functionName: "register", args: [] }),
  });
  return c.reader.readContract({
    address: identity,
    abi: kit.identityRegistryAbi,
    functionName: "agentIdOf",
    args: [who.address],
  });
}
const CT = "courts.test.ts";

/** Every state-changing function of the three ABIs, keyed by signature. */
const table: Record<ContractName, Record<string, Row>> = {
  CourtRegistry: {
    "setFactory(address)": {
      mayCall: "the registry owner, once, at deployment",
      access: { only: "owner" },
      coveredBy: [{ file: A, test: "owner-only: setFactory and withdrawTreasury; the factory is set once" }],
      check: () => kit.expectRevert(reg(stranger(), "setFactory", [stranger().address]), "OnlyOwner"),
    },
    "registerCase(address)": {
      mayCall: "the linked CaseFactory, when it files a case",
      access: { only: "factory" },
      coveredBy: [{ file: A, test: "only the factory registers cases; only cases touch judges and records" }],
      check: () => kit.expectRevert(reg(c.owner, "registerCase", [c.owner.address]), "OnlyFactory"),
    },
    "selfRegister(string,string)": {
      mayCall: "anyone, for itself",
      access: { only: "anyone" },
      coveredBy: [{ file: A, test: "selfRegister: name required, name and URI bounded, id kept on update" }],
      check: async () => {
        await reg(stranger(), "selfRegister", ["stranger", ""]);
        expect(
          (
            await c.reader.readContract({
              address: c.registry,
              abi: kit.courtRegistryAbi,
              functionName: "getAgent",
              args: [stranger().address],
            })
          ).registered,
        ).toBe(true);
      },
    },
    "stakeAsJudge(uint96)": {
      mayCall: "anyone, for itself, in a court that exists (at least that court's minimum stake in all)",
      access: { only: "anyone" },
      coveredBy: [
        { file: A, test: "stakeAsJudge: below the minimum, or nothing sent, is refused" },
        { file: CT, test: "stakes per court: each court's minimum, unstakeFrom one court, at most four courts" },
      ],
      check: async () => {
        // It stays staked: a draw armed in the General court may be waiting here, and then no
        // judge counted in it may leave (issue #31, DrawPendingInCourt).
        const who = kit.actor(c, 17);
        await reg(who, "stakeAsJudge", [0n], kit.P.minJudgeStake);
        expect(await kit.readView(c, c.registry, kit.courtRegistryAbi, "isEligibleJudgeIn", [who.address, 1n])).toBe(
          true,
        );
      },
    },
    "unstakeFrom(uint96)": {
      mayCall:
        "a judge, for its own stake in one court, while not serving on an open case and while no armed draw waits in that court or one above it",
      access: { only: "self", what: "a stake in the court", error: "NotStakedInCourt" },
      coveredBy: [
        { file: CT, test: "stakes per court: each court's minimum, unstakeFrom one court, at most four courts" },
      ],
      check: () => kit.expectRevert(reg(stranger(), "unstakeFrom", [1n]), "NotStakedInCourt", [1n]),
    },
    "createCourt(uint96,string,string,(uint256,uint16,(uint64,uint64,uint64,uint16,uint16,uint256,uint256,bool,uint64,uint64,uint16,uint16)))":
      {
        mayCall: "the registry owner",
        access: { only: "owner" },
        coveredBy: [
          { file: CT, test: "createCourt and setCourt: the owner only; names, policies, stakes and terms are checked" },
        ],
        check: () =>
          kit.expectRevert(
            reg(stranger(), "createCourt", [1n, "Rogue", "bafkreirogue", courtConfig(kit.P)]),
            "OnlyOwner",
          ),
      },
    "setCourt(uint96,string,string,(uint256,uint16,(uint64,uint64,uint64,uint16,uint16,uint256,uint256,bool,uint64,uint64,uint16,uint16)))":
      {
        mayCall: "the registry owner",
        access: { only: "owner" },
        coveredBy: [
          { file: CT, test: "createCourt and setCourt: the owner only; names, policies, stakes and terms are checked" },
          { file: CT, test: "a court's changes never reach a case filed before them" },
        ],
        check: () =>
          kit.expectRevert(
            reg(stranger(), "setCourt", [1n, "General", "bafkreirogue", courtConfig(kit.P)]),
            "OnlyOwner",
          ),
      },
    "fallback()": {
      mayCall:
        "anyone: it runs RegistryBook's functions (each a row here) on the registry's storage; any other selector, or coin sent, is refused",
      access: { only: "anyone" },
      coveredBy: [
        {
          file: CT,
          test: "the registry's second half (RegistryBook) runs only on the registry's storage: called directly it holds nothing and changes nothing",
        },
      ],
      // A stranger's transaction reaches a book function through it; the book's writes refuse it themselves.
      check: async () => {
        expect((await reg(stranger(), "getOverview")).status).toBe("success");
        await kit.expectRevert(
          reg(stranger(), "setCourt", [1n, "General", "bafkreirogue", courtConfig(kit.P)]),
          "OnlyOwner",
        );
      },
    },
    "unstake()": {
      mayCall:
        "a judge, for its own stake, while not serving on an open case and while no armed draw waits in a court its stakes count in",
      access: { only: "self", what: "a stake", error: "NothingStaked" },
      coveredBy: [{ file: A, test: "unstake: nothing staked, or still serving on an open case, is refused" }],
      check: () => kit.expectRevert(reg(stranger(), "unstake"), "NothingStaked"),
    },
    "drawArmed(uint96)": {
      mayCall: "a case created by the factory, when it arms a draw",
      access: { only: "case" },
      coveredBy: [
        {
          file: CT,
          test: "a judge staked after the arming is never drawn, and no leaf is freed for it while the draw waits",
        },
        {
          file: "drawLock.test.ts",
          test: "the defendant's sybil judge cannot leave between the answer and the draw; the draw seats the panel",
        },
      ],
      check: () => kit.expectRevert(reg(c.owner, "drawArmed", [1n]), "OnlyCase"),
    },
    "drawSettled()": {
      mayCall: "a case created by the factory, when its armed draw seats a panel or it ends without one",
      access: { only: "case" },
      coveredBy: [
        {
          file: "drawLock.test.ts",
          test: "a judge of a court whose draw has no panel leaves once the case is dismissed at the deadline",
        },
      ],
      check: () => kit.expectRevert(reg(c.owner, "drawSettled"), "OnlyCase"),
    },
    "judgeAssigned(address)": {
      mayCall: "a case created by the factory",
      access: { only: "case" },
      coveredBy: [{ file: A, test: "only the factory registers cases; only cases touch judges and records" }],
      check: () => kit.expectRevert(reg(c.owner, "judgeAssigned", [judge(0).address]), "OnlyCase"),
    },
    "judgeVoted(address)": {
      mayCall: "a case created by the factory",
      access: { only: "case" },
      coveredBy: [{ file: A, test: "only the factory registers cases; only cases touch judges and records" }],
      check: () => kit.expectRevert(reg(c.owner, "judgeVoted", [judge(0).address]), "OnlyCase"),
    },
    "judgeReleased(address,uint8)": {
      mayCall: "a case created by the factory",
      access: { only: "case" },
      coveredBy: [{ file: A, test: "only the factory registers cases; only cases touch judges and records" }],
      check: () => kit.expectRevert(reg(c.owner, "judgeReleased", [judge(0).address, 1]), "OnlyCase"),
    },
    "creditRewards(address[],uint256)": {
      mayCall: "a case created by the factory, sending its court fee",
      access: { only: "case" },
      coveredBy: [{ file: A, test: "only the factory registers cases; only cases touch judges and records" }],
      check: () => kit.expectRevert(reg(c.owner, "creditRewards", [[c.owner.address], 1n], 1n), "OnlyCase"),
    },
    "recordParties(address,address,bool)": {
      mayCall: "a case created by the factory",
      access: { only: "case" },
      coveredBy: [{ file: A, test: "only the factory registers cases; only cases touch judges and records" }],
      check: () =>
        kit.expectRevert(reg(c.owner, "recordParties", [c.owner.address, party(1).address, false]), "OnlyCase"),
    },
    "recordDismissal(address,address)": {
      mayCall: "a case created by the factory",
      access: { only: "case" },
      coveredBy: [
        {
          file: E8,
          test: "a default: the defendant's feedback says defaulted, the plaintiff's a default win (no verdict); a dismissal gives both parties dismissed",
        },
      ],
      check: () => kit.expectRevert(reg(c.owner, "recordDismissal", [c.owner.address, party(1).address]), "OnlyCase"),
    },
    "setOutcomeHook(address)": {
      mayCall: "the registry owner",
      access: { only: "owner" },
      coveredBy: [
        {
          file: E8,
          test: "a registry that reverts cannot block a case's end; too little gas for the hook is refused up front",
        },
        {
          file: E8,
          test: "#26 hole 6: a hook with no code is refused when set and skipped when called; every way to end a case still works",
        },
      ],
      check: () => kit.expectRevert(reg(stranger(), "setOutcomeHook", [stranger().address]), "OnlyOwner"),
    },
    "withdrawTreasury(address,uint256)": {
      mayCall: "the registry owner",
      access: { only: "owner" },
      coveredBy: [
        { file: A, test: "owner-only: setFactory and withdrawTreasury; the factory is set once" },
        { file: PAY, test: "the registry refuses to lose money to a recipient that rejects it" },
      ],
      check: () => kit.expectRevert(reg(stranger(), "withdrawTreasury", [stranger().address, 0n]), "OnlyOwner"),
    },
  },
  CaseFactory: {
    "fileDispute((uint96,uint16,address,address,string,string,address,uint256))": {
      mayCall: "the factory's arbitrator (DocketArbitrator), when an arbitrable creates a dispute",
      access: { only: "role", role: "arbitrator", error: "OnlyArbitrator" },
      coveredBy: [
        {
          file: AR,
          test: "only the arbitrator rules: the evaluator's rule, the arbitrator's caseClosed and the factory's fileDispute refuse anyone else",
        },
      ],
      check: () =>
        kit.expectRevert(
          fac(
            stranger(),
            "fileDispute",
            [
              {
                courtId: 1n,
                panelSize: 3,
                plaintiff: stranger().address,
                defendant: party(1).address,
                claimDescription: "x",
                evidenceIpfsHash: "bafkreix",
                arbitrable: stranger().address,
                disputeId: 0n,
              },
            ],
            kit.P.filingFee,
          ),
          "OnlyArbitrator",
        ),
    },
    "setArbitrator(address)": {
      mayCall: "the factory owner",
      access: { only: "owner" },
      coveredBy: [
        {
          file: AR,
          test: "a dispute is a case in the named court whose parties stake nothing; the case shows its arbitrable and dispute id",
        },
      ],
      check: () => kit.expectRevert(fac(stranger(), "setArbitrator", [stranger().address]), "OnlyOwner"),
    },
    "payFilingFee(bytes32)": {
      mayCall: "anyone, for its own future filing (the fee goes to the fee recipient)",
      access: { only: "anyone" },
      coveredBy: [
        {
          file: FF,
          test: "payFilingFee forwards the fee to the fee recipient at once and records it per reference and payer",
        },
        {
          file: FF,
          test: "payFilingFee refuses a zero reference, less than the fee, and a second payment under one reference",
        },
      ],
      check: async () => {
        const ref = kit.freshRef();
        await kit.payFee(c, stranger(), ref);
        const [paid] = await c.reader.readContract({
          address: c.factory,
          abi: kit.caseFactoryAbi,
          functionName: "feePayment",
          args: [ref, stranger().address],
        });
        expect(paid).toBe(true);
      },
    },
    "fileCase(uint96,address,string,string,bytes32)": {
      mayCall: "anyone, as the plaintiff, against someone else, in a court that exists",
      access: { only: "anyone" },
      coveredBy: [
        { file: A, test: "fileCase validates defendant, claim, evidence hash, payment reference and stake" },
        { file: A, test: "a payment reference files one case per plaintiff, and nobody else can burn it" },
        {
          file: FF,
          test: "fileCase takes only a fee the caller paid and has not used: unpaid, someone else's and replays are refused",
        },
        { file: CT, test: "a case filed in a child court copies its terms and is judged by that court's pool" },
      ],
      check: async () => {
        const { caseAddr } = await kit.fileCase(c, stranger(), party(1).address);
        expect((await kit.readCase(c, caseAddr)).plaintiff).toBe(stranger().address);
      },
    },
    "fileCaseWithAuthorization(uint96,address,string,string,(uint256,uint256,uint256,bytes32,bytes))": {
      mayCall: "anyone, as the plaintiff, with its own EIP-3009 authorization of the token fee to the factory",
      access: { only: "anyone" },
      coveredBy: [
        {
          file: TF,
          test: "files one case per authorization; the fee reaches the fee recipient in the filing transaction",
        },
        {
          file: TF,
          test: "refuses another's authorization, one to someone else, below the fee, expired, malformed or with the fee off; nothing moves",
        },
      ],
      check: async () => {
        await c.owner.write({
          address: c.feeToken,
          abi: kit.testUSDAbi,
          functionName: "mint",
          args: [stranger().address, DEV_TOKEN_FILING_FEE],
        });
        const { fee } = await kit.authorizeTokenFee(c, stranger());
        await fac(
          stranger(),
          "fileCaseWithAuthorization",
          [0n, party(1).address, "claim", "bafy", fee],
          kit.P.minPartyStake,
        );
        expect(await kit.tokenBalance(c, c.factory)).toBe(0n);
      },
    },
    "assignJudgesRandom(address)": {
      mayCall: "anyone (a keeper), for a case the factory created; the caller chooses nothing",
      access: { only: "anyone" },
      coveredBy: [
        { file: CA, test: "refuses to draw or seat judges who are missing, parties, ineligible or already served" },
        { file: A, test: "judges are assigned to known cases only; only cases report changes" },
        {
          file: DG,
          test: "nobody can change the panel: any caller, any later block, any trailing calldata seats the same judges",
        },
      ],
      check: async () => {
        await fac(stranger(), "assignJudgesRandom", [cases.active]);
        expect((await kit.readCase(c, cases.active)).state).toBe(kit.State.Deliberating);
      },
    },
    "assignJudges(address,address[])": {
      mayCall:
        "the factory owner (manual override), on a factory deployed with manualSeating only (dev and test chains)",
      access: { only: "owner" },
      coveredBy: [{ file: A, test: "owner-only: assignJudges, transferOwnership, setFiling; zero addresses refused" }],
      check: () =>
        kit.expectRevert(fac(stranger(), "assignJudges", [cases.active, panel().map((j) => j.address)]), "OnlyOwner"),
    },
    "transferOwnership(address)": {
      mayCall: "the factory owner",
      access: { only: "owner" },
      coveredBy: [{ file: A, test: "owner-only: assignJudges, transferOwnership, setFiling; zero addresses refused" }],
      check: () => kit.expectRevert(fac(stranger(), "transferOwnership", [stranger().address]), "OnlyOwner"),
    },
    "setFiling(address,uint256)": {
      mayCall: "the factory owner",
      access: { only: "owner" },
      coveredBy: [{ file: A, test: "owner-only: assignJudges, transferOwnership, setFiling; zero addresses refused" }],
      check: () => kit.expectRevert(fac(stranger(), "setFiling", [stranger().address, 0n]), "OnlyOwner"),
    },
    "setTokenFee(address,uint256)": {
      mayCall: "the factory owner",
      access: { only: "owner" },
      coveredBy: [{ file: TF, test: "setTokenFee and refundToken are the owner's; a token needs a fee" }],
      check: () => kit.expectRevert(fac(stranger(), "setTokenFee", [stranger().address, 1n]), "OnlyOwner"),
    },
    "refundToken(address,address,uint256)": {
      mayCall: "the factory owner (returns tokens that reached the factory outside a filing)",
      access: { only: "owner" },
      coveredBy: [
        {
          file: TF,
          test: "#26 hole 5: a fee raised after signing, or an authorization someone submitted first, locks nothing",
        },
        { file: TF, test: "setTokenFee and refundToken are the owner's; a token needs a fee" },
      ],
      check: () => kit.expectRevert(fac(stranger(), "refundToken", [c.feeToken, stranger().address, 0n]), "OnlyOwner"),
    },
    "onCaseChanged(uint8,uint8)": {
      mayCall: "a case the factory created",
      access: { only: "case" },
      coveredBy: [{ file: A, test: "judges are assigned to known cases only; only cases report changes" }],
      check: () => kit.expectRevert(fac(c.owner, "onCaseChanged", [kit.State.Active, kit.State.Dismissed]), "OnlyCase"),
    },
  },
  DisputeCase: {
    "initialize(address,address,address,address,string,string,(uint64,uint64,uint64,uint16,uint16,uint256,uint256,bool,uint64,uint64,uint16,uint16),uint96,uint96,uint256)":
      {
        mayCall: "the factory, once, when it clones the case",
        access: { only: "initializer" },
        coveredBy: [{ file: A, test: "the case implementation and every case refuse a second initialize" }],
        check: () =>
          kit.expectRevert(
            onCase(
              cases.summoned,
              c.owner,
              "initialize",
              [c.registry, c.entropy, c.owner.address, party(1).address, "claim", "hash", terms, 1n, 1n, 0n],
              kit.P.minPartyStake,
            ),
            "AlreadyInitialized",
          ),
      },
    "respond()": {
      mayCall: "the defendant",
      access: { only: "role", role: "defendant", error: "OnlyDefendant" },
      coveredBy: [{ file: CA, test: "respond: only the defendant, with the minimum stake, once, within the window" }],
      check: async () => {
        await kit.expectRevert(kit.respond(cases.summoned, party(1)), "OnlyDefendant");
        await kit.expectRevert(kit.respond(cases.summoned, stranger()), "OnlyDefendant");
      },
    },
    "submitEvidence(string)": {
      mayCall: "the plaintiff or the defendant",
      access: { only: "role", role: "party", error: "OnlyParty" },
      coveredBy: [
        { file: CA, test: "evidence: parties only, while heard, a bounded hash, at most 16 per party and round" },
        {
          file: CA,
          test: "one party cannot fill every evidence slot: 64 plaintiff submissions, then the defendant still submits, in both rounds",
        },
      ],
      check: async () => {
        await kit.expectRevert(onCase(cases.deliberating, stranger(), "submitEvidence", ["bafy"]), "OnlyParty");
        await kit.expectRevert(onCase(cases.deliberating, judge(0), "submitEvidence", ["bafy"]), "OnlyParty");
      },
    },
    "triggerDefault()": {
      mayCall: "anyone, after the response deadline",
      access: { only: "anyone" },
      coveredBy: [{ file: CA, test: "respond: only the defendant, with the minimum stake, once, within the window" }],
      check: async () => {
        await onCase(cases.expiredSummons, stranger(), "triggerDefault");
        expect((await kit.readCase(c, cases.expiredSummons)).state).toBe(kit.State.Defaulted);
      },
    },
    "appeal()": {
      mayCall: "the party that lost round one",
      access: { only: "role", role: "losing party", error: "OnlyLosingParty" },
      coveredBy: [
        {
          file: CA,
          test: "appeal and settle: the loser, once, with the exact bond, inside the window; settle only after it",
        },
      ],
      check: async () => {
        // Round one went to the plaintiff (party 5): the winner and a stranger may not appeal.
        await kit.expectRevert(onCase(cases.resolved, party(5), "appeal", [], kit.P.appealBond), "OnlyLosingParty");
        await kit.expectRevert(onCase(cases.resolved, stranger(), "appeal", [], kit.P.appealBond), "OnlyLosingParty");
      },
    },
    "settle()": {
      mayCall: "anyone, after the appeal window",
      access: { only: "anyone" },
      coveredBy: [
        { file: CA, test: "appeal after the window is refused; a settled case cannot be settled or appealed again" },
        { file: ACC, test: "defendant verdict, settled: the judge who had not voted is neither paid nor slashed" },
      ],
      check: async () => {
        await onCase(cases.settleable, stranger(), "settle");
        expect((await kit.readCase(c, cases.settleable)).settled).toBe(true);
      },
    },
    "withdraw()": {
      mayCall: "whoever the case owes a deferred payment, for itself",
      access: { only: "self", what: "a deferred payment", error: "NothingToWithdraw" },
      coveredBy: [
        { file: CA, test: "withdraw: nothing owed is refused" },
        {
          file: PAY,
          test: "a winning plaintiff that refuses ETH is owed its payout; settle still completes; it withdraws later",
        },
      ],
      check: () => kit.expectRevert(onCase(cases.settleable, stranger(), "withdraw"), "NothingToWithdraw"),
    },
    "setJudges(address[])": {
      mayCall: "the factory (for its owner's assignJudges)",
      access: { only: "factory" },
      coveredBy: [
        { file: CA, test: "seating: only through the factory, when awaiting a panel, the right size, no duplicates" },
      ],
      check: () =>
        kit.expectRevert(onCase(cases.active, c.owner, "setJudges", [panel().map((j) => j.address)]), "OnlyFactory"),
    },
    "drawJudges()": {
      mayCall: "the factory (for assignJudgesRandom)",
      access: { only: "factory" },
      coveredBy: [
        { file: CA, test: "seating: only through the factory, when awaiting a panel, the right size, no duplicates" },
      ],
      check: () => kit.expectRevert(onCase(cases.active, c.owner, "drawJudges"), "OnlyFactory"),
    },
    "commitVote(bytes32)": {
      mayCall: "a judge seated on the current round's panel of a court with hidden votes, once",
      access: { only: "role", role: "assigned judge", error: "NotAssignedJudge" },
      coveredBy: [
        {
          file: HV,
          test: "commit, then reveal once all committed: counts show revealed votes only, reasons are kept, the majority decides",
        },
        { file: CA, test: "voting: assigned judges only, once each, while deliberating, before the deadline" },
      ],
      check: async () => {
        // An eligible judge who is not on this panel, a party, and the owner are all refused.
        for (const who of [kit.actor(h, 10), kit.actor(h, 1), h.owner]) {
          await kit.expectRevert(kit.commitVote(hidden, who, true), "NotAssignedJudge", [who.address]);
        }
      },
    },
    "revealVote(bool,bytes32,string)": {
      mayCall: "a judge of the current panel, for the vote it committed",
      access: { only: "self", what: "a commitment", error: "NotCommitted" },
      coveredBy: [
        {
          file: HV,
          test: "commit, then reveal once all committed: counts show revealed votes only, reasons are kept, the majority decides",
        },
        { file: HV, test: "a commitment copied from another judge cannot be revealed by the copier" },
      ],
      check: async () => {
        // A stranger, a party, and a seated judge who has not committed have nothing to reveal.
        for (const who of [kit.actor(h, 16), kit.actor(h, 1), kit.actor(h, 8)]) {
          await kit.expectRevert(kit.revealVote(hidden, who, true), "NotCommitted", [who.address]);
        }
      },
    },
    "vote(bool)": {
      mayCall: "a judge seated on the current round's panel, once",
      access: { only: "role", role: "assigned judge", error: "NotAssignedJudge" },
      coveredBy: [
        { file: CA, test: "voting: assigned judges only, once each, while deliberating, before the deadline" },
      ],
      check: async () => {
        // An eligible judge who is not on this panel, a party, and the owner are all refused.
        for (const who of [judge(3), party(1), c.owner]) {
          await kit.expectRevert(kit.vote(cases.deliberating, who, true), "NotAssignedJudge", [who.address]);
        }
      },
    },
    "resolveAfterDeadline()": {
      mayCall: "anyone, after the deliberation deadline",
      access: { only: "anyone" },
      coveredBy: [
        { file: CA, test: "voting: assigned judges only, once each, while deliberating, before the deadline" },
        {
          file: HV,
          test: "three committed, two matching reveals: after the reveal deadline resolveAfterDeadline gives their verdict; the judge who did not reveal is a no-show",
        },
        {
          file: CT,
          test: "hole 1: an appeal that cannot get a panel lets the first verdict stand; the appellant loses its bond",
        },
      ],
      check: async () => {
        await onCase(cases.expiredActive, stranger(), "resolveAfterDeadline");
        expect((await kit.readCase(c, cases.expiredActive)).state).toBe(kit.State.Dismissed);
      },
    },
  },
  CourtReputation: {
    "recordOutcome(address,address,address,uint8)": {
      mayCall: "the court registry, when a case ends",
      access: { only: "role", role: "court registry", error: "OnlyRegistry" },
      coveredBy: [
        {
          file: E8,
          test: "a settled verdict: the winner gets won (100), the loser lost (0); a linked agent counts too",
        },
      ],
      check: () =>
        kit.expectRevert(
          call(c.owner, reporter(), kit.courtReputationAbi, "recordOutcome", [
            c.owner.address,
            party(1).address,
            party(2).address,
            0,
          ]),
          "OnlyRegistry",
        ),
    },
    "link(uint256)": {
      mayCall: "an ERC-8004 agent's owner or agent wallet, for itself",
      access: { only: "self", what: "an ERC-8004 agent", error: "NotAgentController" },
      coveredBy: [
        {
          file: E8,
          test: "a settled verdict: the winner gets won (100), the loser lost (0); a linked agent counts too",
        },
      ],
      check: () =>
        kit.expectRevert(call(stranger(), reporter(), kit.courtReputationAbi, "link", [1n]), "NotAgentController"),
    },
    "unlink()": {
      mayCall: "anyone, for itself",
      access: { only: "anyone" },
      coveredBy: [
        {
          file: E8,
          test: "a settled verdict: the winner gets won (100), the loser lost (0); a linked agent counts too",
        },
      ],
      check: () => call(stranger(), reporter(), kit.courtReputationAbi, "unlink", []),
    },
    "caseFiled(address,address,address,bool,bool)": {
      mayCall: "the CaseFactory, when a case is filed (the agents its feedback goes to are fixed then)",
      access: { only: "factory" },
      coveredBy: [
        {
          file: RC,
          test: "the agent is fixed at filing: a party that moves its agent wallet away mid-case still gets the entry",
        },
      ],
      check: () =>
        kit.expectRevert(
          call(stranger(), reporter(), kit.courtReputationAbi, "caseFiled", [
            cases.summoned,
            party(1).address,
            party(2).address,
            true,
            true,
          ]),
          "OnlyFactory",
        ),
    },
    "retryFeedback(address,address)": {
      mayCall: "anyone (a keeper), for a feedback entry the reputation registry refused",
      access: { only: "anyone" },
      coveredBy: [{ file: RC, test: "a loser who made the court its operator, then revoked, still gets its loss" }],
      check: () =>
        kit.expectRevert(
          call(stranger(), reporter(), kit.courtReputationAbi, "retryFeedback", [cases.summoned, party(1).address]),
          "NoPendingFeedback",
        ),
    },
  },
  DocketArbitrator: {
    "createDispute(uint256,bytes)": {
      mayCall: "anyone (an arbitrable contract) paying arbitrationCost(extraData)",
      access: { only: "anyone" },
      coveredBy: [
        {
          file: AR,
          test: "createDispute refuses other than two choices, a wrong payment, an unknown dispute kit and a short extraData",
        },
      ],
      check: async () => {
        const data = arbKit.extraData({ plaintiff: party(5).address, defendant: party(6).address });
        await arb(stranger(), "createDispute", [2n, data], await arbKit.arbitrationCost(c, data));
      },
    },
    "caseClosed(address)": {
      mayCall: "the CaseFactory, when a case it filed for this arbitrator is final",
      access: { only: "factory" },
      coveredBy: [
        {
          file: AR,
          test: "only the arbitrator rules: the evaluator's rule, the arbitrator's caseClosed and the factory's fileDispute refuse anyone else",
        },
      ],
      check: () => kit.expectRevert(arb(stranger(), "caseClosed", [cases.summoned]), "OnlyFactory"),
    },
    "executeRuling(uint256)": {
      mayCall: "anyone (a keeper), for a ruling whose delivery failed",
      access: { only: "anyone" },
      coveredBy: [
        {
          file: AR,
          test: "a failing callback does not block the case; the ruling stays due and anyone retries it with executeRuling",
        },
      ],
      check: () => arb(stranger(), "executeRuling", [prepared.failedDispute]),
    },
    "setConsent(address,bool)": {
      mayCall: "anyone, for itself: lets an arbitrable name it in disputes on its record",
      access: { only: "anyone" },
      coveredBy: [
        {
          file: RC,
          test: "a party that consented to the arbitrable (or is it) is on record; consent is read at filing",
        },
      ],
      check: () => arb(stranger(), "setConsent", [party(1).address, false]),
    },
  },
  AgenticCommerce: {
    "createJob(address,address,uint256,string,address)": {
      mayCall: "anyone, who becomes the job's client",
      access: { only: "anyone" },
      coveredBy: [{ file: JB, test: ERC8183 }],
      check: async () => {
        const now = (await c.reader.getBlock()).timestamp;
        await job(stranger(), "createJob", [party(1).address, general(), now + 3600n, "a stranger's job", ZERO]);
      },
    },
    "setProvider(uint256,address,bytes)": {
      mayCall: "the job's client, while Open and the provider unset",
      access: { only: "role", role: "client", error: "NotClient" },
      coveredBy: [{ file: JB, test: ERC8183 }],
      check: async () =>
        kit.expectRevert(job(stranger(), "setProvider", [await jobAt("open"), stranger().address, "0x"]), "NotClient"),
    },
    "setBudget(uint256,uint256,bytes)": {
      mayCall: "the job's client or provider, while Open",
      access: { only: "role", role: "client or provider", error: "NotClientOrProvider" },
      coveredBy: [{ file: JB, test: ERC8183 }],
      check: async () =>
        kit.expectRevert(job(stranger(), "setBudget", [await jobAt("open"), 1n, "0x"]), "NotClientOrProvider"),
    },
    "fund(uint256,uint256,bytes)": {
      mayCall: "the job's client, while Open",
      access: { only: "role", role: "client", error: "NotClient" },
      coveredBy: [{ file: JB, test: ERC8183 }],
      check: async () => kit.expectRevert(job(stranger(), "fund", [await jobAt("open"), 0n, "0x"]), "NotClient"),
    },
    "submit(uint256,bytes32,bytes)": {
      mayCall: "the job's provider, while Funded",
      access: { only: "role", role: "provider", error: "NotProvider" },
      coveredBy: [{ file: JB, test: ERC8183 }],
      check: async () =>
        kit.expectRevert(
          job(stranger(), "submit", [await jobAt("funded"), toHex(1, { size: 32 }), "0x"]),
          "NotProvider",
        ),
    },
    "complete(uint256,bytes32,bytes)": {
      mayCall: "the job's evaluator, while Submitted",
      access: { only: "role", role: "evaluator", error: "NotEvaluator" },
      coveredBy: [{ file: JB, test: ERC8183 }],
      check: async () =>
        kit.expectRevert(
          job(stranger(), "complete", [await jobAt("submitted"), toHex(0, { size: 32 }), "0x"]),
          "NotEvaluator",
        ),
    },
    "reject(uint256,bytes32,bytes)": {
      mayCall: "the job's client while Open; its evaluator while Funded or Submitted",
      access: { only: "role", role: "evaluator (client while Open)", error: "NotEvaluator" },
      coveredBy: [{ file: JB, test: ERC8183 }],
      check: async () =>
        kit.expectRevert(
          job(stranger(), "reject", [await jobAt("funded"), toHex(0, { size: 32 }), "0x"]),
          "NotEvaluator",
        ),
    },
    "claimRefund(uint256)": {
      mayCall: "anyone, once the job has expired (Funded or Submitted)",
      access: { only: "anyone" },
      coveredBy: [{ file: JB, test: "after expiry anyone refunds a funded or submitted job to its client" }],
      check: () => job(stranger(), "claimRefund", [prepared.expired]),
    },
  },
  CourtEvaluator: {
    "disputeJob(uint256,string)": {
      mayCall: "the job's client, within the challenge window, paying the arbitration cost",
      access: { only: "role", role: "client", error: "OnlyClient" },
      coveredBy: [
        {
          file: JB,
          test: "only the client disputes, once, and only a submitted job of this evaluator; a disputed job cannot be finalized",
        },
      ],
      check: async () => {
        const cost = await c.reader.readContract({
          address: general(),
          abi: arbKit.courtEvaluatorAbi,
          functionName: "arbitrationCost",
        });
        await kit.expectRevert(
          ev(stranger(), "disputeJob", [await jobAt("submitted"), "bafkreix"], cost),
          "OnlyClient",
        );
      },
    },
    "finalize(uint256)": {
      mayCall:
        "anyone, after an undisputed challenge window (it pays the provider, or refunds the client when the court could not have judged the window)",
      access: { only: "anyone" },
      coveredBy: [
        {
          file: JB,
          test: "undisputed: nobody may finalize during the window; after it anyone does and the provider is paid",
        },
      ],
      check: () => ev(stranger(), "finalize", [prepared.finalizable]),
    },
    "rule(uint256,uint256)": {
      mayCall: "the arbitrator, once per dispute, when the case is final",
      access: { only: "role", role: "arbitrator", error: "OnlyArbitrator" },
      coveredBy: [
        {
          file: AR,
          test: "only the arbitrator rules: the evaluator's rule, the arbitrator's caseClosed and the factory's fileDispute refuse anyone else",
        },
      ],
      check: () => kit.expectRevert(ev(stranger(), "rule", [0n, 2n]), "OnlyArbitrator"),
    },
  },
  ValidationRegistry: {
    "validationRequest(address,uint256,string,bytes32)": {
      mayCall: "an ERC-8004 agent's owner or operator, for that agent",
      access: { only: "self", what: "an ERC-8004 agent", error: "NotAuthorized" },
      coveredBy: [{ file: JB, test: VR }],
      check: async () => {
        const agentId = await newAgent(party(3));
        await kit.expectRevert(
          val(stranger(), "validationRequest", [stranger().address, agentId, "", toHex(9, { size: 32 })]),
          "NotAuthorized",
        );
      },
    },
    "validationResponse(bytes32,uint8,string,bytes32,string)": {
      mayCall: "the validator a request names",
      access: { only: "role", role: "validator", error: "NotValidator" },
      coveredBy: [{ file: JB, test: VR }],
      check: async () => {
        const hash = toHex(4242n, { size: 32 });
        const agentId = await newAgent(party(1));
        await val(party(1), "validationRequest", [party(2).address, agentId, "", hash]);
        await kit.expectRevert(val(stranger(), "validationResponse", [hash, 100, "", hash, ""]), "NotValidator");
      },
    },
    "validationResponseFor(uint256,bytes32,uint8,string,bytes32,string)": {
      mayCall: "the validator the agent's request names",
      access: { only: "role", role: "validator", error: "NotValidator" },
      coveredBy: [{ file: JB, test: VR }],
      check: async () => {
        const hash = toHex(4343n, { size: 32 });
        const agentId = await newAgent(party(1));
        await val(party(1), "validationRequest", [party(2).address, agentId, "", hash]);
        await kit.expectRevert(
          val(stranger(), "validationResponseFor", [agentId, hash, 100, "", hash, ""]),
          "NotValidator",
        );
      },
    },
  },
};

const abis: Record<ContractName, Abi> = {
  DocketArbitrator: arbKit.docketArbitratorAbi,
  AgenticCommerce: arbKit.agenticCommerceAbi,
  CourtEvaluator: arbKit.courtEvaluatorAbi,
  ValidationRegistry: arbKit.validationRegistryAbi,
  CourtReputation: kit.courtReputationAbi,
  CourtRegistry: kit.courtRegistryAbi,
  CaseFactory: kit.caseFactoryAbi,
  DisputeCase: kit.disputeCaseAbi,
};

function typeOf(p: { type: string; components?: readonly { type: string }[] }): string {
  if (!p.type.startsWith("tuple")) return p.type;
  return `(${(p.components ?? []).map(typeOf).join(",")})${p.type.slice("tuple".length)}`;
}

/** Every entry that can change state: non-view functions, and receive/fallback if there are any. */
function writes(abi: Abi): string[] {
  const out: string[] = [];
  for (const item of abi) {
    if (item.type === "receive" || item.type === "fallback") out.push(`${item.type}()`);
    if (item.type !== "function") continue;
    if (item.stateMutability === "view" || item.stateMutability === "pure") continue;
    out.push(`${item.name}(${item.inputs.map(typeOf).join(",")})`);
  }
  return out.sort();
}

const here = dirname(fileURLToPath(import.meta.url));

describe("access table: completeness", () => {
  for (const name of Object.keys(table) as ContractName[]) {
    it(`${name}: every state-changing function in the ABI is listed, and nothing else`, () => {
      expect(Object.keys(table[name]).sort()).toEqual(writes(abis[name]));
    });
  }

  it("each row's access kind and error agree, and each cited test exists", () => {
    for (const [name, rows] of Object.entries(table)) {
      for (const [fn, row] of Object.entries(rows)) {
        const where = `${name}.${fn}`;
        expect(row.mayCall, where).not.toBe("");
        const error = "error" in row.access ? row.access.error : errorOf[row.access.only];
        if (row.access.only !== "anyone") {
          // The named error is one the contracts declare.
          const declared = Object.values(abis).some((abi) =>
            abi.some((item) => item.type === "error" && item.name === error),
          );
          expect(declared, `${where}: ${error} is not a declared error`).toBe(true);
        }
        for (const ref of row.coveredBy) {
          const source = readFileSync(join(here, ref.file), "utf8");
          expect(source.includes(`"${ref.test}"`), `${where}: ${ref.file} has no test "${ref.test}"`).toBe(true);
        }
      }
    }
  });
});

describe("access table: every row holds on chain", () => {
  beforeAll(async () => {
    [c, h] = await Promise.all([kit.bootCourt(), kit.bootCourt(kit.HP)]);
    // The hidden-votes court: a deliberating case with one commitment.
    const hj = [7, 8, 9].map((i) => kit.actor(h, i));
    await kit.stakeJudges(h, [...hj, kit.actor(h, 10)]);
    hidden = (await kit.fileCase(h, kit.actor(h, 1), kit.actor(h, 2).address)).caseAddr;
    await kit.respond(hidden, kit.actor(h, 2));
    await kit.seat(h, hidden, hj);
    await kit.commitVote(hidden, hj[0] as Actor, true);
    await kit.stakeJudges(c, [judge(0), judge(1), judge(2), judge(3), judge(4), judge(5)]);
    // Arbitration: a ruling that will fail to deliver, a job whose window will be over, a job that will expire.
    await arbKit.mintJobToken(c, party(1).address, 1_000_000_000n);
    const failing = await arbKit.deployTestArbitrable(c, party(7));
    await party(7).write({ address: failing, abi: arbKit.testArbitrableAbi, functionName: "setFailing", args: [true] });
    const dispute = await arbKit.openDispute(
      c,
      failing,
      party(7),
      arbKit.extraData({ plaintiff: party(5).address, defendant: party(6).address }),
    );
    prepared.failedDispute = dispute.disputeId;
    prepared.finalizable = await jobAt("submitted");
    prepared.expired = await arbKit.fundedJob(c, party(1), party(2).address, general(), {
      budget: 1_000_000n,
      expiresIn: 600n,
    });
    // Cases that need time to pass: an unanswered summons, an answered case with no panel, and a
    // verdict whose appeal window will have closed.
    cases.expiredSummons = (await kit.fileCase(c, party(1), party(2).address)).caseAddr;
    cases.expiredActive = (await kit.fileCase(c, party(3), party(4).address)).caseAddr;
    await kit.respond(cases.expiredActive, party(4));
    cases.settleable = (await kit.fileCase(c, party(1), party(3).address)).caseAddr;
    await kit.respond(cases.settleable, party(3));
    await kit.seat(c, cases.settleable, [judge(3), judge(4), judge(5)]);
    await kit.vote(cases.settleable, judge(3), false);
    await kit.vote(cases.settleable, judge(4), false);
    await kit.advance(c, kit.P.deliberationPeriod + kit.P.appealWindow + 1n);

    await kit.triggerDefault(dispute.caseAddr, party(7));
    cases.summoned = (await kit.fileCase(c, party(1), party(2).address)).caseAddr;
    cases.active = (await kit.fileCase(c, party(3), party(4).address)).caseAddr;
    await kit.respond(cases.active, party(4));
    const { caseAddr: deliberating } = await kit.fileCase(c, party(1), party(4).address);
    cases.deliberating = deliberating;
    await kit.respond(deliberating, party(4));
    await kit.seat(c, deliberating, panel());
    const { caseAddr: resolved } = await kit.fileCase(c, party(5), party(6).address);
    cases.resolved = resolved;
    await kit.respond(resolved, party(6));
    await kit.seat(c, resolved, panel());
    await kit.vote(resolved, judge(0), true);
    await kit.vote(resolved, judge(1), true);
    expect((await kit.readCase(c, resolved)).state).toBe(kit.State.Resolved);
  });

  afterAll(async () => {
    await Promise.all([c?.stop(), h?.stop()]);
  });

  const rows = (Object.entries(table) as [ContractName, Record<string, Row>][]).flatMap(([name, fns]) =>
    Object.entries(fns).map(([fn, row]) => ({ name, fn, row })),
  );
  // Restricted rows first: the open ones move cases on (the keeper's draw seats the active case).
  rows.sort((x, y) => Number(x.row.access.only === "anyone") - Number(y.row.access.only === "anyone"));

  for (const { name, fn, row } of rows) {
    const refusal =
      row.access.only === "anyone"
        ? "a stranger may call it"
        : `anyone else is refused with ${"error" in row.access ? row.access.error : errorOf[row.access.only]}`;
    it(`${name}.${fn.split("(")[0]}: ${row.mayCall}; ${refusal}`, async () => {
      await row.check();
    });
  }
});
