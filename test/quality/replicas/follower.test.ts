import { type Abi, type Address, createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courtRegistryAbi, disputeCaseAbi } from "../../../src/chain/abi/generated.js";
// One transaction per vote: what is under test is how replicas see it, not how it is cast.
import { devPublicParams } from "../../../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../../../src/devnet/devnet.js";
import { type Api, chainEnv, indexOf, type Replica, startReplica } from "../../support/index.js";
import { type RedisServer, startRedis } from "./redisServer.js";

const POLL_MS = 200;
/**
 * What "within one poll interval" may take on a busy 2-core machine: the interval, the poll's own
 * two JSON-RPC requests and the Redis round trips, and our own polling of docket.
 */
const WITHIN_MS = POLL_MS + 600;

/**
 * The event follower: a change made straight on chain (signed with a dev key through viem, never
 * through docket) shows in docket's answers within one poll interval, although the entries it
 * makes stale were cached for much longer. A and C follow the chain; B does not and sees A's
 * invalidations through Redis. C keeps its cache in process (no REDIS_URL).
 */
describe("event follower", () => {
  let devnet: Devnet;
  let redis: RedisServer;
  let a: Replica;
  let b: Replica;
  let c: Replica;

  beforeAll(async () => {
    [devnet, redis] = await Promise.all([startDevnet({ params: devPublicParams }), startRedis()]);
    const chain = chainEnv(devnet);
    [a, b, c] = await Promise.all([
      startReplica({ ...chain, REDIS_URL: redis.url, EVENT_POLL_MS: String(POLL_MS) }),
      startReplica({ ...chain, REDIS_URL: redis.url, EVENT_POLL_MS: "0" }),
      startReplica({ ...chain, EVENT_POLL_MS: String(POLL_MS) }),
    ]);
    // Each follower anchors at the block current when it starts: let both do so before we write.
    await new Promise((r) => setTimeout(r, POLL_MS));
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), c?.close()]);
    await Promise.all([redis?.stop(), devnet?.stop()]);
  });

  /** Sends a contract call as a dev account, straight to the chain, and waits until it is mined. */
  async function onChain(
    index: number,
    call: { address: Address; abi: Abi; functionName: string; args?: unknown[]; value?: bigint },
  ) {
    const dev = devnet.accounts[index];
    if (!dev) throw new Error(`no dev account ${index}`);
    const wallet = createWalletClient({
      account: privateKeyToAccount(dev.privateKey),
      chain: devnet.chain,
      transport: http(devnet.rpcUrl, { retryCount: 0 }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the call is typed by its ABI at each use
    const hash = await wallet.writeContract(call as any);
    const receipt = await devnet.reader.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    expect(receipt.status).toBe("success");
    return Date.now();
  }

  /** Reads `path` on `r` until `shows` holds; how long after `since` it first did. */
  async function shownAfter(r: Replica, path: string, since: number, shows: (res: Api) => boolean): Promise<number> {
    for (;;) {
      const res = await r.get(path);
      expect(res.status).toBe(200);
      if (shows(res)) return Date.now() - since;
      if (Date.now() - since > 10_000) throw new Error(`${path} on ${r.url} never showed the change`);
      await new Promise((res) => setTimeout(res, 10));
    }
  }

  /** Reads `path` until it is served from the cache. */
  async function cached(r: Replica, path: string): Promise<Api> {
    await r.get(path);
    const res = await r.get(path);
    expect(res.headers.get("x-cache"), `${path} on ${r.url}`).toBe("HIT");
    return res;
  }

  it("a vote cast straight on chain shows on every replica within one poll interval, though the case was cached for 60 s", async () => {
    const target = devnet.seed?.cases.find((x) => x.state === "Deliberating")?.address as Address;
    const path = `/cases/${target}`;
    const before = await cached(a, path);
    expect(Number(/max-age=(\d+)/.exec(before.headers.get("cache-control") ?? "")?.[1])).toBeGreaterThan(50);
    await cached(b, path);
    await cached(c, path);
    const judge = before.body.case.judges[1] as string;

    const mined = await onChain(indexOf(devnet, judge), {
      address: target,
      abi: disputeCaseAbi as Abi,
      functionName: "vote",
      args: [false],
    });
    const voted = (res: Api) => res.body.case.votesForDefendant === before.body.case.votesForDefendant + 1;
    const took = await Promise.all([a, b, c].map((r) => shownAfter(r, path, mined, voted)));
    for (const ms of took) expect(ms).toBeLessThanOrEqual(WITHIN_MS);
    // Not held (the change is already mined): the new state is cached again (a load that overlapped
    // the invalidation is not stored, so this may take a read or two).
    const hits = [];
    for (let i = 0; i < 3; i++) hits.push((await b.get(path)).headers.get("x-cache"));
    expect(hits).toContain("HIT");
  });

  it("an agent registering straight on chain shows in /agent/discover", async () => {
    const dev = devnet.accounts[18] as { address: Address };
    const path = "/agent/discover?limit=100";
    const listed = (res: Api) => res.body.agents.some((x: { address: string }) => x.address === dev.address);
    expect(listed(await cached(a, path))).toBe(false);
    await cached(c, path);
    const mined = await onChain(18, {
      address: devnet.deployment.registry,
      abi: courtRegistryAbi as Abi,
      functionName: "selfRegister",
      args: ["straight-on-chain", "https://agents.example.org/straight.json"],
    });
    const took = await Promise.all([a, b, c].map((r) => shownAfter(r, path, mined, listed)));
    for (const ms of took) expect(ms).toBeLessThanOrEqual(WITHIN_MS);
    expect((await b.get(`/agent/${dev.address}`)).body.agent.name).toBe("straight-on-chain");
  });

  it("a judge staking straight on chain shows in /judges/pool", async () => {
    const dev = devnet.accounts[19] as { address: Address };
    const path = "/judges/pool";
    const before = await cached(a, path);
    await cached(c, path);
    const seated = (res: Api) => res.body.judges.some((j: { address: string }) => j.address === dev.address);
    expect(seated(before)).toBe(false);
    const mined = await onChain(19, {
      address: devnet.deployment.registry,
      abi: courtRegistryAbi as Abi,
      functionName: "stakeAsJudge",
      args: [0n],
      value: BigInt(before.body.minimumStake),
    });
    const took = await Promise.all([a, b, c].map((r) => shownAfter(r, path, mined, seated)));
    for (const ms of took) expect(ms).toBeLessThanOrEqual(WITHIN_MS);
    const after = await b.get(path);
    expect(after.body.total).toBe(before.body.total + 1);
    expect(after.body.judges.find((j: { address: string }) => j.address === dev.address)?.eligible).toBe(true);
  });
});
