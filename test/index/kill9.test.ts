/**
 * kill -9 during the backfill and during live following: a spawned `node bin/docket.js start` on a
 * chain with a few hundred cases, its index on PGlite (a directory) or on a real Postgres, killed with
 * SIGKILL at random moments (printed, from KILL9_SEED) several times, restarted on the same store
 * each time; then a docket restarted once more on it equals the chain's full scan and a fresh backfill
 * of the same chain (no duplicate, no hole). Small log ranges make the backfill many steps, so a kill
 * lands between them or inside one.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeLogger } from "../../src/log.js";
import { openStore } from "../../src/store/store.js";
import * as kit from "../contracts/helpers.js";
import {
  chainEnv,
  type PostgresServer,
  spawnDocket,
  startBehind,
  startPostgres,
  TEST_INDEX,
} from "../support/index.js";
import { compareWithChain, diffIndex, followToHead, indexDb, readIndexImage } from "./fullScan.js";

const SEED = Number(process.env.KILL9_SEED ?? 9_034);
const CASES = Number(process.env.KILL9_CASES ?? 300);
const KILLS = 4;

/**
 * `n` cases filed by nine plaintiffs at once, a third of them answered: each lane its own plaintiff
 * and its own defendant, so no account sends from two lanes (two lanes answering as one defendant
 * raced for its nonce).
 */
async function fileMany(c: kit.CourtDeployment, n: number, from = 0): Promise<void> {
  const lanes = 9;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      const plaintiff = kit.actor(c, 1 + lane);
      const defendant = kit.actor(c, 1 + lanes + lane);
      for (let i = lane; i < n; i += lanes) {
        const { caseAddr } = await kit.fileCase(c, plaintiff, defendant.account.address, {
          claim: `case ${from + i}: goods never delivered`,
        });
        if ((from + i) % 3 === 0) await kit.respond(caseAddr, defendant);
      }
    }),
  );
}

const engines: [string, () => Promise<Record<string, string>>, () => Promise<void>][] = [];
let pgServer: PostgresServer | undefined;
let dir: string | undefined;
engines.push([
  "PGlite (a directory)",
  async () => {
    dir = mkdtempSync(join(tmpdir(), "docket-kill9-"));
    return { INDEX_DIR: dir };
  },
  async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
]);
engines.push([
  "Postgres",
  async () => {
    pgServer = await startPostgres();
    return { DATABASE_URL: await pgServer.createDatabase("kill9") };
  },
  async () => {
    await pgServer?.stop();
  },
]);

for (const [label, storeEnv, cleanup] of engines) {
  describe(`kill -9 of docket start, its index on ${label}`, () => {
    let c: kit.CourtDeployment;
    let env: Record<string, string>;

    beforeAll(async () => {
      c = await kit.bootCourt(kit.P);
      await fileMany(c, CASES);
      env = await storeEnv();
    }, 300_000);
    afterAll(async () => {
      await c?.stop();
      await cleanup();
    });

    /** The cursor the killed process left in the store (read with the process gone). */
    const cursorLeft = async () => {
      const store = await openStore(
        { DATABASE_URL: env.DATABASE_URL, INDEX_DIR: env.INDEX_DIR ?? "unused" } as never,
        makeLogger("silent"),
      );
      try {
        const row = await store.db.selectFrom("ingest_cursor").select("block_number").executeTakeFirst();
        return row ? Number(row.block_number) : -1;
      } finally {
        await store.close();
      }
    };

    /** Waits until the docket at `url` has walked `percent` of its backfill; says where it was. */
    const backfillPast = async (url: string, percent: number): Promise<string> => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const health = (await (await fetch(`${url}/health`)).json()) as {
          index?: { backfill?: { running: boolean; percent: number; block: number } };
        };
        const b = health.index?.backfill;
        if (b && (b.percent >= percent || !b.running)) return `${b.percent}% (block ${b.block}, aimed at ${percent}%)`;
        if (Date.now() > deadline) throw new Error(`the backfill did not reach ${percent}% in a minute`);
        await new Promise((r) => setTimeout(r, 5));
      }
    };

    it(`loses nothing and stores nothing twice (seed ${SEED}, ${CASES} cases, ${KILLS} kills)`, async () => {
      // The kill moments of the seed: a fraction of the longest wait, for each kill.
      const fractions = fc.sample(fc.noBias(fc.double({ min: 0, max: 1, noNaN: true })), {
        seed: SEED,
        numRuns: KILLS,
      });
      const moments: string[] = [];
      const left: number[] = [];
      const head0 = Number(await c.reader.getBlockNumber());
      for (let k = 0; k < KILLS; k++) {
        const live = k >= KILLS / 2;
        const docket = await spawnDocket({
          ...chainEnv(c.devnet),
          ...env,
          LOG_LEVEL: "error",
          INDEX: "on",
          // Backfill: many small steps (dozens over ~700 blocks), so a kill lands among them. Live: the
          // default range, so the backfill is over before the kill and the kill lands among new cases.
          ...(live ? {} : { RPC_LOGS_RANGE_MAX: "20" }),
          EVENT_POLL_MS: "100",
        });
        // Live: cases are filed while it follows, and it dies among them.
        const filing = live ? fileMany(c, 20, CASES + k * 20) : Promise.resolve();
        if (live) {
          const after = 6000 + Math.floor((fractions[k] ?? 0) * 3000);
          moments.push(`live +${after} ms`);
          await new Promise((r) => setTimeout(r, after));
        } else {
          // Backfill: killed once its progress (in /health) passes the seed's point, 10% to 90% of
          // the walk (a wait in milliseconds would miss it: the writer walks this chain in well under a second).
          const percent = 10 + Math.floor((fractions[k] ?? 0) * 80);
          moments.push(`backfill ${await backfillPast(docket.url, percent)}`);
        }
        docket.proc.kill("SIGKILL");
        await new Promise<void>((r) =>
          docket.proc.exitCode !== null || docket.proc.signalCode !== null ? r() : docket.proc.once("exit", () => r()),
        );
        await filing;
        left.push(await cursorLeft());
      }
      console.log(
        `kill -9 (${label}): seed ${SEED}, killed at ${moments.join(", ")}; cursors left ${left.join(", ")} (head before ${head0})`,
      );
      // At least one kill landed inside the backfill (its cursor short of the head it was walking to).
      expect(left.some((b) => b < head0)).toBe(true);
      const d = await startBehind(c.devnet.rpcUrl, c.devnet, { ...env, INDEX: "on" });
      try {
        await followToHead(d, c.reader, 120_000);
        const { chain, index, diff } = await compareWithChain(indexDb(d), c.reader, c.devnet.deployment);
        expect(diff, `KILL9_SEED=${SEED}`).toEqual([]);
        expect(chain.cases.length).toBeGreaterThanOrEqual(CASES);
        const fresh = await startBehind(c.devnet.rpcUrl, c.devnet, { ...TEST_INDEX, INDEX: "on" });
        try {
          await followToHead(fresh, c.reader, 120_000);
          expect(diffIndex(await readIndexImage(indexDb(fresh), c.reader, c.devnet.deployment), index)).toEqual([]);
        } finally {
          await fresh.close();
        }
      } finally {
        await d.close();
      }
    }, 600_000);
  });
}
