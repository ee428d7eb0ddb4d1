import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, type Hex, http } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { authenticLogs, courtEvents } from "../../src/chain/courtLogs.js";
import { devPublicParams } from "../../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import { pushedTypeOf } from "../../src/events/types.js";
import { rawCid } from "../../src/evidence/cid.js";
import { Listener } from "../events/helpers.js";
import {
  chainEnv,
  type DocketProcess,
  mine,
  type PostgresServer,
  type Replica,
  request,
  rpc,
  seeded,
  signAndSend,
  spawnDocket,
  startPostgres,
  startReplica,
  until,
  waitFor,
} from "../support/index.js";

/**
 * The durable event log and one writer among replicas, on a real Postgres and one dev chain: a
 * client resumes from any id the index keeps (after a restart, on another replica), an orphaned id
 * is a gap, and when the writer dies (SIGKILL) another replica takes the advisory lock and reads on
 * from the stored cursor, leaving the index exactly the chain's court logs.
 */
describe("the event log across restarts and replicas", () => {
  let devnet: Devnet;
  let pg: PostgresServer;
  const open: Listener[] = [];
  const replicas: Replica[] = [];
  const children: DocketProcess[] = [];
  let evidence = 0;

  beforeAll(async () => {
    [devnet, pg] = await Promise.all([startDevnet({ params: devPublicParams }), startPostgres()]);
  });
  afterEach(async () => {
    for (const l of open.splice(0)) l.close();
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await Promise.all(children.map((c) => c.stop(2_000)));
    await Promise.all([pg?.stop(), devnet?.stop()]);
  });

  const listen = async (url: string, lastEventId: string) => {
    const l = await Listener.open(url, "", lastEventId);
    open.push(l);
    return l;
  };
  /** A party adds evidence to the seeded active case, signed and mined: one evidence.submitted. */
  const addEvidence = async (url: string) => {
    const active = seeded(devnet, "active");
    const c = (await request(url, `/cases/${active}`)).body.case;
    const built = await request(url, `/cases/${active}/evidence`, {
      evidenceIpfsHash: rawCid(`log-${++evidence}`).toString(),
      from: c.plaintiff,
    });
    expect(built.status).toBe(200);
    return signAndSend(devnet.rpcUrl, c.plaintiff, built.body.unsigned_tx);
  };
  /** The chain's court logs as a fresh backfill would store them, and the ids of those pushed. */
  const chainLogs = async () => {
    const client = createPublicClient({ transport: http(devnet.rpcUrl) });
    const head = await client.getBlockNumber();
    const raw = await client.getLogs({ events: courtEvents, fromBlock: 0n, toBlock: head, strict: true });
    const logs = authenticLogs(raw, devnet.deployment as never);
    return {
      head: Number(head),
      keys: logs.map((l) => `${l.blockHash.toLowerCase()}:${l.logIndex}`),
      pushed: logs
        .filter((l) => pushedTypeOf(l.eventName))
        .map((l) => `${l.blockNumber}-${l.logIndex}-${l.blockHash.slice(2, 10)}`),
    };
  };
  const health = async (url: string) => (await request(url, "/health")).body.index;
  const caughtUp = (url: string, role?: string) =>
    waitFor(
      `${url} indexed to the head${role ? ` as ${role}` : ""}`,
      async () => {
        const [h, head] = [await health(url), Number(await rpc(devnet.rpcUrl, "eth_blockNumber"))];
        return h && h.cursor === head && (!role || h.role === role) ? h : undefined;
      },
      30_000,
    );

  it("resumes after a restart on the same INDEX_DIR from an id given before it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docket-log-"));
    try {
      const env = { ...chainEnv(devnet), INDEX_DIR: dir, EVENT_POLL_MS: "200" };
      const first = await spawnDocket(env);
      children.push(first);
      await addEvidence(first.url);
      await caughtUp(first.url);
      const { pushed } = await chainLogs();
      const from = pushed[pushed.length - 6] as string;
      await first.stop();
      const again = await spawnDocket(env);
      children.push(again);
      const l = await listen(again.url, from);
      await until("the five events after it", () => l.received.length >= 5);
      expect(l.received.map((e) => e.id)).toEqual(pushed.slice(-5));
      await again.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("one writer on Postgres: a reader takes over within a poll or two of the writer's SIGKILL, with no hole or duplicate", async () => {
    const url = await pg.createDatabase("log_replicas");
    const env = { ...chainEnv(devnet), DATABASE_URL: url, EVENT_POLL_MS: "200" };
    const writer = await spawnDocket(env);
    children.push(writer);
    await caughtUp(writer.url, "writer");
    const reader = await startReplica({ ...env, LOG_LEVEL: "info" });
    replicas.push(reader);
    expect((await health(reader.url)).role).toBe("reader");
    // Written while the writer still writes; then it dies mid-stride and more is mined without a writer.
    await addEvidence(reader.url);
    await caughtUp(writer.url, "writer");
    writer.proc.kill("SIGKILL");
    await addEvidence(reader.url);
    await addEvidence(reader.url);
    await mine(devnet.rpcUrl, 2);
    const took = Date.now();
    await caughtUp(reader.url, "writer");
    // Two polls of 200 ms to try the lock, and the catch-up: well under the 30 s wait.
    expect(Date.now() - took).toBeLessThan(10_000);
    const db = reader.docket.ctx.index?.db;
    if (!db) throw new Error("no index");
    const rows = await db.selectFrom("court_events").select(["block_hash", "log_index"]).orderBy("id").execute();
    const chain = await chainLogs();
    expect(rows.map((r) => `${r.block_hash}:${r.log_index}`)).toEqual(chain.keys);

    // A client of the dead writer resumes on the other replica from an id it was given there.
    const from = chain.pushed[chain.pushed.length - 4] as string;
    const l = await listen(reader.url, from);
    await until("the three events after it", () => l.received.length >= 3);
    expect(l.received.map((e) => e.id)).toEqual(chain.pushed.slice(-3));

    // An id a reorg orphaned is kept nowhere: a gap.
    const snapshot = (await rpc(devnet.rpcUrl, "evm_snapshot")) as Hex;
    const orphan = await addEvidence(reader.url);
    await caughtUp(reader.url, "writer");
    const orphanId = `${orphan.blockNumber}-${orphan.logs.find((x) => x.address.toLowerCase() === seeded(devnet, "active").toLowerCase())?.logIndex}-${orphan.blockHash.slice(2, 10)}`;
    expect(await rpc(devnet.rpcUrl, "evm_revert", [snapshot])).toBe(true);
    await mine(devnet.rpcUrl, 3);
    await until("the orphan forgotten", async () => {
      const gone = await db
        .selectFrom("court_events")
        .select("id")
        .where("block_hash", "=", orphan.blockHash)
        .execute();
      return gone.length === 0;
    });
    // Gone from the index; the reader's own hub buffer still holds it (a buffer forgets nothing), so ask a fresh replica.
    const other = await startReplica({ ...env, EVENT_POLL_MS: "0" });
    replicas.push(other);
    const gap = await listen(other.url, orphanId);
    await until("the gap", () => gap.received.length >= 1);
    expect(gap.received[0]?.type).toBe("events.gap");
  });
});
