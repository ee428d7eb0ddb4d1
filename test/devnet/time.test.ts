/**
 * The dev chain's clock, through its public JSON-RPC URL (what `npm start` prints and wallets,
 * Foundry and Hardhat use): the standard time travel moves it, and gas estimates hold for the
 * block the transaction lands in, even sent in quick succession or a wall-clock second later.
 * Every transaction here is sent as viem sends it by default: gas limit = the bare estimate.
 */
import { type Address, createTestClient, http, type PublicClient, parseEther, parseEventLogs, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeChain, makePublicClient } from "../../src/chain/client.js";
import { voteCommitment } from "../../src/chain/votes.js";
import { devParams, devPublicParams } from "../../src/deploy/terms.js";
import { Actor } from "../../src/devnet/actor.js";
import { DEV_CHAIN_ID } from "../../src/devnet/anvil.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi, freshRef, State, saltOf } from "../contracts/helpers.js";

let rpcId = 0;
async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result as T;
}

async function latestTimestamp(url: string): Promise<bigint> {
  const block = await rpc<{ timestamp: string }>(url, "eth_getBlockByNumber", ["latest", false]);
  return BigInt(block.timestamp);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A dev chain as a user sees it: actors and reads through the public URL, no headroom on gas. */
interface UserChain {
  devnet: Devnet;
  url: string;
  reader: PublicClient;
  actor(i: number): Actor;
}

async function userChain(params = devPublicParams): Promise<UserChain> {
  const devnet = await startDevnet({ seed: false, params });
  const chain = makeChain(DEV_CHAIN_ID, devnet.rpcUrl);
  const reader = makePublicClient(chain);
  const actors = devnet.accounts.map((a) => new Actor(a.account, chain, reader));
  return {
    devnet,
    url: devnet.rpcUrl,
    reader,
    actor: (i) => {
      const a = actors[i];
      if (!a) throw new Error(`no dev account ${i}`);
      return a;
    },
  };
}

async function fileCase(u: UserChain, plaintiff: Actor, defendant: Address): Promise<Address> {
  const { factory } = u.devnet.deployment;
  const ref = freshRef();
  await plaintiff.write({
    address: factory,
    abi: caseFactoryAbi,
    functionName: "payFilingFee",
    args: [ref],
    value: devParams.filingFee,
  });
  const receipt = await plaintiff.write({
    address: factory,
    abi: caseFactoryAbi,
    functionName: "fileCase",
    args: [0n, defendant, "Goods paid for were never delivered.", "bafkreiclaim", ref],
    value: devParams.minPartyStake,
  });
  const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
  if (!filed) throw new Error("fileCase emitted no CaseFiled");
  return filed.args.caseAddr;
}

const respond = (caseAddr: Address, defendant: Actor) =>
  defendant.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "respond", value: devParams.minPartyStake });

const draw = (u: UserChain, caseAddr: Address, keeper: Actor) =>
  keeper.write({
    address: u.devnet.deployment.factory,
    abi: caseFactoryAbi,
    functionName: "assignJudgesRandom",
    args: [caseAddr],
  });

const stateOf = async (u: UserChain, caseAddr: Address) =>
  (await u.reader.readContract({ address: caseAddr, abi: disputeCaseAbi, functionName: "getCase" })).state;

const panelOf = async (u: UserChain, caseAddr: Address) =>
  (await u.reader.readContract({ address: caseAddr, abi: disputeCaseAbi, functionName: "getPanel", args: [1] }))[0];

/** Judges 7..14 stake, each its own transaction. */
async function stakeJudges(u: UserChain): Promise<void> {
  for (let i = 7; i <= 14; i++) {
    await u.actor(i).write({
      address: u.devnet.deployment.registry,
      abi: courtRegistryAbi,
      functionName: "stakeAsJudge",
      args: [0n],
      value: parseEther("0.2"),
    });
  }
}

const byAddress = (u: UserChain, a: Address): Actor => {
  const i = u.devnet.accounts.findIndex((x) => x.address.toLowerCase() === a.toLowerCase());
  return u.actor(i);
};

describe("dev chain time travel (public votes)", () => {
  let u: UserChain;
  beforeAll(async () => {
    u = await userChain(devPublicParams);
    await stakeJudges(u);
  });
  afterAll(async () => {
    await u?.devnet.stop();
  });

  it("evm_increaseTime(3600) + evm_mine moves the latest block's time by at least an hour", async () => {
    const before = await latestTimestamp(u.url);
    // anvil's own answer: the total offset it now applies.
    expect(typeof (await rpc(u.url, "evm_increaseTime", [3600]))).toBe("number");
    await rpc(u.url, "evm_mine");
    const after = await latestTimestamp(u.url);
    expect(after - before).toBeGreaterThanOrEqual(3600n);
    // Hex seconds, twice before one block: they add up.
    await rpc(u.url, "evm_increaseTime", [toHex(600)]);
    await rpc(u.url, "evm_increaseTime", [toHex(600)]);
    await rpc(u.url, "evm_mine");
    expect((await latestTimestamp(u.url)) - after).toBeGreaterThanOrEqual(1200n);
  });

  it("viem's test client (increaseTime, mine with an interval) and a JSON-RPC batch travel too", async () => {
    const test = createTestClient({ mode: "anvil", chain: makeChain(DEV_CHAIN_ID, u.url), transport: http(u.url) });
    let t0 = await latestTimestamp(u.url);
    await test.increaseTime({ seconds: 7200 });
    await test.mine({ blocks: 1 });
    expect((await latestTimestamp(u.url)) - t0).toBeGreaterThanOrEqual(7200n);

    t0 = await latestTimestamp(u.url);
    await test.mine({ blocks: 3, interval: 500 });
    expect((await latestTimestamp(u.url)) - t0).toBeGreaterThanOrEqual(1500n);

    t0 = await latestTimestamp(u.url);
    const res = await fetch(u.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: "a", method: "evm_increaseTime", params: [86_400] },
        { jsonrpc: "2.0", id: "b", method: "evm_mine", params: [] },
        { jsonrpc: "2.0", id: "c", method: "eth_getBlockByNumber", params: ["latest", false] },
      ]),
    });
    const answers = (await res.json()) as { id: string; result: { timestamp: string } }[];
    expect(answers.map((a) => a.id)).toEqual(["a", "b", "c"]);
    expect(BigInt(answers[2]?.result.timestamp as string) - t0).toBeGreaterThanOrEqual(86_400n);
  });

  it("after a jump, blocks are again one second apart: never two in the same second", async () => {
    await rpc(u.url, "evm_increaseTime", [3600]);
    await rpc(u.url, "evm_mine");
    const a = await latestTimestamp(u.url);
    await rpc(u.url, "evm_mine");
    const b = await latestTimestamp(u.url);
    await rpc(u.url, "evm_mine");
    const c = await latestTimestamp(u.url);
    expect([b - a, c - b]).toEqual([1n, 1n]);
    // viem's mine without an interval (it sends 0): still one second apart.
    const test = createTestClient({ mode: "anvil", chain: makeChain(DEV_CHAIN_ID, u.url), transport: http(u.url) });
    await test.mine({ blocks: 3 });
    expect((await latestTimestamp(u.url)) - c).toBe(3n);
  });

  it("a case's response window passes with evm_increaseTime, and triggerDefault succeeds", async () => {
    const caseAddr = await fileCase(u, u.actor(1), u.actor(2).address);
    const trigger = () => u.actor(3).write({ address: caseAddr, abi: disputeCaseAbi, functionName: "triggerDefault" });
    // Still open: refused at the estimate.
    await expect(trigger()).rejects.toThrow(/ResponseWindowStillOpen/);
    await rpc(u.url, "evm_increaseTime", [Number(devParams.responseWindow) + 1]);
    await rpc(u.url, "evm_mine");
    const receipt = await trigger();
    expect(receipt.status).toBe("success");
    expect(await stateOf(u, caseAddr)).toBe(State.Defaulted);
  });

  it("a draw estimated in the respond block's wall-clock second and sent in the next fits its estimate", async () => {
    // The draw writes deliberationDeadline = now + period, which respond wrote a block earlier: in
    // the same second that write changes nothing and costs 2,800 gas less. The estimate must be
    // priced at the timestamp of the block the draw lands in.
    for (let attempt = 0; ; attempt++) {
      const caseAddr = await fileCase(u, u.actor(4), u.actor(5).address);
      // Start just after a wall-clock second begins: respond and the estimate then share it.
      await sleep(1000 - (Date.now() % 1000) + 20);
      const second = Math.floor(Date.now() / 1000);
      await respond(caseAddr, u.actor(5));
      const req = {
        address: u.devnet.deployment.factory,
        abi: caseFactoryAbi,
        functionName: "assignJudgesRandom",
        args: [caseAddr],
      } as const;
      const keeper = u.actor(0);
      const gas = await u.reader.estimateContractGas({ ...req, account: keeper.account });
      if (Math.floor(Date.now() / 1000) !== second) {
        // The machine was too slow to keep both in one second; try again (bounded).
        if (attempt < 5) continue;
        throw new Error("could not respond and estimate within one wall-clock second");
      }
      await sleep(1000 - (Date.now() % 1000) + 20);
      const receipt = await keeper.mined(await keeper.wallet.writeContract({ ...req, gas }));
      expect(receipt.status).toBe("success");
      expect(await stateOf(u, caseAddr)).toBe(State.Deliberating);
      return;
    }
  });

  it("many transactions in quick succession, each with viem's bare estimate, all succeed", async () => {
    for (let round = 0; round < 6; round++) {
      const plaintiff = u.actor(1 + (round % 3));
      const defendant = u.actor(4 + (round % 3));
      const caseAddr = await fileCase(u, plaintiff, defendant.address);
      await respond(caseAddr, defendant);
      await plaintiff.write({
        address: caseAddr,
        abi: disputeCaseAbi,
        functionName: "submitEvidence",
        args: [`bafy${round}`],
      });
      await draw(u, caseAddr, u.actor(16 + (round % 3)));
      const panel = await panelOf(u, caseAddr);
      for (const [k, judge] of panel.entries()) {
        if ((await stateOf(u, caseAddr)) !== State.Deliberating) break;
        await byAddress(u, judge).write({
          address: caseAddr,
          abi: disputeCaseAbi,
          functionName: "vote",
          args: [k !== 1],
        });
      }
      expect(await stateOf(u, caseAddr)).toBe(State.Resolved);
      // A top-up stake between cases.
      await u.actor(7 + (round % 8)).write({
        address: u.devnet.deployment.registry,
        abi: courtRegistryAbi,
        functionName: "stakeAsJudge",
        args: [0n],
        value: parseEther("0.01"),
      });
    }
  });
});

describe("dev chain gas estimates with hidden votes", () => {
  let u: UserChain;
  beforeAll(async () => {
    u = await userChain(devParams);
    await stakeJudges(u);
  });
  afterAll(async () => {
    await u?.devnet.stop();
  });

  it("respond, draw, commits and reveals in quick succession, each with viem's bare estimate, all succeed", async () => {
    for (let round = 0; round < 4; round++) {
      const caseAddr = await fileCase(u, u.actor(1 + round), u.actor(5 + (round % 2)).address);
      await respond(caseAddr, u.actor(5 + (round % 2)));
      await draw(u, caseAddr, u.actor(0));
      const panel = (await panelOf(u, caseAddr)).map((j) => byAddress(u, j));
      for (const [k, judge] of panel.entries()) {
        const commitment = voteCommitment({
          caseAddress: caseAddr,
          judge: judge.address,
          round: 1,
          plaintiffWins: k !== 2,
          salt: saltOf(caseAddr, judge.address, 1),
        });
        await judge.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "commitVote", args: [commitment] });
      }
      for (const [k, judge] of panel.entries()) {
        if ((await stateOf(u, caseAddr)) !== State.Deliberating) break;
        await judge.write({
          address: caseAddr,
          abi: disputeCaseAbi,
          functionName: "revealVote",
          args: [k !== 2, saltOf(caseAddr, judge.address, 1), "reasons"],
        });
      }
      expect(await stateOf(u, caseAddr)).toBe(State.Resolved);
    }
  });
});
