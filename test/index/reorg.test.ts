/**
 * Reorgs made for real on anvil (evm_snapshot / evm_revert, then other blocks, as
 * test/chain/reorg.test.ts does), followed by docket's index on PGlite (a directory) and on a real
 * Postgres: a reorg one block deep, one deeper than the follower's window of 64 blocks, and one while
 * docket is stopped (restarted on the same store). After each the index equals the chain's full scan
 * and a fresh backfill of the same chain (a second docket, a store from scratch).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devPublicParams } from "../../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import type { Docket } from "../../src/server.js";
import {
  mine,
  type PostgresServer,
  rpc,
  seeded,
  stakeOnChain,
  startBehind,
  startPostgres,
  TEST_INDEX,
  voteOnChain,
} from "../support/index.js";
import { compareWithChain, diffIndex, followToHead, indexDb, readIndexImage } from "./fullScan.js";

const engines: [string, (name: string) => Promise<Record<string, string>>, () => Promise<void>][] = [];
let pgServer: PostgresServer | undefined;
const dirs: string[] = [];
engines.push([
  "PGlite (a directory)",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "docket-reorg-"));
    dirs.push(dir);
    return { INDEX_DIR: dir };
  },
  async () => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  },
]);
engines.push([
  "Postgres",
  async (name) => {
    pgServer ??= await startPostgres();
    return { DATABASE_URL: await pgServer.createDatabase(name) };
  },
  async () => {
    await pgServer?.stop();
    pgServer = undefined;
  },
]);

for (const [label, storeEnv, cleanup] of engines) {
  describe(`the index after real reorgs, on ${label}`, () => {
    let devnet: Devnet;
    let env: Record<string, string>;
    let d: Docket;
    const start = async () => startBehind(devnet.rpcUrl, devnet, { ...env, INDEX: "on" });

    beforeAll(async () => {
      devnet = await startDevnet({ params: devPublicParams });
      env = await storeEnv("reorg");
      d = await start();
      await followToHead(d, devnet.reader);
    }, 120_000);
    afterAll(async () => {
      await d?.close();
      await devnet?.stop();
      await cleanup();
    });

    /** The index equals the chain's full scan, and a fresh backfill of the same chain (a new store, in memory). */
    const expectEqualToChainAndFresh = async () => {
      await followToHead(d, devnet.reader);
      const { chain, index, diff } = await compareWithChain(indexDb(d), devnet.reader, devnet.deployment);
      expect(diff).toEqual([]);
      const fresh = await startBehind(devnet.rpcUrl, devnet, { ...TEST_INDEX, INDEX: "on" });
      try {
        await followToHead(fresh, devnet.reader);
        const again = await readIndexImage(indexDb(fresh), devnet.reader, devnet.deployment);
        expect(diffIndex(again, index)).toEqual([]);
      } finally {
        await fresh.close();
      }
      return chain;
    };
    const snapshot = async () => (await rpc(devnet.rpcUrl, "evm_snapshot")) as Hex;
    const revert = async (id: Hex) => expect(await rpc(devnet.rpcUrl, "evm_revert", [id])).toBe(true);

    it("a reorg one block deep: the vote it undid is gone, the other block's stake is there", async () => {
      const kase = seeded(devnet, "deliberating").toLowerCase();
      const id = await snapshot();
      await voteOnChain(devnet, kase as Address);
      await followToHead(d, devnet.reader);
      const voted = await indexDb(d).selectFrom("cases").select("state").where("address", "=", kase).executeTakeFirst();
      expect(voted?.state).toBe("Resolved");
      await revert(id);
      await stakeOnChain(devnet, 19);
      await mine(devnet.rpcUrl, 2);
      const chain = await expectEqualToChainAndFresh();
      expect(chain.cases.find((k) => k.address === kase)?.state).toBe("Deliberating");
    });

    it("a reorg deeper than the follower's window (64 blocks): the orphaned 70 blocks are forgotten", async () => {
      const id = await snapshot();
      const kase = seeded(devnet, "deliberating");
      await voteOnChain(devnet, kase);
      await mine(devnet.rpcUrl, 70);
      await stakeOnChain(devnet, 18);
      await followToHead(d, devnet.reader);
      await revert(id);
      await mine(devnet.rpcUrl, 80);
      await stakeOnChain(devnet, 17, 1n);
      await expectEqualToChainAndFresh();
    });

    it("a reorg while docket is stopped: restarted on the same store, it forgets what the chain dropped", async () => {
      const id = await snapshot();
      await voteOnChain(devnet, seeded(devnet, "deliberating"));
      await stakeOnChain(devnet, 16);
      await followToHead(d, devnet.reader);
      await d.close();
      await revert(id);
      await mine(devnet.rpcUrl, 3);
      await stakeOnChain(devnet, 15, 2n);
      d = await start();
      await expectEqualToChainAndFresh();
    });
  });
}
