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
import { type Address, type Hex, parseEventLogs, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agenticCommerceAbi } from "../../src/chain/abi/generated.js";
import { devPublicParams } from "../../src/deploy/terms.js";
import { Actor } from "../../src/devnet/actor.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import { JOB_PROVIDER } from "../../src/devnet/seedJobs.js";
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

const lower = (devnet: Devnet, i: number) => String(devnet.accounts[i]?.address).toLowerCase();

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

    it("a reorg undoes job events: a job made in the orphaned blocks is gone, a submission undone is Funded again", async () => {
      const a = devnet.deployment.arbitration;
      if (!a) throw new Error("no arbitration contracts");
      const funded = devnet.seed?.jobs.find((j) => j.label.startsWith("job: funded"))?.id as number;
      const actor = (i: number) => {
        const x = devnet.accounts[i];
        if (!x) throw new Error(`no dev account ${i}`);
        return new Actor(x.account, devnet.chain, devnet.reader);
      };
      const jobRow = async (id: number | string) =>
        indexDb(d).selectFrom("jobs").selectAll().where("job_id", "=", String(id)).executeTakeFirst();
      const id = await snapshot();
      await actor(JOB_PROVIDER).write({
        address: a.commerce,
        abi: agenticCommerceAbi,
        functionName: "submit",
        args: [BigInt(funded), `0x${"22".repeat(32)}`, "0x"],
      });
      const now = (await devnet.reader.getBlock()).timestamp;
      const made = await actor(15).write({
        address: a.commerce,
        abi: agenticCommerceAbi,
        functionName: "createJob",
        args: [zeroAddress, a.evaluators[0]?.address as Address, now + 86_400n, "orphaned", zeroAddress],
      });
      const created = parseEventLogs({ abi: agenticCommerceAbi, eventName: "JobCreated", logs: made.logs })[0]?.args
        .jobId as bigint;
      await followToHead(d, devnet.reader);
      expect(await jobRow(funded)).toMatchObject({ state: "Submitted", keeper_due_at: expect.any(Number) });
      expect(await jobRow(created.toString())).toMatchObject({ state: "Open", client: lower(devnet, 15) });
      await revert(id);
      await stakeOnChain(devnet, 14);
      await mine(devnet.rpcUrl, 2);
      await expectEqualToChainAndFresh();
      expect(await jobRow(created.toString())).toBeUndefined();
      expect(await jobRow(funded)).toMatchObject({
        state: "Funded",
        submitted_at: null,
        window_ends_at: null,
        keeper_due_at: null,
      });
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
