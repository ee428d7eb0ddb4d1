import type { Hex } from "viem";
import { loadConfig } from "../../src/config.js";
import { devPublicParams } from "../../src/deploy/terms.js";
import { startDevnet } from "../../src/devnet/devnet.js";
import { operations } from "../../src/operations/registry.js";
import { type Docket, startServer } from "../../src/server.js";
import { type RpcProxy, startRpcProxy } from "../../test/support/index.js";
import { clearCache, docketEnv } from "../lib/docket.js";

/**
 * Item 10: what docket asks of a strict provider (batches of at most 10, eth_getLogs over at most 500
 * blocks): JSON-RPC requests and HTTP round trips per follower poll (nothing new, one new block, 2,000
 * blocks missed, a 12-block reorg) and per cold read of each GET route, counted at the proxy. docket
 * keeps the defaults (RPC_BATCH_MAX 10, RPC_LOGS_RANGE_MAX 500). Its own seeded dev chain; anvil's
 * anvil_mine and evm_snapshot/evm_revert make the chain move.
 */

export interface Cost {
  rpc: number;
  http: number;
  byMethod: Record<string, number>;
}

export interface StrictProviderResult {
  batchMax: number;
  logsRangeMax: number;
  poll: { idle: Cost; oneBlock: Cost; catchUp2000Blocks: Cost; reorg12Blocks: Cost };
  /** Per GET route, one cold read (cache emptied first). */
  reads: Record<string, Cost>;
  maxBatchSeen: number;
  refused: { batch: number; logs: number; rate: number };
  pass: boolean;
}

const LIMITS = { batchMax: 10, logsRangeMax: 500 };

export async function benchStrictProvider(log: (line: string) => void): Promise<StrictProviderResult> {
  const devnet = await startDevnet({ params: devPublicParams });
  let proxy: RpcProxy | undefined;
  let docket: Docket | undefined;
  try {
    proxy = await startRpcProxy(devnet.rpcUrl);
    proxy.setStrict(LIMITS);
    const p = proxy;
    docket = await startServer(
      loadConfig({ ...docketEnv(p.url, devnet.deployment), EVENT_POLL_MS: "3600000", CACHE_HOLD_SECONDS: "0" }),
    );
    const d = docket;
    const follower = d.follower as NonNullable<Docket["follower"]>;
    const rpc = async (method: string, params: unknown[] = []) => {
      const res = await fetch(devnet.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      return ((await res.json()) as { result: unknown }).result;
    };
    const cost = async (fn: () => Promise<unknown>): Promise<Cost> => {
      p.reset();
      await fn();
      return { rpc: p.count, http: p.httpRequests, byMethod: p.byMethod };
    };
    let maxBatchSeen = 0;
    const refused = { batch: 0, logs: 0, rate: 0 };
    const note = () => {
      maxBatchSeen = Math.max(maxBatchSeen, p.maxBatch);
      for (const k of ["batch", "logs", "rate"] as const) refused[k] += p.refused[k];
    };

    await follower.poll();
    const idle = await cost(() => follower.poll());
    note();
    await rpc("evm_mine");
    const oneBlock = await cost(() => follower.poll());
    note();

    const base = Number(await rpc("eth_blockNumber"));
    const snapshot = (await rpc("evm_snapshot")) as Hex;
    await rpc("anvil_mine", ["0xc"]);
    await follower.poll();
    await rpc("evm_revert", [snapshot]);
    await rpc("anvil_mine", ["0xd"]);
    const reorg12Blocks = await cost(() => follower.poll());
    note();
    const event = d.ctx.chainStatus?.lastEvent;
    if (event?.kind !== "reorg" || event.depth !== 12 || event.block !== base) {
      throw new Error(`the 12-block reorg was not seen as one: ${JSON.stringify(event)}`);
    }

    const reads: Record<string, Cost> = {};
    const kase = devnet.seed?.cases.find((c) => c.label.startsWith("deliberating"))?.address as string;
    const view = (await (await fetch(`${d.url}/cases/${kase}`)).json()) as {
      case: { plaintiff: string; judges: string[] };
    };
    for (const op of operations.filter((o) => o.kind === "read" && o.http.method === "GET")) {
      const path = op.http.path.replace(":address", () => {
        if (op.http.path.startsWith("/cases/")) return kase;
        if (op.http.path.startsWith("/judges/") || op.http.path.startsWith("/validate/"))
          return view.case.judges[0] as string;
        return view.case.plaintiff;
      });
      await clearCache(d);
      reads[`GET ${op.http.path}`] = await cost(async () => {
        const res = await fetch(`${d.url}${path}`);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      });
      note();
    }

    // Last: 2,000 blocks pass every deadline of the seeded world.
    await rpc("anvil_mine", ["0x7d0"]);
    const catchUp2000Blocks = await cost(() => follower.poll());
    note();

    const result: StrictProviderResult = {
      ...LIMITS,
      poll: { idle, oneBlock, catchUp2000Blocks, reorg12Blocks },
      reads,
      maxBatchSeen,
      refused,
      pass: maxBatchSeen <= LIMITS.batchMax && refused.batch === 0 && refused.logs === 0,
    };
    const line = (name: string, c: Cost) => log(`  ${name}: ${c.rpc} JSON-RPC in ${c.http} HTTP requests`);
    line("poll, nothing new", idle);
    line("poll, one new block", oneBlock);
    line("poll after 2,000 blocks missed", catchUp2000Blocks);
    line("poll finding a 12-block reorg", reorg12Blocks);
    for (const [name, c] of Object.entries(reads)) line(`cold ${name}`, c);
    log(`  largest batch ${maxBatchSeen}; refused: ${JSON.stringify(refused)}`);
    return result;
  } finally {
    await docket?.close();
    await proxy?.close();
    await devnet.stop();
  }
}
