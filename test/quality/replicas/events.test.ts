import { Redis } from "ioredis";
import type { Hex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
// One transaction per vote: what is under test is the events, not how a vote is cast.
import { devPublicParams } from "../../../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../../../src/devnet/devnet.js";
import { rawCid } from "../../../src/evidence/cid.js";
import { Listener } from "../../events/helpers.js";
import {
  chainEnv,
  mine,
  type Replica,
  rpc,
  seeded,
  signAndSend,
  startReplica,
  until,
  voteOnChain,
  waitFor,
} from "../../support/index.js";
import { type RedisServer, startRedis } from "./redisServer.js";

/**
 * Two replicas on one real Redis and one dev chain: A follows the chain (polled by the test), B has
 * no follower (EVENT_POLL_MS=0) and streams what A sees, through Redis. Then a real reorg
 * (evm_snapshot / evm_revert on anvil) reaches both streams as `chain.reorg`.
 */
describe("events across replicas, and reorgs", () => {
  let devnet: Devnet;
  let redis: RedisServer;
  let a: Replica;
  let b: Replica;
  const open: Listener[] = [];
  const listen = async (r: Replica, query = "") => {
    const l = await Listener.open(r.url, query);
    open.push(l);
    return l;
  };
  const poll = () => (a.docket.follower as NonNullable<typeof a.docket.follower>).poll();

  beforeAll(async () => {
    [devnet, redis] = await Promise.all([startDevnet({ params: devPublicParams }), startRedis()]);
    const chain = chainEnv(devnet);
    [a, b] = await Promise.all([
      startReplica({ ...chain, REDIS_URL: redis.url, EVENT_POLL_MS: "3600000" }),
      startReplica({ ...chain, REDIS_URL: redis.url, EVENT_POLL_MS: "0" }),
    ]);
    // Both replicas' event subscriptions are live before anything is published.
    const probe = new Redis(redis.url);
    try {
      await waitFor("both replicas subscribed to docket:events", async () => {
        const [, n] = (await probe.pubsub("NUMSUB", "docket:events")) as [string, number];
        return Number(n) >= 2 ? true : undefined;
      });
    } finally {
      probe.disconnect();
    }
  });
  afterEach(() => {
    for (const l of open.splice(0)) l.close();
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([redis?.stop(), devnet?.stop()]);
  });

  it("an event only A followed is streamed by B too, with the same id", async () => {
    expect(b.docket.follower).toBeUndefined();
    const onA = await listen(a);
    const onB = await listen(b);
    const active = seeded(devnet, "active");
    const c = (await a.get(`/cases/${active}`)).body.case;
    const built = await a.post(`/cases/${active}/evidence`, {
      evidenceIpfsHash: rawCid("replicas-1").toString(),
      from: c.defendant,
    });
    expect(built.status).toBe(200);
    await signAndSend(devnet.rpcUrl, c.defendant, built.body.unsigned_tx);
    await poll();
    const seenByA = await onA.next((x) => x.type === "evidence.submitted");
    const seenByB = await onB.next((x) => x.type === "evidence.submitted");
    expect(seenByB).toEqual(seenByA);
    expect(seenByB.data).toMatchObject({ case: active, data: { evidenceIpfsHash: rawCid("replicas-1").toString() } });
    // B keeps it too: a client resuming on B from an earlier id gets it.
    expect(b.docket.events.since("not-an-id").events.map((e) => e.id)).toContain(seenByA.id);
  });

  it("a reorg that undoes a vote reaches every stream as chain.reorg with its fork block and depth", async () => {
    const deliberating = seeded(devnet, "deliberating");
    const onA = await listen(a, `case=${deliberating}`);
    const onB = await listen(b, "types=vote.cast");
    await poll();
    const snapshot = (await rpc(devnet.rpcUrl, "evm_snapshot")) as Hex;
    await voteOnChain(devnet, deliberating);
    await poll();
    const vote = await onB.next((x) => x.type === "vote.cast");
    expect(vote.data.case).toBe(deliberating);

    expect(await rpc(devnet.rpcUrl, "evm_revert", [snapshot])).toBe(true);
    await mine(devnet.rpcUrl, 3);
    await poll();
    // chain events pass every filter: a client following one case or one type must hear of it.
    for (const l of [onA, onB]) {
      const reorg = await l.next((x) => x.type === "chain.reorg");
      expect(reorg.data).toMatchObject({ type: "chain.reorg", block: vote.data.block - 1, txHash: null });
      expect(reorg.data.data).toEqual({ fork: vote.data.block - 1, depth: 1 });
      expect(reorg.id).toMatch(new RegExp(`^${vote.data.block - 1}-reorg-[0-9a-f]{8}$`));
    }
    expect((await a.get("/health")).body.lastChainEvent).toMatchObject({ kind: "reorg", depth: 1 });

    // The vote cast again on the new branch is a new event, with a new id.
    await voteOnChain(devnet, deliberating);
    await poll();
    await until("the vote again", () => onB.received.filter((x) => x.type === "vote.cast").length === 2);
    const again = onB.received.filter((x) => x.type === "vote.cast")[1];
    expect(again?.id).not.toBe(vote.id);
  });
});
