/**
 * The ERC-8004 registries (ours, written to the standard's interfaces) and the court's reporter:
 * identity as an ERC-721 with metadata and a consenting agent wallet, feedback with the self-rating
 * rule and the summary's arithmetic, and verdicts, defaults and dismissals posted as feedback by the
 * court (a default under its own tag), which a reverting registry cannot block.
 */
import { type Abi, type Address, encodeFunctionData, type Hex, parseEventLogs, toHex } from "viem";
import { describe, expect, it } from "vitest";
import type { Erc8004Deployment } from "../../src/chain/deployments.js";
import { agentWalletConsent } from "../../src/chain/erc8004.js";
import { deployErc8004 } from "../../src/deploy/erc8004.js";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;
let e: Erc8004Deployment;
const judges = () => [7, 8, 9].map((i) => kit.actor(c, i));

kit.courtOfFile(async (court) => {
  c = court;
  e = c.devnet.deployment.erc8004 as Erc8004Deployment;
  await kit.stakeJudges(c, judges());
});

/** The registries by function name, as a wallet or a block explorer calls them. */
const identity = kit.identityRegistryAbi as Abi;
const reputation = kit.reputationRegistryAbi as Abi;
const idWrite = (i: number, functionName: string, args: readonly unknown[]) =>
  kit.actor(c, i).send({ to: e.identity, data: encodeFunctionData({ abi: identity, functionName, args }) });
const repWrite = (i: number, functionName: string, args: readonly unknown[]) =>
  kit.actor(c, i).send({ to: e.reputation, data: encodeFunctionData({ abi: reputation, functionName, args }) });
/** `who` signs its consent to become agent `agentId`'s wallet, with the wallet's current nonce. */
const consent = async (who: Actor, agentId: bigint, wallet: Address, owner: Address, deadline: bigint) =>
  who.wallet.signTypedData({
    account: who.account,
    ...agentWalletConsent({
      identity: e.identity,
      chainId: c.devnet.chainId,
      agentId,
      newWallet: wallet,
      owner,
      nonce: await idRead<bigint>("walletNonce", [wallet]),
      deadline,
    }),
  });
const idRead = <T>(functionName: string, args: readonly unknown[] = []) =>
  c.reader.readContract({ address: e.identity, abi: identity, functionName, args }) as Promise<T>;
const repRead = <T>(functionName: string, args: readonly unknown[] = []) =>
  c.reader.readContract({ address: e.reputation, abi: reputation, functionName, args }) as Promise<T>;

/** Registers an agent as account `i` and answers its agentId (from the Registered event). */
async function register(i: number, uri = `https://agents.example/${i}.json`, metadata: [string, Hex][] = []) {
  const r = await idWrite(i, "register", [
    uri,
    metadata.map(([metadataKey, metadataValue]) => ({ metadataKey, metadataValue })),
  ]);
  const [ev] = parseEventLogs({ abi: kit.identityRegistryAbi, eventName: "Registered", logs: r.logs });
  if (!ev) throw new Error("no Registered event");
  return ev.args.agentId;
}

const feedback = (i: number, agentId: bigint, value: bigint, decimals = 0, tag1 = "", tag2 = "") =>
  repWrite(i, "giveFeedback", [agentId, value, decimals, tag1, tag2, "", "", `0x${"00".repeat(32)}`]);

describe("IdentityRegistry", () => {
  it("register mints an ERC-721 with its URI and metadata; the agent wallet starts as the owner and is indexed", async () => {
    const owner = kit.actor(c, 15);
    const id = await register(15, "data:application/json;base64,e30=", [["name", toHex("fifteen")]]);
    expect(await idRead("ownerOf", [id])).toBe(owner.address);
    expect(await idRead("balanceOf", [owner.address])).toBe(1n);
    expect(await idRead("tokenURI", [id])).toBe("data:application/json;base64,e30=");
    expect(await idRead("getMetadata", [id, "name"])).toBe(toHex("fifteen"));
    expect(await idRead("getAgentWallet", [id])).toBe(owner.address);
    expect(await idRead("getMetadata", [id, "agentWallet"])).toBe(owner.address.toLowerCase());
    expect(await idRead("agentIdOf", [owner.address])).toBe(id);
    await kit.expectRevert(idRead("ownerOf", [999n]), "AgentNotFound", [999n]);
  });

  it("the agentWallet key is reserved; only the owner or its operators change URI and metadata", async () => {
    await kit.expectRevert(register(16, "u", [["agentWallet", "0x01"]]), "ReservedMetadataKey", ["agentWallet"]);
    const id = await register(16);
    await kit.expectRevert(idWrite(16, "setMetadata", [id, "agentWallet", "0x01"]), "ReservedMetadataKey");
    await kit.expectRevert(idWrite(17, "setAgentURI", [id, "https://evil"]), "NotAuthorized", [
      kit.actor(c, 17).address,
      id,
    ]);
    await idWrite(16, "setApprovalForAll", [kit.actor(c, 17).address, true]);
    await idWrite(17, "setAgentURI", [id, "https://operator.example"]);
    expect(await idRead("tokenURI", [id])).toBe("https://operator.example");
    await idWrite(16, "setApprovalForAll", [kit.actor(c, 17).address, false]);
    await kit.expectRevert(idWrite(17, "setMetadata", [id, "k", "0x01"]), "NotAuthorized");
  });

  it("a new agent wallet must sign its consent (EIP-712); a transfer clears the wallet and its index", async () => {
    const owner = kit.actor(c, 18);
    const newWallet = kit.actor(c, 19);
    const id = await register(18);
    const deadline = BigInt((await c.reader.getBlock()).timestamp) + 3600n;
    const sign = (who: typeof owner, wallet: Address) => consent(who, id, wallet, owner.address, deadline);
    // The owner signing for someone else's wallet is no consent.
    await kit.expectRevert(
      idWrite(18, "setAgentWallet", [id, newWallet.address, deadline, await sign(owner, newWallet.address)]),
      "InvalidWalletSignature",
    );
    await kit.expectRevert(
      idWrite(18, "setAgentWallet", [id, newWallet.address, 1n, await sign(newWallet, newWallet.address)]),
      "SignatureExpired",
    );
    await idWrite(18, "setAgentWallet", [id, newWallet.address, deadline, await sign(newWallet, newWallet.address)]);
    expect(await idRead("getAgentWallet", [id])).toBe(newWallet.address);
    expect(await idRead("agentIdOf", [newWallet.address])).toBe(id);
    expect(await idRead("agentIdOf", [owner.address])).not.toBe(id);

    await idWrite(18, "transferFrom", [owner.address, kit.actor(c, 16).address, id]);
    expect(await idRead("ownerOf", [id])).toBe(kit.actor(c, 16).address);
    expect(await idRead("getAgentWallet", [id])).toBe("0x0000000000000000000000000000000000000000");
    expect(await idRead("agentIdOf", [newWallet.address])).toBe(0n);
    await kit.expectRevert(idWrite(18, "transferFrom", [kit.actor(c, 16).address, owner.address, id]), "NotAuthorized");
  });

  it("#26 hole 4: a wallet's consent cannot be replayed; claiming the wallet takes it from the agent that had it", async () => {
    const owner1 = kit.actor(c, 15);
    const w = kit.actor(c, 3);
    const agent1 = await register(15);
    const yearFromNow = BigInt((await c.reader.getBlock()).timestamp) + 365n * 86_400n;
    // W consents to agent 1 for a year; agent 1's owner uses it.
    const signature = await consent(w, agent1, w.address, owner1.address, yearFromNow);
    await idWrite(15, "setAgentWallet", [agent1, w.address, yearFromNow, signature]);
    expect(await idRead("agentIdOf", [w.address])).toBe(agent1);
    // W registers its own agent: the wallet leaves agent 1.
    const agent2 = await register(3);
    expect(await idRead("agentIdOf", [w.address])).toBe(agent2);
    expect(await idRead("getAgentWallet", [agent1])).toBe("0x0000000000000000000000000000000000000000");
    // Thirty days later agent 1's owner replays W's signature: refused, W stays agent 2's.
    await kit.advance(c, 30 * 86_400);
    await kit.expectRevert(
      idWrite(15, "setAgentWallet", [agent1, w.address, yearFromNow, signature]),
      "InvalidWalletSignature",
    );
    expect(await idRead("agentIdOf", [w.address])).toBe(agent2);
    expect(await idRead("getAgentWallet", [agent2])).toBe(w.address);
    // A consent signed but never used is void once the wallet is claimed otherwise.
    const unused = await consent(w, agent1, w.address, owner1.address, yearFromNow);
    await idWrite(3, "unsetAgentWallet", [agent2]);
    await idWrite(3, "setAgentWallet", [
      agent2,
      w.address,
      yearFromNow,
      await consent(w, agent2, w.address, w.address, yearFromNow),
    ]);
    await kit.expectRevert(
      idWrite(15, "setAgentWallet", [agent1, w.address, yearFromNow, unused]),
      "InvalidWalletSignature",
    );
    expect(await idRead("agentIdOf", [w.address])).toBe(agent2);
  });
});

describe("ReputationRegistry", () => {
  it("refuses feedback from the agent's owner and operators, for unknown agents, and past 18 decimals", async () => {
    const id = await register(10);
    await kit.expectRevert(feedback(10, id, 100n), "SelfFeedbackNotAllowed", [kit.actor(c, 10).address, id]);
    await idWrite(10, "approve", [kit.actor(c, 11).address, id]);
    await kit.expectRevert(feedback(11, id, 100n), "SelfFeedbackNotAllowed");
    await idWrite(10, "setApprovalForAll", [kit.actor(c, 12).address, true]);
    await kit.expectRevert(feedback(12, id, 100n), "SelfFeedbackNotAllowed");
    await kit.expectRevert(feedback(13, 999_999n, 100n), "AgentNotFound", [999_999n]);
    await kit.expectRevert(feedback(13, id, 1n, 19), "ValueDecimalsTooLarge", [19]);
    expect(await repRead("getIdentityRegistry")).toBe(e.identity);
  });

  it("getSummary averages unrevoked feedback of the given clients at the largest decimals, filtered by tags", async () => {
    const id = await register(1);
    // Client 2: 100 and 45.50; client 3: -3 and (revoked) 7.
    await feedback(2, id, 100n, 0, "starred", "day");
    await feedback(2, id, 4550n, 2, "starred", "week");
    await feedback(3, id, -3n, 0, "starred", "day");
    await feedback(3, id, 7n, 0, "uptime");
    await repWrite(3, "revokeFeedback", [id, 2n]);
    await kit.expectRevert(repWrite(3, "revokeFeedback", [id, 2n]), "AlreadyRevoked", [2n]);
    await kit.expectRevert(repWrite(3, "revokeFeedback", [id, 9n]), "FeedbackNotFound");

    const both = [kit.actor(c, 2).address, kit.actor(c, 3).address];
    // (100.00 + 45.50 - 3.00) / 3 = 47.50, at 2 decimals.
    expect(await repRead("getSummary", [id, both, "", ""])).toEqual([3n, 4750n, 2]);
    expect(await repRead("getSummary", [id, both, "starred", "day"])).toEqual([2n, 48n, 0]);
    expect(await repRead("getSummary", [id, [kit.actor(c, 3).address], "", ""])).toEqual([1n, -3n, 0]);
    expect(await repRead("getSummary", [id, both, "uptime", ""])).toEqual([0n, 0n, 0]);
    await kit.expectRevert(repRead("getSummary", [id, [], "", ""]), "ClientAddressesRequired");

    expect(await repRead("readFeedback", [id, kit.actor(c, 2).address, 2n])).toEqual([
      4550n,
      2,
      "starred",
      "week",
      false,
    ]);
    expect(await repRead("getLastIndex", [id, kit.actor(c, 3).address])).toBe(2n);
    expect(await repRead("getClients", [id])).toEqual(both);
    const [clients, indexes, values, , , , revoked] = await repRead<readonly unknown[][]>("readAllFeedback", [
      id,
      [],
      "",
      "",
      true,
    ]);
    expect(clients).toEqual([...both.map((a) => [a, a])].flat());
    expect(indexes).toEqual([1n, 2n, 1n, 2n]);
    expect(values).toEqual([100n, 4550n, -3n, 7n]);
    expect(revoked).toEqual([false, false, false, true]);
    expect((await repRead<readonly unknown[][]>("readAllFeedback", [id, [], "", "", false]))[0]).toHaveLength(3);

    await repWrite(1, "appendResponse", [id, kit.actor(c, 2).address, 1n, "ipfs://refund", `0x${"00".repeat(32)}`]);
    await repWrite(4, "appendResponse", [id, kit.actor(c, 2).address, 1n, "ipfs://spam", `0x${"00".repeat(32)}`]);
    expect(await repRead("getResponseCount", [id, kit.actor(c, 2).address, 1n, []])).toBe(2n);
    expect(await repRead("getResponseCount", [id, kit.actor(c, 2).address, 1n, [kit.actor(c, 4).address]])).toBe(1n);
    expect(await repRead("getResponseCount", [id, "0x0000000000000000000000000000000000000000", 0n, []])).toBe(2n);
    await kit.expectRevert(
      repWrite(4, "appendResponse", [id, kit.actor(c, 2).address, 5n, "x", `0x${"00".repeat(32)}`]),
      "FeedbackNotFound",
    );
  });
});

describe("the court posts each case's end as ERC-8004 feedback", () => {
  const describeAgent = async (who: Address) => {
    const [card] = await c.reader.readContract({
      address: e.reporter,
      abi: kit.courtReputationAbi,
      functionName: "describe",
      args: [[who]],
    });
    if (!card) throw new Error("no card");
    return card;
  };
  const reporterEvents = (logs: Parameters<typeof parseEventLogs>[0]["logs"]) =>
    parseEventLogs({ abi: kit.courtReputationAbi, logs });

  it("a settled verdict: the winner gets won (100), the loser lost (0); a linked agent counts too", async () => {
    const plaintiff = kit.actor(c, 5);
    const defendant = kit.actor(c, 6);
    const pId = await register(5);
    // The defendant owns two agents; the wallet index points at the newer, so it links the older one.
    const dId = await register(6);
    await register(6);
    await kit.actor(c, 6).send({
      to: e.reporter,
      data: encodeFunctionData({ abi: kit.courtReputationAbi, functionName: "link", args: [dId] }),
    });
    await kit.expectRevert(
      kit.actor(c, 4).send({
        to: e.reporter,
        data: encodeFunctionData({ abi: kit.courtReputationAbi, functionName: "link", args: [dId] }),
      }),
      "NotAgentController",
    );

    const { caseAddr } = await kit.fileCase(c, plaintiff, defendant.address);
    await kit.respond(caseAddr, defendant);
    await kit.seat(c, caseAddr, judges());
    await kit.vote(caseAddr, kit.actor(c, 7), true);
    await kit.vote(caseAddr, kit.actor(c, 8), true);
    await kit.advance(c, kit.P.appealWindow + 1n);
    const r = await kit.settle(caseAddr, kit.actor(c, 17));
    const posted = reporterEvents(r.logs).filter((l) => l.eventName === "FeedbackPosted");
    expect(posted.map((l) => [l.args.party, l.args.agentId, l.args.outcome])).toEqual([
      [plaintiff.address, pId, "won"],
      [defendant.address, dId, "lost"],
    ]);
    const reporter = [e.reporter];
    expect(await repRead("getSummary", [pId, reporter, "verdict", "won"])).toEqual([1n, 100n, 0]);
    expect(await repRead("getSummary", [dId, reporter, "verdict", ""])).toEqual([1n, 0n, 0]);
    const [fc] = parseEventLogs({ abi: kit.reputationRegistryAbi, eventName: "NewFeedback", logs: r.logs });
    expect(fc?.args.feedbackURI).toBe(`docket://cases/${caseAddr.toLowerCase()}`);
    expect(fc?.args.clientAddress).toBe(e.reporter);

    const card = await describeAgent(plaintiff.address);
    expect(card.agentId).toBe(pId);
    expect(card.owner).toBe(plaintiff.address);
    expect(card.wallet).toBe(plaintiff.address);
    expect(card.agentURI).toBe("https://agents.example/5.json");
    expect([card.verdicts.count, card.verdicts.value, card.won, card.lost]).toEqual([1n, 100n, 1n, 0n]);
    expect((await describeAgent(defendant.address)).lost).toBe(1n);
    expect((await describeAgent(kit.actor(c, 14).address)).agentId).toBe(0n);
  });

  it("a default: the defendant's feedback says defaulted, the plaintiff's a default win (no verdict); a dismissal gives both parties dismissed", async () => {
    const pId = await register(13);
    const dId = await register(14);
    const { caseAddr } = await kit.fileCase(c, kit.actor(c, 13), kit.actor(c, 14).address);
    await kit.advance(c, kit.P.responseWindow + 1n);
    await kit.triggerDefault(caseAddr, kit.actor(c, 17));
    expect((await describeAgent(kit.actor(c, 14).address)).defaulted).toBe(1n);
    const winner = await describeAgent(kit.actor(c, 13).address);
    expect([winner.won, winner.defaultWins, winner.verdicts.count]).toEqual([0n, 1n, 0n]);

    const second = (await kit.fileCase(c, kit.actor(c, 13), kit.actor(c, 14).address)).caseAddr;
    await kit.respond(second, kit.actor(c, 14));
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    const r = await kit.resolveAfterDeadline(second, kit.actor(c, 17));
    expect(
      reporterEvents(r.logs)
        .filter((l) => l.eventName === "FeedbackPosted")
        .map((l) => l.args.outcome),
    ).toEqual(["dismissed", "dismissed"]);
    expect(await repRead("getSummary", [pId, [e.reporter], "dismissed", ""])).toEqual([1n, 0n, 0]);
    expect((await describeAgent(kit.actor(c, 14).address)).dismissed).toBe(1n);
    expect(dId).toBeGreaterThan(0n);
  });

  it("an owner who made the court its operator refuses the feedback: logged, and the case still ends", async () => {
    const id = await register(3);
    await idWrite(3, "setApprovalForAll", [e.reporter, true]);
    const { caseAddr } = await kit.fileCase(c, kit.actor(c, 2), kit.actor(c, 3).address);
    await kit.advance(c, kit.P.responseWindow + 1n);
    const r = await kit.triggerDefault(caseAddr, kit.actor(c, 17));
    const failed = reporterEvents(r.logs).filter((l) => l.eventName === "FeedbackFailed");
    expect(failed.map((l) => [l.args.party, l.args.agentId])).toEqual([[kit.actor(c, 3).address, id]]);
    await idWrite(3, "setApprovalForAll", [e.reporter, false]);
  });

  it("a registry that reverts cannot block a case's end; too little gas for the hook is refused up front", async () => {
    // A second reporter whose "reputation registry" is a contract without giveFeedback.
    const broken = await deployErc8004(c.owner.wallet, c.reader, c.registry, {
      identity: e.identity,
      reputation: c.entropy,
    });
    try {
      await register(12);
      const { caseAddr } = await kit.fileCase(c, kit.actor(c, 12), kit.actor(c, 11).address);
      await kit.advance(c, kit.P.responseWindow + 1n);
      // A wallet sending too little gas for the hook is refused, not quietly left without feedback.
      const data = encodeFunctionData({ abi: kit.disputeCaseAbi, functionName: "triggerDefault" });
      await kit.expectRevert(
        c.reader.call({ to: caseAddr, data, gas: 400_000n, account: kit.actor(c, 17).address }),
        "NotEnoughGasForOutcomeHook",
      );
      const r = await kit.triggerDefault(caseAddr, kit.actor(c, 17));
      const failed = reporterEvents(r.logs).filter((l) => l.eventName === "FeedbackFailed");
      expect(failed).toHaveLength(1);
      expect(failed[0]?.args.party).toBe(kit.actor(c, 12).address);
    } finally {
      await c.owner.write({
        address: c.registry,
        abi: kit.courtRegistryAbi,
        functionName: "setOutcomeHook",
        args: [e.reporter],
      });
    }
    expect(broken.reporter).not.toBe(e.reporter);
  });

  it("#26 hole 6: a hook with no code is refused when set and skipped when called; every way to end a case still works", async () => {
    const setHook = (hook: Address) =>
      c.owner.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "setOutcomeHook", args: [hook] });
    const eoa = kit.actor(c, 18).address;
    // The old sequence: the owner sets an EOA as the hook. Refused now.
    await kit.expectRevert(setHook(eoa), "HookHasNoCode", [eoa]);
    // An address whose code goes away after it was set (an EIP-7702 delegation cleared): give the
    // EOA code, set it, take the code away again.
    await kit.rpc(c, "anvil_setCode", [eoa, "0x00"]);
    await setHook(eoa);
    await kit.rpc(c, "anvil_setCode", [eoa, "0x"]);
    try {
      const hookSkipped = (r: { logs: Parameters<typeof parseEventLogs>[0]["logs"] }, caseAddr: Address) =>
        expect(
          parseEventLogs({ abi: kit.courtRegistryAbi, eventName: "OutcomeHookFailed", logs: r.logs }).map(
            (l) => l.args.caseAddr,
          ),
        ).toEqual([caseAddr]);
      const [p, d, keeper] = [kit.actor(c, 4), kit.actor(c, 5), kit.actor(c, 17)];

      const defaulted = (await kit.fileCase(c, p, d.address)).caseAddr;
      await kit.advance(c, kit.P.responseWindow + 1n);
      hookSkipped(await kit.triggerDefault(defaulted, keeper), defaulted);

      const dismissed = (await kit.fileCase(c, p, d.address)).caseAddr;
      await kit.respond(dismissed, d);
      await kit.advance(c, kit.P.deliberationPeriod + 1n);
      hookSkipped(await kit.resolveAfterDeadline(dismissed, keeper), dismissed);

      const decided = (await kit.fileCase(c, p, d.address)).caseAddr;
      await kit.respond(decided, d);
      await kit.seat(c, decided, judges());
      const [j1, j2] = judges() as [Actor, Actor];
      await kit.vote(decided, j1, true);
      await kit.vote(decided, j2, true); // two of three: the verdict
      await kit.advance(c, kit.P.appealWindow + 1n);
      // The verdict is recorded (and the hook told) when it is paid out.
      hookSkipped(await kit.settle(decided, keeper), decided);
      const state = (a: Address) =>
        c.reader.readContract({ address: a, abi: kit.disputeCaseAbi, functionName: "state" });
      const settled = c.reader.readContract({ address: decided, abi: kit.disputeCaseAbi, functionName: "settled" });
      // Defaulted, Dismissed, Resolved and paid out.
      expect([await state(defaulted), await state(dismissed), await state(decided), await settled]).toEqual([
        6,
        5,
        4,
        true,
      ]);
    } finally {
      await setHook(e.reporter);
    }
  });
});
