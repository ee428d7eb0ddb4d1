import { type Address, type Hex, keccak256, parseEther, parseEventLogs, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { courtRegistryBytecode } from "../../src/chain/abi/generated.js";
import { linkedCaseFactory } from "../../src/deploy/deploy.js";
import { caseTerms, courtConfig } from "../../src/deploy/terms.js";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;
let judges: Actor[];

const { party } = kit.courtOfFile(async (court) => {
  c = court;
  judges = c.actors.slice(7, 13);
  await kit.stakeJudges(c, judges);
});

const terms = caseTerms(kit.P);

/** Files in the General court (court 0) with the given defendant, claim, evidence and reference. */
function fileAs(who: Actor, args: readonly [Address, string, string, Hex], value: bigint = kit.P.minPartyStake) {
  return who.write({
    address: c.factory,
    abi: kit.caseFactoryAbi,
    functionName: "fileCase",
    args: [0n, ...args],
    value,
  });
}

describe("registry access and validation", () => {
  it("selfRegister: name required, name and URI bounded, id kept on update", async () => {
    const a = party(1);
    const reg = (name: string, uri: string) =>
      a.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "selfRegister", args: [name, uri] });
    await kit.expectRevert(reg("", "https://x"), "NameRequired");
    await kit.expectRevert(reg("n".repeat(65), ""), "NameTooLong", [64n]);
    await kit.expectRevert(reg("ok", "u".repeat(513)), "UriTooLong", [512n]);
    const r = await reg("n".repeat(64), "u".repeat(512));
    const [added] = parseEventLogs({ abi: kit.courtRegistryAbi, eventName: "AgentRegistered", logs: r.logs });
    const id = added?.args.agentId;
    expect(id).toBeGreaterThan(0n);
    const u = await reg("renamed", "");
    const [updated] = parseEventLogs({ abi: kit.courtRegistryAbi, eventName: "AgentUpdated", logs: u.logs });
    expect(updated?.args.agentId).toBe(id);
    const v = await kit.readAgent(c, a.address);
    expect([v.registered, v.agentId, v.name, v.metadataURI]).toEqual([true, id, "renamed", ""]);
  });

  it("stakeAsJudge: below the minimum, or nothing sent, is refused", async () => {
    const a = party(2);
    const stake = (value: bigint) =>
      a.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "stakeAsJudge", args: [0n], value });
    await kit.expectRevert(stake(kit.P.minJudgeStake - 1n), "StakeBelowMinimum", [
      kit.P.minJudgeStake,
      kit.P.minJudgeStake - 1n,
    ]);
    await kit.expectRevert(stake(0n), "StakeBelowMinimum", [kit.P.minJudgeStake, 0n]);
    await stake(kit.P.minJudgeStake);
    // A judge already staked still has to send something.
    await kit.expectRevert(stake(0n), "StakeBelowMinimum", [kit.P.minJudgeStake, kit.P.minJudgeStake]);
    await a.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstake" });
  });

  it("unstake: nothing staked, or still serving on an open case, is refused", async () => {
    await kit.expectRevert(
      party(3).write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstake" }),
      "NothingStaked",
    );
    const { caseAddr } = await kit.fileCase(c, party(1), party(2).address);
    await kit.respond(caseAddr, party(2));
    const [a, b, d] = judges as [Actor, Actor, Actor];
    await kit.seat(c, caseAddr, [a, b, d]);
    const { caseAddr: second } = await kit.fileCase(c, party(3), party(4).address);
    await kit.respond(second, party(4));
    await kit.seat(c, second, [a, judges[3] as Actor, judges[4] as Actor]);
    const unstake = (j: Actor) => j.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstake" });
    await kit.expectRevert(unstake(a), "JudgeServingOnOpenCase", [2n]);
    await kit.expectRevert(unstake(b), "JudgeServingOnOpenCase", [1n]);
  });

  it("owner-only: setFactory and withdrawTreasury; the factory is set once", async () => {
    await kit.expectRevert(
      kit.callAs(party(1), c.registry, kit.courtRegistryAbi, "setFactory", [party(1).address]),
      "OnlyOwner",
    );
    await kit.expectRevert(
      kit.callAs(c.owner, c.registry, kit.courtRegistryAbi, "setFactory", [party(1).address]),
      "FactoryAlreadySet",
    );
    await kit.expectRevert(
      kit.callAs(party(1), c.registry, kit.courtRegistryAbi, "withdrawTreasury", [party(1).address, 0n]),
      "OnlyOwner",
    );
    const treasury = await c.reader.readContract({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "treasury",
    });
    await kit.expectRevert(
      kit.callAs(c.owner, c.registry, kit.courtRegistryAbi, "withdrawTreasury", [c.owner.address, treasury + 1n]),
      "AmountExceedsTreasury",
      [treasury],
    );
  });

  it("only the factory registers cases; only cases touch judges and records", async () => {
    const x = party(5);
    const w = (p: Promise<unknown>) => kit.expectRevert(p, "OnlyCase");
    await kit.expectRevert(
      x.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "registerCase", args: [x.address] }),
      "OnlyFactory",
    );
    await w(
      x.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "judgeAssigned", args: [x.address] }),
    );
    await w(x.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "judgeVoted", args: [x.address] }));
    await w(
      x.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "judgeReleased", args: [x.address, 1] }),
    );
    await w(
      x.write({
        address: c.registry,
        abi: kit.courtRegistryAbi,
        functionName: "creditRewards",
        args: [[x.address], 1n],
        value: 1n,
      }),
    );
    await w(kit.callAs(x, c.registry, kit.courtRegistryAbi, "recordParties", [x.address, party(6).address, true]));
    // Not even the factory itself may act as a case.
    expect(
      await c.reader.readContract({
        address: c.registry,
        abi: kit.courtRegistryAbi,
        functionName: "isCase",
        args: [c.factory],
      }),
    ).toBe(false);
  });

  it("the constructor refuses a zero minimum stake, a slash above 100% and out-of-range General terms", async () => {
    const config = courtConfig(kit.P);
    const deploy = (slash: number, cfg: typeof config = config, policy = "bafkreipolicy") =>
      c.owner.wallet.deployContract({
        abi: kit.courtRegistryAbi,
        bytecode: courtRegistryBytecode,
        args: [slash, policy, cfg],
      });
    await kit.expectRevert(deploy(1000, { ...config, minJudgeStake: 0n }), "InvalidParameter");
    await kit.expectRevert(deploy(10_001), "InvalidParameter");
    await kit.expectRevert(deploy(1000, config, ""), "PolicyInvalid", [128n]);
    await kit.expectRevert(deploy(1000, config, "b".repeat(129)), "PolicyInvalid", [128n]);
    const bad: Partial<typeof terms>[] = [
      // Hidden votes need both phases to last.
      { hiddenVotes: true, commitPeriod: 0n },
      { hiddenVotes: true, revealPeriod: 0n },
      { minPartyStake: 0n },
      { courtFeeBps: 10_001 },
      { judgeRewardBps: 10_001 },
      { responseWindow: 0n },
      { deliberationPeriod: 0n },
      // Panels are odd, the appeal's at least the first's and at most 31.
      { panelSize: 2 },
      { appealPanelSize: 4 },
      { panelSize: 5, appealPanelSize: 3 },
      { appealPanelSize: 33 },
    ];
    for (const t of bad)
      await kit.expectRevert(deploy(1000, { ...config, terms: { ...terms, ...t } }), "InvalidParameter");
  });
});

describe("factory access and validation", () => {
  it("fileCase validates defendant, claim, evidence hash, payment reference and stake", async () => {
    const p = party(1);
    const d = party(2).address;
    await kit.expectRevert(fileAs(p, [kit.ZERO, "claim", "hash", kit.freshRef()]), "InvalidDefendant");
    await kit.expectRevert(fileAs(p, [p.address, "claim", "hash", kit.freshRef()]), "InvalidDefendant");
    await kit.expectRevert(fileAs(p, [d, "", "hash", kit.freshRef()]), "ClaimRequired");
    await kit.expectRevert(fileAs(p, [d, "c".repeat(2001), "hash", kit.freshRef()]), "ClaimTooLong", [2000n]);
    await kit.expectRevert(fileAs(p, [d, "claim", "", kit.freshRef()]), "EvidenceHashInvalid");
    await kit.expectRevert(fileAs(p, [d, "claim", "h".repeat(129), kit.freshRef()]), "EvidenceHashInvalid");
    const zeroRef = `0x${"0".repeat(64)}` as Hex;
    await kit.expectRevert(fileAs(p, [d, "claim", "hash", zeroRef]), "PaymentRefRequired");
    // The stake is checked once the filing fee is found paid (filingFee.test.ts covers unpaid ones).
    const paid = kit.freshRef();
    await kit.payFee(c, p, paid);
    await kit.expectRevert(fileAs(p, [d, "claim", "hash", paid], kit.P.minPartyStake - 1n), "StakeBelowMinimum", [
      kit.P.minPartyStake,
      kit.P.minPartyStake - 1n,
    ]);
    // The limits themselves are allowed.
    const { caseAddr } = await kit.fileCase(c, p, d, { claim: "c".repeat(2000), evidence: "h".repeat(128) });
    expect((await kit.readCase(c, caseAddr)).claimDescription).toHaveLength(2000);
  });

  it("a payment reference files one case per plaintiff, and nobody else can burn it", async () => {
    const ref = kit.freshRef();
    const usedBy = (plaintiff: Address) =>
      c.reader.readContract({
        address: c.factory,
        abi: kit.caseFactoryAbi,
        functionName: "paymentRefUsedBy",
        args: [ref, plaintiff],
      });
    expect(await usedBy(party(3).address)).toBe(kit.ZERO);
    // Someone who saw the reference pays and files under it first: it is bound to them, not to
    // party 3 (whose own fee under the same reference is a separate record).
    const { caseAddr: squatter } = await kit.fileCase(c, party(5), party(6).address, { paymentRef: ref });
    expect(await usedBy(party(5).address)).toBe(squatter);
    expect(await usedBy(party(3).address)).toBe(kit.ZERO);
    const { caseAddr } = await kit.fileCase(c, party(3), party(4).address, { paymentRef: ref });
    expect(await usedBy(party(3).address)).toBe(caseAddr);
    // Reuse by the same plaintiff is refused, naming the case that used it.
    await kit.expectRevert(fileAs(party(3), [party(4).address, "again", "hash", ref]), "PaymentRefUsed", [
      ref,
      caseAddr,
    ]);
    await kit.expectRevert(fileAs(party(5), [party(6).address, "other", "hash", ref]), "PaymentRefUsed", [
      ref,
      squatter,
    ]);
  });

  it("owner-only: assignJudges, transferOwnership, setFiling; zero addresses refused", async () => {
    const { caseAddr } = await kit.fileCase(c, party(5), party(6).address);
    await kit.respond(caseAddr, party(6));
    const x = party(5);
    await kit.expectRevert(
      x.write({
        address: c.factory,
        abi: kit.caseFactoryAbi,
        functionName: "assignJudges",
        args: [caseAddr, judges.slice(0, 3).map((j) => j.address)],
      }),
      "OnlyOwner",
    );
    await kit.expectRevert(
      x.write({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "transferOwnership", args: [x.address] }),
      "OnlyOwner",
    );
    await kit.expectRevert(
      x.write({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "setFiling", args: [x.address, 1n] }),
      "OnlyOwner",
    );
    await kit.expectRevert(
      c.owner.write({
        address: c.factory,
        abi: kit.caseFactoryAbi,
        functionName: "transferOwnership",
        args: [kit.ZERO],
      }),
      "InvalidParameter",
    );
    await kit.expectRevert(
      c.owner.write({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "setFiling", args: [kit.ZERO, 1n] }),
      "InvalidParameter",
    );

    // Ownership moves: the new owner may act, the old one may not; then it is handed back.
    await c.owner.write({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "transferOwnership",
      args: [x.address],
    });
    await kit.expectRevert(
      c.owner.write({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "setFiling", args: [x.address, 1n] }),
      "OnlyOwner",
    );
    await x.write({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "setFiling", args: [x.address, 123n] });
    const params = await c.reader.readContract({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "getParams",
    });
    expect([params.owner, params.feeRecipient, params.filingFee]).toEqual([x.address, x.address, 123n]);
    await x.write({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "setFiling",
      args: [c.owner.address, kit.P.filingFee],
    });
    await x.write({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "transferOwnership",
      args: [c.owner.address],
    });
    await kit.seat(c, caseAddr, judges.slice(3, 6));
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Deliberating);
  });

  it("judges are assigned to known cases only; only cases report changes", async () => {
    const notACase = party(6).address;
    await kit.expectRevert(
      c.owner.write({
        address: c.factory,
        abi: kit.caseFactoryAbi,
        functionName: "assignJudges",
        args: [notACase, judges.slice(0, 3).map((j) => j.address)],
      }),
      "UnknownCase",
      [notACase],
    );
    await kit.expectRevert(
      party(1).write({
        address: c.factory,
        abi: kit.caseFactoryAbi,
        functionName: "assignJudgesRandom",
        args: [notACase],
      }),
      "UnknownCase",
      [notACase],
    );
    await kit.expectRevert(
      party(1).write({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "onCaseChanged", args: [1, 5] }),
      "OnlyCase",
    );
  });

  it("the constructor refuses a zero fee recipient or entropy source", async () => {
    const deploy = (feeRecipient: Address, entropy: Address = c.entropy) =>
      c.owner.wallet.deployContract({
        abi: kit.caseFactoryAbi,
        bytecode: linkedCaseFactory(c.devnet.deployment.libraries),
        args: [c.registry, entropy, feeRecipient, kit.P.filingFee, false],
      });
    await kit.expectRevert(deploy(kit.ZERO), "InvalidParameter");
    await kit.expectRevert(deploy(c.owner.address, kit.ZERO), "InvalidParameter");
  });

  it("the case implementation and every case refuse a second initialize", async () => {
    const { caseAddr } = await kit.fileCase(c, party(1), party(3).address);
    const impl = await c.reader.readContract({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "implementation",
    });
    for (const target of [caseAddr, impl]) {
      await kit.expectRevert(
        party(1).write({
          address: target,
          abi: kit.disputeCaseAbi,
          functionName: "initialize",
          args: [c.registry, c.entropy, party(1).address, party(3).address, "claim", "hash", terms, 1n, 1n, 0n],
          value: parseEther("0.01"),
        }),
        "AlreadyInitialized",
      );
    }
  });

  it("the case libraries run only inside a case: a direct call of any of their functions is refused", async () => {
    const { CaseVoting, CasePayouts } = c.devnet.deployment.libraries;
    // solc's names for library functions that take a storage pointer (not in any ABI: only a case calls them).
    const functions: [Address, string][] = [
      [CaseVoting, "vote(CaseData storage,bool)"],
      [CaseVoting, "commitVote(CaseData storage,bytes32)"],
      [CaseVoting, "revealVote(CaseData storage,bool,bytes32,string)"],
      [CaseVoting, "resolveAfterDeadline(CaseData storage)"],
      [CasePayouts, "finalize(CaseData storage,bool)"],
      [CasePayouts, "payDefault(CaseData storage)"],
      [CasePayouts, "dismiss(CaseData storage)"],
      [CasePayouts, "withdraw(CaseData storage)"],
    ];
    for (const [library, signature] of functions) {
      const selector = keccak256(toHex(signature)).slice(0, 10);
      // The function is there (its selector is in the library's dispatch)...
      expect(await c.reader.getCode({ address: library }), signature).toContain(selector.slice(2));
      // ...and refuses a CALL, even with a slot of a plausible case's storage and every argument zero.
      const data = `${selector}${"0".repeat(63)}1${"0".repeat(64 * 4)}` as Hex;
      await expect(c.reader.call({ account: party(1).address, to: library, data }), signature).rejects.toThrow(
        /revert/i,
      );
    }
  });
});
