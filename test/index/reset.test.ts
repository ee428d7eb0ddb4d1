/**
 * A reset and a chain-id change under the index (in memory, PGlite), found as the follower finds them
 * (test/chain/reorg.test.ts, test/chain/chainId.test.ts): another dev chain behind the same RPC URL
 * (a new genesis, the same deployment addresses, other blocks) makes the index start again from the
 * new chain and equal its full scan; a node answering another chain id stores nothing of it, and once
 * it answers the right chain again the index catches up with what was mined meanwhile.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devPublicParams } from "../../src/deploy/terms.js";
import { type AnvilProcess, startAnvil } from "../../src/devnet/anvil.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import type { Docket } from "../../src/server.js";
import { type RpcProxy, request, stakeOnChain, startBehind, startRpcProxy, TEST_INDEX } from "../support/index.js";
import { compareWithChain, diffIndex, followToHead, indexDb, readIndexImage } from "./fullScan.js";

describe("the index after a reset and across a wrong chain id", () => {
  let first: Devnet;
  let second: Devnet;
  let other: AnvilProcess;
  let proxy: RpcProxy;
  let d: Docket;

  beforeAll(async () => {
    [first, other] = await Promise.all([startDevnet({ params: devPublicParams }), startAnvil({ chainId: 1 })]);
    proxy = await startRpcProxy(first.rpcUrl);
    d = await startBehind(proxy.url, first, { ...TEST_INDEX, INDEX: "on" });
    await followToHead(d, first.reader);
  }, 180_000);
  afterAll(async () => {
    await d?.close();
    await proxy?.close();
    await Promise.all([first?.stop(), second?.stop(), other?.stop()]);
  });

  it("a node answering another chain id adds nothing; back on the right chain it catches up", async () => {
    const before = await readIndexImage(indexDb(d), first.reader, first.deployment);
    proxy.setUpstream(other.rpcUrl);
    await stakeOnChain(first, 19);
    await d.follower?.poll().catch(() => {});
    await d.follower?.poll().catch(() => {});
    expect((await request(d, "/health")).status).toBe(503);
    const during = await readIndexImage(indexDb(d), first.reader, first.deployment);
    expect(diffIndex(before, during)).toEqual([]);
    proxy.setUpstream(first.rpcUrl);
    await followToHead(d, first.reader);
    const { diff, index } = await compareWithChain(indexDb(d), first.reader, first.deployment);
    expect(diff).toEqual([]);
    expect(index.events.at(-1)?.name).toBe("JudgeStaked");
  });

  it("a reset (another chain at the same RPC URL): the index starts again from the new chain", {
    timeout: 120_000,
  }, async () => {
    // Started seconds after the first: its genesis (which holds its time) differs.
    second = await startDevnet({ params: devPublicParams });
    const genesis = async (x: Devnet) => (await x.reader.getBlock({ blockNumber: 0n })).hash;
    expect(await genesis(second)).not.toBe(await genesis(first));
    // The same deployment (the same deployer and nonces), other blocks: a judge stakes on this one only.
    expect(second.deployment.factory).toBe(first.deployment.factory);
    await stakeOnChain(second, 18);
    proxy.setUpstream(second.rpcUrl);
    await followToHead(d, second.reader);
    const { diff, index } = await compareWithChain(indexDb(d), second.reader, second.deployment);
    expect(diff).toEqual([]);
    // Nothing of the first chain is left: its last event (the stake of #19) is not on this one.
    const staked = index.events.filter((e) => e.name === "JudgeStaked").map((e) => JSON.stringify(e.args));
    expect(staked.some((a) => a.includes(first.accounts[19]?.address as string))).toBe(false);
    expect(staked.some((a) => a.includes(second.accounts[18]?.address as string))).toBe(true);
  });
});
