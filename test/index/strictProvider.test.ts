import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticLogs, courtEvents } from "../../src/chain/courtLogs.js";
import { devPublicParams } from "../../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import type { Docket } from "../../src/server.js";
import {
  type RpcProxy,
  rpc,
  seeded,
  startBehind,
  startRpcProxy,
  TEST_INDEX,
  until,
  voteOnChain,
} from "../support/index.js";

/**
 * The index behind a JSON-RPC proxy that behaves like a hosted provider (batches of at most 10,
 * eth_getLogs over at most 500 blocks, 25 requests a second): the backfill from the deployment's
 * block and a catch-up over 2,000 blocks store every court log once, and no request passes the
 * provider's limits (the writer's own reads included).
 */
const STRICT = { batchMax: 10, logsRangeMax: 500, perSecond: 25 };

describe("the index behind a strict JSON-RPC provider", () => {
  let devnet: Devnet;
  let proxy: RpcProxy;
  let d: Docket;

  beforeAll(async () => {
    devnet = await startDevnet({ params: devPublicParams });
    proxy = await startRpcProxy(devnet.rpcUrl);
    proxy.setStrict(STRICT);
    d = await startBehind(proxy.url, devnet, { ...TEST_INDEX, INDEX: "on", RPC_LOGS_RANGE_MAX: "2000" });
  });
  afterAll(async () => {
    await d?.close();
    await proxy?.close();
    await devnet?.stop();
  });

  const indexedToHead = async () => {
    const head = Number(await rpc(devnet.rpcUrl, "eth_blockNumber"));
    await until(
      `the index at block ${head}`,
      async () => {
        await d.follower?.poll().catch(() => {});
        return ((await d.ctx.index?.cursor())?.block ?? -1) >= head;
      },
      60_000,
    );
  };
  const compare = async () => {
    const head = BigInt(Number(await rpc(devnet.rpcUrl, "eth_blockNumber")));
    const raw = await devnet.reader.getLogs({ events: courtEvents, fromBlock: 0n, toBlock: head, strict: true });
    const logs = authenticLogs(raw, d.ctx.chain);
    const rows = await d.ctx.index?.db
      .selectFrom("court_events")
      .select(["block_hash", "log_index"])
      .orderBy("id")
      .execute();
    expect(rows?.map((r) => `${r.block_hash}:${r.log_index}`)).toEqual(
      logs.map((l) => `${l.blockHash.toLowerCase()}:${l.logIndex}`),
    );
  };

  it("backfills the seeded world from the deployment's block within the provider's limits", async () => {
    await indexedToHead();
    await compare();
    expect(proxy.maxBatch).toBeLessThanOrEqual(STRICT.batchMax);
    expect(proxy.refused.batch).toBe(0);
  });

  it("catches up over 2,000 blocks with a vote in them, storing it once", async () => {
    const kase = seeded(devnet, "deliberating");
    await voteOnChain(devnet, kase);
    await rpc(devnet.rpcUrl, "anvil_mine", ["0x7d0"]);
    await indexedToHead();
    await compare();
    const votes = await d.ctx.index?.db
      .selectFrom("court_events")
      .select("name")
      .where("case_address", "=", kase.toLowerCase())
      .where("name", "in", ["VoteCast", "VoteCommitted"])
      .execute();
    expect(votes?.length).toBeGreaterThan(0);
    expect(proxy.refused.batch).toBe(0);
  });
});
