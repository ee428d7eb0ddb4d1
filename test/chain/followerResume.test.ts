import { type Hex, parseEther } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { courtRegistryAbi } from "../../src/chain/abi/generated.js";
import type { ChainAccess } from "../../src/chain/access.js";
import { connectChain } from "../../src/chain/connect.js";
import { authenticLogs, courtEvents } from "../../src/chain/courtLogs.js";
import {
  type Anchor,
  type CourtLog,
  type Follower,
  type FollowerOptions,
  followCourt,
  type PollMeta,
} from "../../src/chain/follower.js";
import { loadConfig } from "../../src/config.js";
import { Actor } from "../../src/devnet/actor.js";
import { type AnvilProcess, startAnvil } from "../../src/devnet/anvil.js";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { keysForEvent } from "../../src/freshness/stale.js";
import { makeLogger } from "../../src/log.js";
import { type ChainLease, chainEnv, leaseChain, mine, type RpcProxy, rpc, startRpcProxy } from "../support/index.js";

/**
 * The follower resuming from a durable cursor (the index's): the anchor hook says where it starts,
 * persist stores each step before the cursor moves past it. The store here is a stand-in written
 * for the test (court logs in a Map keyed by block hash and log index, the blocks handled with their
 * hashes); the chain is a shared seeded dev chain behind the RPC proxy, with real reorgs
 * (evm_snapshot / evm_revert, then new blocks) and a real reset (a fresh anvil behind the proxy).
 * Polled by hand (the interval is an hour), so "one poll" is one call of `poll()`.
 */

/** Blocks per eth_getLogs: small, so the seeded chain is walked in several steps. */
const RANGE = 20;

const keyOf = (l: CourtLog) => `${l.blockHash}:${l.logIndex}`;

/** A tiny stand-in for the index: what persist stored, and where it says to start. */
class StandIn {
  readonly logs = new Map<string, { log: CourtLog; catchingUp: boolean }>();
  readonly blocks = new Map<bigint, Hex>();
  readonly calls: PollMeta[] = [];
  readonly anchors: { genesis: Hex; head: bigint; target: bigint }[] = [];
  /** Logs handed to persist that were stored already. */
  twice = 0;
  genesis?: Hex;
  /** Called before each persist (a test throws from it, or stops the follower). */
  before?: (meta: PollMeta) => void;

  /** `start`: the block before the first one to read (the deployment's, for the index). */
  constructor(private readonly start: bigint) {}

  anchor = async (at: { genesis: Hex; head: bigint; target: bigint }): Promise<Anchor | undefined> => {
    this.anchors.push(at);
    if (this.genesis !== undefined && this.genesis !== at.genesis) {
      // Another chain: what was stored is of no use; follow the new one from its head.
      this.logs.clear();
      this.blocks.clear();
      this.genesis = at.genesis;
      return undefined;
    }
    this.genesis = at.genesis;
    const stored = [...this.blocks].sort(([a], [b]) => (a > b ? -1 : 1));
    const [newest] = stored;
    return newest ? { block: newest[0], hash: newest[1], recent: stored.slice(0, 16) } : { block: this.start };
  };

  persist = async (logs: CourtLog[], meta: PollMeta): Promise<void> => {
    this.before?.(meta);
    this.calls.push(meta);
    if (meta.change?.kind === "reorg" && meta.change.depth !== null) {
      const fork = BigInt(meta.change.block);
      for (const [k, v] of this.logs) if (v.log.blockNumber > fork) this.logs.delete(k);
      for (const n of this.blocks.keys()) if (n > fork) this.blocks.delete(n);
    }
    for (const l of logs) {
      if (this.logs.has(keyOf(l))) this.twice++;
      this.logs.set(keyOf(l), { log: l, catchingUp: meta.catchingUp });
      this.blocks.set(l.blockNumber, l.blockHash);
    }
    if (meta.toHash) this.blocks.set(meta.toBlock, meta.toHash);
  };

  keys(): string[] {
    return [...this.logs.keys()].sort();
  }
}

describe("the follower resumes from the index's durable cursor", () => {
  let lease: ChainLease;
  let proxy: RpcProxy;
  let access: ChainAccess;
  const followers: Follower[] = [];
  const log = makeLogger("silent");

  beforeAll(async () => {
    lease = await leaseChain();
    proxy = await startRpcProxy(lease.devnet.rpcUrl);
    access = await connectChain(
      loadConfig({ ...chainEnv(lease.devnet, proxy.url), RPC_LOGS_RANGE_MAX: String(RANGE), LOG_LEVEL: "silent" }),
    );
  });
  afterEach(() => {
    for (const f of followers.splice(0)) f.stop();
  });
  afterAll(async () => {
    await proxy?.close();
    await lease?.release();
  });

  /** A follower on the stand-in, recording what it invalidates and how often it asks for keys. */
  const follow = (store: StandIn, opts: Partial<FollowerOptions> = {}) => {
    const seen = { invalidated: [] as (string[] | "all")[], keysFor: 0 };
    const f = followCourt(access, log, {
      intervalMs: 3_600_000,
      keysFor: (e) => {
        seen.keysFor++;
        return keysForEvent(e);
      },
      invalidate: async (keys) => {
        seen.invalidated.push(keys);
      },
      anchor: store.anchor,
      persist: store.persist,
      ...opts,
    });
    followers.push(f);
    return { f, seen };
  };
  /** A stand-in store and a follower on it, anchored and caught up to the head. */
  const caughtUp = async () => {
    const store = new StandIn(0n);
    const run = follow(store);
    await run.f.poll();
    await run.f.poll();
    return { store, ...run };
  };
  /** One eth_getLogs over the range, kept to the court's own logs: what the store must hold. */
  const courtLogKeys = async (fromBlock: bigint, toBlock: bigint) => {
    const raw = await access.reader.getLogs({ events: courtEvents, fromBlock, toBlock, strict: true });
    return authenticLogs(raw, access).map(keyOf).sort();
  };
  /** A court event mined straight on chain: a dev account adds to its judge stake (any time, any number of times). */
  const stakeOnChain = async () => {
    const { devnet } = lease;
    await new Actor(devAccount(9).account, devnet.chain, devnet.reader).write({
      address: devnet.deployment.registry,
      abi: courtRegistryAbi,
      functionName: "stakeAsJudge",
      args: [0n],
      value: parseEther("1"),
    });
  };
  const headNumber = async () => BigInt((await rpc(lease.devnet.rpcUrl, "eth_blockNumber")) as string);

  it("resumes from an anchor below the head: every court log once, caught up on without invalidating, then live", async () => {
    const store = new StandIn(0n);
    const { f, seen } = follow(store);
    expect(await f.poll()).toBe(0);
    expect(store.anchors).toHaveLength(1);
    const target = store.anchors[0]?.target as bigint;
    expect(target).toBeGreaterThan(BigInt(RANGE * 2));

    await f.poll();
    const expected = await courtLogKeys(1n, target);
    expect(expected.length).toBeGreaterThan(10);
    expect(store.keys()).toEqual(expected);
    expect(store.twice).toBe(0);
    // Every step, logs or not, was stored, in order, up to the target: the store's cursor moved with it.
    expect(store.calls[0]?.fromBlock).toBe(1n);
    for (const [i, c] of store.calls.entries())
      if (i > 0) expect(c.fromBlock).toBe((store.calls[i - 1]?.toBlock as bigint) + 1n);
    expect(store.calls.at(-1)?.toBlock).toBe(target);
    expect(store.calls.every((c) => c.catchingUp && c.target === target && c.toHash !== undefined)).toBe(true);
    expect([...store.logs.values()].every((v) => v.catchingUp)).toBe(true);
    expect(seen.invalidated).toEqual([]);
    expect(seen.keysFor).toBe(0);

    await stakeOnChain();
    const before = store.calls.length;
    expect(await f.poll()).toBeGreaterThan(0);
    const live = store.calls.slice(before);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((c) => !c.catchingUp)).toBe(true);
    expect([...store.logs.values()].filter((v) => !v.catchingUp).length).toBeGreaterThan(0);
    expect(seen.invalidated.length).toBeGreaterThan(0);
    expect(store.keys()).toEqual(await courtLogKeys(1n, await headNumber()));
  });

  it("a persist that throws fails the poll where it was; the next poll stores the same range again and nothing is missing", async () => {
    const store = new StandIn(0n);
    const { f } = follow(store);
    await f.poll();
    let failed: PollMeta | undefined;
    store.before = (meta) => {
      if (store.calls.length === 1 && !failed) {
        failed = meta;
        throw new Error("the store is away");
      }
    };
    await expect(f.poll()).rejects.toThrow("the store is away");
    expect(store.calls).toHaveLength(1);
    expect(failed?.fromBlock).toBe((store.calls[0]?.toBlock as bigint) + 1n);
    // The cursor stayed at the last step stored: health counts the failed step as still to do.
    expect(f.status.lag?.blocksBehind).toBe(Number((failed?.target as bigint) - (store.calls[0]?.toBlock as bigint)));

    await f.poll();
    expect(store.calls[1]?.fromBlock).toBe(failed?.fromBlock);
    expect(store.calls[1]?.toBlock).toBe(failed?.toBlock);
    expect(store.keys()).toEqual(await courtLogKeys(1n, store.calls.at(-1)?.toBlock as bigint));
    expect(store.twice).toBe(0);
  });

  it("a reorg whose persist throws is handed on again at the next poll: the orphaned logs do not stay stored", async () => {
    const { store, f } = await caughtUp();
    const fork = await headNumber();
    const snapshot = (await rpc(lease.devnet.rpcUrl, "evm_snapshot")) as Hex;
    await stakeOnChain();
    await f.poll();
    const orphaned = [...store.logs.values()].find((v) => v.log.blockNumber === fork + 1n);
    expect(orphaned).toBeDefined();

    expect(await rpc(lease.devnet.rpcUrl, "evm_revert", [snapshot])).toBe(true);
    await mine(lease.devnet.rpcUrl, 3);
    let refused = 0;
    store.before = (meta) => {
      if (meta.change && refused++ === 0) throw new Error("the store is away");
    };
    await expect(f.poll()).rejects.toThrow("the store is away");
    await f.poll();
    expect(refused).toBe(2);
    expect(store.calls.find((c) => c.change)?.change).toMatchObject({ kind: "reorg", depth: 1, block: Number(fork) });
    expect(store.logs.has(keyOf(orphaned?.log as CourtLog))).toBe(false);
    expect(store.keys()).toEqual(await courtLogKeys(1n, await headNumber()));
  });

  it("stop() during a long walk ends it within a step", async () => {
    await rpc(lease.devnet.rpcUrl, "anvil_mine", ["0x1f4"]);
    const store = new StandIn(0n);
    const { f } = follow(store);
    await f.poll();
    const target = store.anchors[0]?.target as bigint;
    store.before = () => {
      if (store.calls.length === 2) f.stop();
    };
    await f.poll();
    expect(store.calls).toHaveLength(3);
    expect(store.calls[2]?.toBlock).toBe(BigInt(RANGE * 3));
    expect(target).toBeGreaterThan(500n);
  });

  it("after a restart, a reorg below the stored cursor is found among the seeded recent blocks, with its fork point", async () => {
    const { store, f: first } = await caughtUp();
    const fork = await headNumber();
    const snapshot = (await rpc(lease.devnet.rpcUrl, "evm_snapshot")) as Hex;
    await stakeOnChain();
    await mine(lease.devnet.rpcUrl, 2);
    await first.poll();
    const orphanedStake = [...store.logs.values()].find((v) => v.log.blockNumber === fork + 1n);
    expect(orphanedStake).toBeDefined();
    first.stop();

    // The chain drops the stake's block and the two after it (the stand-in checks nothing: the reorg comes after its answer).
    expect(await rpc(lease.devnet.rpcUrl, "evm_revert", [snapshot])).toBe(true);
    await mine(lease.devnet.rpcUrl, 4);
    const { f: restarted, seen } = follow(store);
    await restarted.poll();
    expect(store.anchors).toHaveLength(2);
    const calls = store.calls.length;
    await restarted.poll();

    expect(store.anchors).toHaveLength(2);
    expect(restarted.status.lastEvent).toMatchObject({ kind: "reorg", depth: 3, block: Number(fork) });
    const change = store.calls.slice(calls).find((c) => c.change);
    expect(change?.change).toMatchObject({ kind: "reorg", depth: 3, block: Number(fork) });
    expect(store.logs.has(keyOf(orphanedStake?.log as CourtLog))).toBe(false);
    expect(store.keys()).toEqual(await courtLogKeys(1n, await headNumber()));
    // The orphaned blocks were read by another process: what they touched is not known, so the cache is flushed.
    expect(seen.invalidated).toEqual(["all"]);
  });

  describe("another node behind the proxy", () => {
    let other: AnvilProcess;
    let fresh: AnvilProcess;
    beforeAll(async () => {
      // One on another chain id, one a fresh chain with the same id (a reset).
      [other, fresh] = await Promise.all([startAnvil({ chainId: 1 }), startAnvil()]);
    });
    afterAll(async () => {
      proxy.setUpstream(lease.devnet.rpcUrl);
      await Promise.all([other?.stop(), fresh?.stop()]);
    });

    it("when the chain id is right again, the follower anchors through the hook: it reads on from the stored cursor", async () => {
      const { store, f } = await caughtUp();
      proxy.setUpstream(other.rpcUrl);
      await f.poll();
      expect(f.status.mismatched).toBe(true);
      await stakeOnChain();
      proxy.setUpstream(lease.devnet.rpcUrl);
      await f.poll();
      expect(store.anchors).toHaveLength(2);
      expect(store.anchors[1]?.genesis).toBe(store.anchors[0]?.genesis);
      await f.poll();
      // The stake mined while the node answered another chain is stored: no hole at the switch.
      expect(store.keys()).toEqual(await courtLogKeys(1n, await headNumber()));
      expect(store.twice).toBe(0);
    });

    it("a reset (a new genesis) asks the anchor hook again, with the new genesis, and the reset is stored", async () => {
      const { store, f } = await caughtUp();
      expect(store.logs.size).toBeGreaterThan(0);

      proxy.setUpstream(fresh.rpcUrl);
      await f.poll();
      expect(store.anchors).toHaveLength(2);
      const [before, after] = store.anchors;
      expect(after?.genesis).not.toBe(before?.genesis);
      const reset = store.calls.at(-1);
      expect(reset?.change).toMatchObject({ kind: "reset", hash: after?.genesis });
      expect(store.logs.size).toBe(0);
    });
  });
});
