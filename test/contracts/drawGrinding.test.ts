/**
 * Draws nobody can steer. A case arms its draw when it becomes ready for a panel (the defendant's
 * answer, or an appeal): the entropy is the hash of the arming block, unknown to everyone when the
 * answer is sent, and the pool is read as it was at the end of that block. Whoever executes the
 * draw, whenever and with whatever calldata, seats the same judges; stake moved after the arming
 * changes nothing, except that a judge who left the pool is skipped.
 */
import {
  type Address,
  decodeErrorResult,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  toFunctionSelector,
} from "viem";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";

let c: kit.CourtDeployment;
/** Judges 7..14 stake 1..8 ETH; accounts 15..17 stay out of the pool until a test brings them in. */
const { party, judge } = kit.courtOfFile(async (court) => {
  c = court;
  for (let i = 0; i < 8; i++) await kit.stakeJudges(c, [judge(i)], parseEther(String(i + 1)));
});

// Every test starts from the same pool, with no judge serving anywhere (so any of them may leave).
let fresh: { revert(): Promise<void> };
beforeEach(async () => {
  fresh = await kit.snapshot(c);
});
afterEach(async () => {
  await fresh.revert();
});

/** Files and answers a case: the answer arms the draw. Returns the case and the arming block. */
async function armed(p = party(1), d = party(2)): Promise<{ caseAddr: Address; armedAt: bigint }> {
  const { caseAddr } = await kit.fileCase(c, p, d.address);
  const r = await kit.respond(caseAddr, d);
  return { caseAddr, armedAt: r.blockNumber };
}

async function panelOf(caseAddr: Address): Promise<readonly Address[]> {
  return (await kit.readCase(c, caseAddr)).judges;
}

/**
 * The panel worked out from public data alone: the arming block's hash, the case, the round, and
 * the registry's pool at the arming block. If the contract seats exactly this, the caller had no
 * input into it.
 */
async function predictPanel(caseAddr: Address, size = 3, excluded?: Address[]): Promise<readonly Address[]> {
  const v = await kit.readCase(c, caseAddr);
  const block = await c.reader.getBlock({ blockNumber: v.drawTicket });
  const value = keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }], [block.hash, v.drawTicket]));
  const seed = keccak256(
    encodeAbiParameters([{ type: "bytes32" }, { type: "address" }, { type: "uint8" }], [value, caseAddr, v.round]),
  );
  return c.reader.readContract({
    address: c.registry,
    abi: kit.courtRegistryAbi,
    functionName: "drawPanel",
    args: [1n, seed, BigInt(v.drawPoolBlock), BigInt(size), excluded ?? [v.plaintiff, v.defendant]],
  });
}

/** Runs `attempt` from the current chain state, returns the panel it seated, and rewinds. */
async function tryDraw(caseAddr: Address, attempt: () => Promise<unknown>): Promise<readonly Address[]> {
  const snap = await kit.snapshot(c);
  try {
    await attempt();
    return await panelOf(caseAddr);
  } finally {
    await snap.revert();
  }
}

describe("armed draws", () => {
  it("the answer arms the draw: DrawArmed names the arming block as ticket and pool block", async () => {
    const { caseAddr } = await kit.fileCase(c, party(1), party(2).address);
    const before = await kit.readCase(c, caseAddr);
    expect([before.drawTicket, before.drawPoolBlock]).toEqual([0n, 0n]);
    const r = await kit.respond(caseAddr, party(2));
    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "DrawArmed", logs: r.logs });
    expect(ev?.args).toEqual({ round: 1, ticket: r.blockNumber, poolBlock: r.blockNumber });
    const v = await kit.readCase(c, caseAddr);
    expect([v.drawTicket, v.drawPoolBlock]).toEqual([r.blockNumber, r.blockNumber]);
  });

  it("the seeded draw is gone: assignJudgesRandom takes only the case, and the old selector does not exist", async () => {
    const draws = kit.caseFactoryAbi.filter((x) => x.type === "function" && x.name === "assignJudgesRandom");
    expect(draws.map((x) => x.inputs.map((i) => i.type))).toEqual([["address"]]);
    const onCase = kit.disputeCaseAbi.filter((x) => x.type === "function" && x.name === "drawJudges");
    expect(onCase.map((x) => x.inputs.length)).toEqual([0]);
    const { caseAddr } = await armed();
    // The old entry point, called by hand with a chosen seed: no such function (and no fallback).
    const old = toFunctionSelector("assignJudgesRandom(address,uint256)");
    const data =
      `${old}${encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [caseAddr, 42n]).slice(2)}` as Hex;
    await expect(party(3).send({ to: c.factory, data })).rejects.toThrow();
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Active);
  });

  it("the draw cannot run in the block that armed it: DrawNotReady, then it runs in any later block", async () => {
    const d = party(2);
    const { caseAddr } = await kit.fileCase(c, party(1), d.address);
    // The answer and a draw by the defendant itself (nonce order), mined together in one block.
    await kit.rpc(c, "evm_setAutomine", [false]);
    let hashes: Hex[];
    try {
      const nonce = await c.reader.getTransactionCount({ address: d.address });
      const common = { account: d.account, chain: c.devnet.chain, gas: 3_000_000n } as const;
      hashes = [
        await d.wallet.writeContract({
          ...common,
          address: caseAddr,
          abi: kit.disputeCaseAbi,
          functionName: "respond",
          value: c.params.minPartyStake,
          nonce,
        }),
        await d.wallet.writeContract({
          ...common,
          address: c.factory,
          abi: kit.caseFactoryAbi,
          functionName: "assignJudgesRandom",
          args: [caseAddr],
          nonce: nonce + 1,
        }),
      ];
      await kit.rpc(c, "evm_mine");
    } finally {
      await kit.rpc(c, "evm_setAutomine", [true]);
    }
    const [answered, early] = await Promise.all(hashes.map((hash) => c.reader.getTransactionReceipt({ hash })));
    expect(answered?.blockNumber).toBe(early?.blockNumber);
    expect([answered?.status, early?.status]).toEqual(["success", "reverted"]);
    const trace = await kit.rpc<{ output: Hex }>(c, "debug_traceTransaction", [hashes[1], { tracer: "callTracer" }]);
    const armedAt = answered?.blockNumber as bigint;
    const decoded = decodeErrorResult({ abi: kit.disputeCaseAbi, data: trace.output });
    expect([decoded.errorName, decoded.args]).toEqual(["DrawNotReady", [armedAt]]);

    // The same holds for a call run at the arming block itself, whoever sends it.
    for (const who of [party(3), d, c.owner]) {
      await kit.expectRevert(
        c.reader.simulateContract({
          account: who.account,
          address: c.factory,
          abi: kit.caseFactoryAbi,
          functionName: "assignJudgesRandom",
          args: [caseAddr],
          blockNumber: armedAt,
        }),
        "DrawNotReady",
        [armedAt],
      );
    }
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Active);
    await kit.drawJudges(c, caseAddr, party(3));
    expect(await panelOf(caseAddr)).toEqual(await predictPanel(caseAddr));
  });

  it("nobody can change the panel: any caller, any later block, any trailing calldata seats the same judges", async () => {
    const { caseAddr } = await armed(party(3), party(4));
    const expected = await predictPanel(caseAddr);
    expect(expected).toHaveLength(3);
    const byFactory = (who: Actor, extra: Hex = "0x") =>
      who.send({
        to: c.factory,
        data: `${encodeFunctionData({ abi: kit.caseFactoryAbi, functionName: "assignJudgesRandom", args: [caseAddr] })}${extra.slice(2)}`,
      });
    const attempts: [string, () => Promise<unknown>][] = [
      ["a stranger", () => kit.drawJudges(c, caseAddr, party(5))],
      ["the plaintiff", () => kit.drawJudges(c, caseAddr, party(3))],
      ["the defendant", () => kit.drawJudges(c, caseAddr, party(4))],
      ["a judge in the pool", () => kit.drawJudges(c, caseAddr, judge(7))],
      ["the owner", () => kit.drawJudges(c, caseAddr, c.owner)],
      ["a stranger with a seed appended", () => byFactory(party(5), `0x${"2a".padStart(64, "0")}`)],
      ["the plaintiff with junk appended", () => byFactory(party(3), keccak256("0x01"))],
      [
        "a stranger 7 blocks later",
        async () => {
          await kit.mineBlocks(c, 7);
          await kit.drawJudges(c, caseAddr, party(5));
        },
      ],
      [
        "the defendant 200 blocks later",
        async () => {
          await kit.mineBlocks(c, 200);
          await kit.drawJudges(c, caseAddr, party(4));
        },
      ],
    ];
    for (const [who, attempt] of attempts) {
      expect(await tryDraw(caseAddr, attempt), who).toEqual(expected);
    }
  });

  it("stake moved after the arming changes nothing; nobody counted in the draw may leave before it", async () => {
    const { caseAddr, armedAt } = await armed(party(5), party(6));
    const expected = await predictPanel(caseAddr);
    // Who the draw would pick next, were one of the panel to drop out (computed before anyone does).
    const ofFour = await predictPanel(caseAddr, 4);
    expect(ofFour.slice(0, 3)).toEqual(expected);

    // A whale joins right after the arming: it has no weight at the arming block.
    const whale = kit.actor(c, 15);
    const withWhale = await tryDraw(caseAddr, async () => {
      await kit.stakeJudges(c, [whale], parseEther("1000"));
      const args = [1n, whale.address, armedAt] as const;
      const [atArming, latest] = await Promise.all([
        c.reader.readContract({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "weightAt", args }),
        c.reader.readContract({
          address: c.registry,
          abi: kit.courtRegistryAbi,
          functionName: "weightAt",
          args: [1n, whale.address, await c.reader.getBlockNumber()],
        }),
      ]);
      expect(atArming[0]).toBe(0n);
      expect(latest).toEqual([parseEther("1000"), atArming[1] + parseEther("1000")]);
      await kit.drawJudges(c, caseAddr, party(1));
    });
    expect(withWhale).toEqual(expected);

    // A judge outside the panel piles on stake, or leaves: the panel stays.
    const outsider = [0, 1, 2, 3, 4, 5, 6, 7].map(judge).find((j) => !expected.includes(j.address)) as Actor;
    expect(
      await tryDraw(caseAddr, async () => {
        await kit.stakeJudges(c, [outsider], parseEther("500"));
        await kit.drawJudges(c, caseAddr, party(1));
      }),
    ).toEqual(expected);
    // Nobody counted in the armed draw may leave before it is executed (issue #31): the outsider
    // and a judge of the would-be panel are both refused, so the panel stands.
    const leaver = expected[1] as Address;
    const leaverActor = [0, 1, 2, 3, 4, 5, 6, 7].map(judge).find((j) => j.address === leaver) as Actor;
    for (const who of [outsider, leaverActor]) {
      await kit.expectRevert(
        who.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstake" }),
        "DrawPendingInCourt",
        [1n],
      );
    }
    expect(await tryDraw(caseAddr, () => kit.drawJudges(c, caseAddr, party(1)))).toEqual(expected);
  });

  it("an appeal arms a fresh draw: round two's panel is fixed by the appeal block, round one's judges excluded", async () => {
    const [p, d] = [party(1), party(2)];
    const { caseAddr } = await armed(p, d);
    await kit.drawJudges(c, caseAddr, party(5));
    const round1 = [...(await panelOf(caseAddr))];
    const voters = [0, 1, 2, 3, 4, 5, 6, 7].map(judge).filter((j) => round1.includes(j.address));
    for (const j of voters.slice(0, 2)) await kit.vote(caseAddr, j, true);
    const r = await kit.appeal(caseAddr, d);
    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "DrawArmed", logs: r.logs });
    expect(ev?.args).toEqual({ round: 2, ticket: r.blockNumber, poolBlock: r.blockNumber });
    const expected = await predictPanel(caseAddr, 5, [p.address, d.address, ...round1]);
    for (const who of [party(5), p, d]) {
      const panel = await tryDraw(caseAddr, () => kit.drawJudges(c, caseAddr, who));
      expect(panel).toEqual(expected);
      for (const a of round1) expect(panel).not.toContain(a);
    }
  });

  it("an expired draw re-arms instead of seating, and the new draw reads the pool at the new arming block", async () => {
    const { caseAddr, armedAt } = await armed(party(1), party(3));
    const expected = await predictPanel(caseAddr);
    // 256 blocks on, the arming block's hash is still readable: the draw seats the panel.
    const lastChance = await tryDraw(caseAddr, async () => {
      await kit.mineBlocks(c, 255);
      const r = await kit.drawJudges(c, caseAddr, party(5));
      expect(r.blockNumber).toBe(armedAt + 256n);
    });
    expect(lastChance).toEqual(expected);

    // One block later it is gone: the draw re-arms, seats nobody, and the case waits.
    const newcomer = kit.actor(c, 16);
    await kit.stakeJudges(c, [newcomer], parseEther("50"));
    await kit.mineBlocks(c, 255);
    const r = await kit.drawJudges(c, caseAddr, party(5));
    expect(r.blockNumber).toBe(armedAt + 257n);
    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "DrawArmed", logs: r.logs });
    expect(ev?.args).toEqual({ round: 1, ticket: r.blockNumber, poolBlock: r.blockNumber });
    expect(parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "JudgesAssigned", logs: r.logs })).toEqual([]);
    const v = await kit.readCase(c, caseAddr);
    expect([v.state, v.judges.length, v.drawTicket, v.drawPoolBlock]).toEqual([
      kit.State.Active,
      0,
      r.blockNumber,
      r.blockNumber,
    ]);
    // The new arming reads the pool as it is now, newcomer included (weighted at its 50 ETH).
    const [weight] = await c.reader.readContract({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "weightAt",
      args: [1n, newcomer.address, r.blockNumber],
    });
    expect(weight).toBe(parseEther("50"));
    await kit.drawJudges(c, caseAddr, party(6));
    expect(await panelOf(caseAddr)).toEqual(await predictPanel(caseAddr));
    expect((await kit.readCase(c, caseAddr)).state).toBe(kit.State.Deliberating);
  });
});
