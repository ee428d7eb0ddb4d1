import { sql } from "kysely";
import { type Address, type Block, type Hex, isAddressEqual } from "viem";
import { courtEvaluatorAbi } from "../chain/abi/generated.js";
import type { ChainAccess } from "../chain/access.js";
import { makePublicClient } from "../chain/client.js";
import { followedEventOf } from "../chain/contractEvents.js";
import type { CourtLog } from "../chain/courtLogs.js";
import type { PollMeta } from "../chain/follower.js";
import { type CaseFacts, readCaseFacts } from "../chain/reads/cases.js";
import type { Logger } from "../log.js";
import { type ChallengeWindows, jobsAfterStep, unknownEvaluators } from "../store/jobs.js";
import { casesAbove, forgetAbove, wipe } from "../store/rollback.js";
import type { Store } from "../store/store.js";
import { Backfill } from "./progress.js";
import { keeperDueAt } from "./queries/due.js";
import { caseChanges, eventRows, isOpen, participantRows } from "./rows.js";

/** Where the follower starts: the last block the index holds (see follower.ts's `Anchor`). */
export interface IndexAnchor {
  block: bigint;
  hash?: Hex;
  recent?: ReadonlyArray<readonly [bigint, Hex]>;
}

/** A block as the index keeps it. */
export interface BlockFacts {
  hash: Hex;
  /** Unknown when the block's time came with its logs. */
  parentHash?: Hex;
  timestamp: bigint;
}

/**
 * What the ingest reads of the chain beside the logs: block headers (their times) and each touched
 * case's status and claim. The default reads the chain docket serves; the bench hands in its own for
 * the events it generates.
 */
export interface ChainFacts {
  headers(numbers: readonly bigint[]): Promise<Map<bigint, BlockFacts>>;
  cases(touched: readonly string[], filed: readonly string[]): Promise<Map<string, CaseFacts>>;
  /**
   * The challenge window of each of these job evaluators that is one of docket's (an immutable of
   * the evaluator); none for the others. Optional: without it no job has a window (the bench's).
   */
  challengeWindows?(evaluators: readonly string[]): Promise<Map<string, number>>;
}

/** The chain's facts, read with the follower's limits: headers as one JSON-RPC batch, cases as multicalls. */
export function chainFacts(chain: ChainAccess): ChainFacts {
  const rpc = makePublicClient(chain.definition, { batch: true, limits: chain.limits });
  return {
    async headers(numbers) {
      // One JSON-RPC batch at a time (RPC_BATCH_MAX headers), as the follower asks: a strict provider's rate holds.
      const out = new Map<bigint, BlockFacts>();
      for (const part of chunks(numbers, Math.max(1, chain.limits.batchMax))) {
        const blocks = await Promise.all(part.map((n) => rpc.getBlock({ blockNumber: n })));
        for (const b of blocks as Block[]) {
          out.set(b.number as bigint, { hash: b.hash as Hex, parentHash: b.parentHash, timestamp: b.timestamp });
        }
      }
      return out;
    },
    cases: (touched, filed) => readCaseFacts(chain, touched as Address[], filed as Address[]),
    async challengeWindows(evaluators) {
      const ours = evaluators.filter((e) =>
        chain.arbitration?.evaluators.some((x) => isAddressEqual(x.address, e as Address)),
      );
      const windows = await Promise.all(
        ours.map((e) =>
          chain.reader.readContract({ address: e as Address, abi: courtEvaluatorAbi, functionName: "challengeWindow" }),
        ),
      );
      return new Map(ours.map((e, i) => [e.toLowerCase(), Number(windows[i])]));
    },
  };
}

export interface WriterOptions {
  /** The first block that can hold a court event (the deployment's); the backfill starts there. Asked once, when nothing is stored. */
  fromBlock: bigint | (() => Promise<bigint>);
  /** Stored blocks handed to the follower to find a reorg's fork point after a restart. */
  recent?: number;
  /** The chain's facts (default: read from `chain`). */
  facts?: ChainFacts;
  /** Rows per INSERT (default: as many as Postgres's 65,535 parameters of one statement hold). */
  chunk?: number;
  /** Case rows rewritten between two VACUUMs of the case table (default VACUUM_EVERY). */
  vacuumEvery?: number;
  /**
   * The chain is the embedded dev chain docket boots itself: each start is a new chain, so finding
   * another genesis than the stored one is expected and said at info level, not as a warning.
   */
  devChain?: boolean;
}

/**
 * Case rows rewritten between two VACUUMs of the case table: a fixed number, so the dead row
 * versions a read walks past stay as many at any size (a step of a busy backfill rewrites ~2,000).
 * PGlite runs no autovacuum at all; a real Postgres's wakes once a minute and waits for a fifth of
 * the table, which a backfill passes many times over in between.
 */
const VACUUM_EVERY = 5_000;

/** The most parameters Postgres (and PGlite) takes in one statement. */
const MAX_PARAMS = 65_535;

/** Rows of `sample`'s shape per multi-row INSERT: `size` when given, else as many as the parameters hold. */
const rowsPer = (sample: object | undefined, size: number | undefined) =>
  size ?? Math.max(1, Math.floor(MAX_PARAMS / Math.max(1, Object.keys(sample ?? {}).length)));

const isCaseLog = (l: CourtLog) => followedEventOf(l.eventName)?.contract === "case";
const toJson = (v: unknown): unknown =>
  typeof v === "bigint"
    ? v.toString()
    : Array.isArray(v)
      ? v.map(toJson)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]))
        : v;

function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * The index's writer: the follower's `anchor` (where to read on from, after checking what the store
 * holds against the chain) and `persist` (one step's logs, the blocks they sit in, what they change
 * in the case tables and the cursor, in one transaction). A step is written whole or not at all, and
 * a step written again stores nothing twice, so a restart after `kill -9` at any moment reads on from
 * the last step written with no hole and no duplicate.
 */
export class IndexWriter {
  private readonly facts: ChainFacts;
  private genesis: Hex | undefined;
  /** Cases a rollback while away left without a status: the next step reads theirs. */
  private readonly stale = new Set<string>();
  /** Case rows rewritten since the case table was last vacuumed. */
  private updated = 0;
  /** How many events were stored when the index was last analyzed. */
  private analyzedAt = 0;
  /** docket's evaluators' challenge windows, read once each (null: not one of docket's). */
  readonly windows: ChallengeWindows;
  readonly backfill: Backfill;

  constructor(
    private readonly store: Store,
    private readonly chain: ChainAccess,
    private readonly log: Logger,
    private readonly opts: WriterOptions,
  ) {
    this.facts = opts.facts ?? chainFacts(chain);
    this.windows = new Map();
    this.backfill = new Backfill(log);
  }

  private get key() {
    return { chain_id: this.chain.chainId, factory: this.chain.factory.toLowerCase() };
  }

  /** The cursor row of this chain and deployment, if any. */
  async cursor() {
    return this.store.db
      .selectFrom("ingest_cursor")
      .selectAll()
      .where("chain_id", "=", this.key.chain_id)
      .where("factory", "=", this.key.factory)
      .executeTakeFirst();
  }

  /**
   * Where the follower reads on from. The store's cursor when the chain still has its block; after
   * a reorg while docket was away, the newest stored block the chain still has (what came after it is
   * forgotten); after a reset (another genesis), another deployment or with nothing stored, the block
   * before the deployment's, with an empty index.
   */
  anchor = async (at: { genesis: Hex; head: bigint; target: bigint }): Promise<IndexAnchor> => {
    this.genesis = at.genesis;
    const cur = await this.cursor();
    const first = async () => {
      const f = this.opts.fromBlock;
      const block = typeof f === "bigint" ? f : await f();
      return { block: block > 0n ? block - 1n : 0n };
    };
    if (!cur || cur.genesis_hash !== at.genesis) {
      const any = await this.store.db.selectFrom("ingest_cursor").select("chain_id").executeTakeFirst();
      if (cur || any) {
        const where = { chainId: this.chain.chainId, factory: this.chain.factory };
        if (this.opts.devChain) this.log.info(where, "index: a new dev chain (each start boots one): indexing it");
        else {
          this.log.warn(
            where,
            cur
              ? "index: the chain was reset (new genesis): indexing it again"
              : "index: another chain or deployment: indexing this one from the start",
          );
        }
        await this.store.db.transaction().execute((trx) => wipe(trx));
      }
      const start = await first();
      this.backfill.begin(start.block, at.target);
      return start;
    }
    const stored = BigInt(cur.block_number);
    const fork = await this.forkPoint(stored, cur.block_hash as Hex);
    if (fork === undefined) {
      this.log.warn({ stored: Number(stored) }, "index: no stored block is on the chain any more: indexing again");
      await this.store.db.transaction().execute((trx) => wipe(trx));
      const start = await first();
      this.backfill.begin(start.block, at.target);
      return start;
    }
    if (fork.block !== stored) {
      this.log.warn(
        { from: Number(stored), fork: Number(fork.block) },
        "index: reorg while away: forgetting the orphaned blocks",
      );
      const forgot = await this.store.db.transaction().execute(async (trx) => {
        const f = await forgetAbove(trx, Number(fork.block));
        await this.writeCursor(trx, Number(fork.block), fork.hash);
        return f;
      });
      // Their statuses were cleared: the next step reads them again.
      for (const c of forgot.cases) this.stale.add(c);
    }
    const recent = await this.store.db
      .selectFrom("chain_blocks")
      .select(["number", "hash"])
      .where("number", "<=", Number(fork.block))
      .orderBy("number", "desc")
      .limit(this.opts.recent ?? 64)
      .execute();
    this.backfill.begin(fork.block, at.target);
    return {
      block: fork.block,
      hash: fork.hash,
      recent: recent.map((r) => [BigInt(r.number), r.hash as Hex] as const),
    };
  };

  /**
   * The newest stored block the chain still has: the cursor's, or walking the stored blocks back,
   * newest first, a batch of headers at a time. Undefined when none is.
   */
  private async forkPoint(cursor: bigint, hash: Hex): Promise<{ block: bigint; hash: Hex } | undefined> {
    const head = await this.facts.headers([cursor]).catch(() => new Map<bigint, BlockFacts>());
    if (head.get(cursor)?.hash === hash) return { block: cursor, hash };
    const batch = Math.max(1, this.chain.limits.batchMax);
    let below = Number(cursor);
    for (;;) {
      const stored = await this.store.db
        .selectFrom("chain_blocks")
        .select(["number", "hash"])
        .where("number", "<", below)
        .orderBy("number", "desc")
        .limit(batch)
        .execute();
      if (stored.length === 0) return undefined;
      const nums = stored.map((s) => BigInt(s.number));
      const got = await this.headersOrGone(nums);
      const same = stored.find((s) => got.get(BigInt(s.number))?.hash === s.hash);
      if (same) return { block: BigInt(same.number), hash: same.hash as Hex };
      below = Number(nums[nums.length - 1]);
    }
  }

  /** Headers of `nums`, leaving out blocks the chain does not have (a shorter chain). */
  private async headersOrGone(nums: bigint[]): Promise<Map<bigint, BlockFacts>> {
    try {
      return await this.facts.headers(nums);
    } catch {
      const out = new Map<bigint, BlockFacts>();
      for (const n of nums) {
        const one = await this.facts.headers([n]).catch(() => undefined);
        const b = one?.get(n);
        if (b) out.set(n, b);
      }
      return out;
    }
  }

  /**
   * One step, in one transaction: a reorg's rollback, the blocks, the events and who they concern,
   * the cases filed, seated and changed, and the cursor. The chain is read before the transaction
   * opens (headers, statuses, claims), so a slow node never holds it open. Throws (the follower's
   * poll fails and reads the step again) when the chain moved under the step.
   */
  persist = async (logs: CourtLog[], meta: PollMeta): Promise<void> => {
    const change = meta.change;
    // A reset or a reorg past the follower's window went through `anchor`, which did the rollback.
    const forkAt = change && change.kind === "reorg" && change.depth !== null ? change.block : undefined;
    const rows = eventRows(logs, isCaseLog);
    const changes = caseChanges(rows);
    const db = this.store.db;
    const rolledBack = forkAt === undefined ? [] : await casesAbove(db, forkAt);
    // The blocks with events, for their times: from the logs when the node gives them, else their
    // headers (the follower gives the step's last block's hash).
    const known = new Map<bigint, BlockFacts>();
    for (const l of logs) {
      if (typeof l.blockTimestamp === "bigint")
        known.set(l.blockNumber, { hash: l.blockHash, timestamp: l.blockTimestamp });
    }
    const blockNums = [...new Set(rows.map((r) => BigInt(r.block_number)))].filter((n) => !known.has(n));
    if (!meta.toHash) blockNums.push(meta.toBlock);
    const filed = changes.filed.map((f) => f.address);
    const touched = [...new Set([...changes.touched, ...rolledBack, ...this.stale])];
    const [read, facts] = await Promise.all([
      blockNums.length > 0 ? this.facts.headers([...new Set(blockNums)]) : new Map<bigint, BlockFacts>(),
      touched.length > 0 ? this.facts.cases(touched, filed) : new Map<string, CaseFacts>(),
    ]);
    await this.readWindows(rows);
    const headers = new Map([...known, ...read]);
    for (const r of rows) {
      if (headers.get(BigInt(r.block_number))?.hash.toLowerCase() !== r.block_hash) {
        throw new Error(`index: block ${r.block_number} changed under the step (a reorg): reading it again`);
      }
    }
    const toHash = meta.toHash ?? headers.get(meta.toBlock)?.hash;
    if (!toHash) throw new Error(`index: block ${meta.toBlock} is not on the chain: reading the step again`);
    const size = this.opts.chunk;
    await db.transaction().execute(async (trx) => {
      if (forkAt !== undefined) await forgetAbove(trx, forkAt, rolledBack);
      const blocks = [...headers].map(([n, h]) => ({
        number: Number(n),
        hash: h.hash.toLowerCase(),
        parent_hash: h.parentHash?.toLowerCase() ?? null,
        timestamp: Number(h.timestamp),
      }));
      for (const part of chunks(blocks, rowsPer(blocks[0], size))) {
        await trx
          .insertInto("chain_blocks")
          .values(part)
          .onConflict((oc) => oc.column("number").doNothing())
          .execute();
      }
      const ids = new Map<string, number>();
      const events = rows.map(({ addresses: _, args, ...r }) => ({ ...r, args: JSON.stringify(args) as never }));
      for (const part of chunks(events, rowsPer(events[0], size))) {
        const inserted = await trx
          .insertInto("court_events")
          .values(part)
          // On a step written before (a replay), the stored row is returned and nothing changes.
          .onConflict((oc) =>
            oc.constraint("court_events_log").doUpdateSet((eb) => ({ name: eb.ref("excluded.name") })),
          )
          .returning(["id", "block_hash", "log_index"])
          .execute();
        for (const r of inserted) ids.set(`${r.block_hash}:${r.log_index}`, r.id);
      }
      const idOf = (r: { block_hash: string; log_index: number }) =>
        ids.get(`${r.block_hash}:${r.log_index}`) as number;
      const who = rows.flatMap((r) => r.addresses.map((a) => ({ event_id: idOf(r), ...a })));
      for (const part of chunks(who, rowsPer(who[0], size))) {
        await trx
          .insertInto("court_event_addresses")
          .values(part)
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      await jobsAfterStep(
        trx,
        rows.map((r) => ({
          ...r,
          id: idOf(r),
          timestamp: Number(headers.get(BigInt(r.block_number))?.timestamp ?? 0n),
        })),
        this.windows,
      );
      const filedIds = new Map<string, number>();
      const stateOfFiling = new Map<string, { state: string; id: number }>();
      rows.forEach((r, i) => {
        if (r.name === "CaseFiled" && r.case_address) filedIds.set(r.case_address, idOf(r));
        const s = r.case_address ? changes.states.get(r.case_address) : undefined;
        if (s && s.at === i && r.case_address) stateOfFiling.set(r.case_address, { state: s.state, id: idOf(r) });
      });
      const newCases = changes.filed.map((f) => {
        const s = stateOfFiling.get(f.address);
        return {
          ...f,
          filed_event_id: filedIds.get(f.address) as number,
          filed_at: Number(headers.get(BigInt(f.filed_block))?.timestamp ?? 0n),
          claim: facts.get(f.address)?.claim ?? "",
          state: s?.state ?? "Filed",
          state_event_id: s?.id ?? (filedIds.get(f.address) as number),
        };
      });
      for (const part of chunks(newCases, rowsPer(newCases[0], size))) {
        await trx
          .insertInto("cases")
          .values(part)
          .onConflict((oc) => oc.column("address").doNothing())
          .execute();
      }
      // The filings of the cases seated in this step that an earlier step filed: one read.
      const earlier = [...new Set(changes.panels.map((p) => p.case_address))].filter((c) => !filedIds.has(c));
      const filedOf = new Map<string, number>(filedIds);
      if (earlier.length > 0) {
        const got = await trx
          .selectFrom("cases")
          .select(["address", "filed_event_id"])
          .where("address", "in", earlier)
          .execute();
        for (const r of got) filedOf.set(r.address, r.filed_event_id);
      }
      const participants = participantRows(changes, (c) => filedOf.get(c));
      for (const part of chunks(participants, rowsPer(participants[0], size))) {
        await trx
          .insertInto("case_participants")
          .values(part)
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      if (touched.length > 0) {
        // Each touched case once, in one statement (every row version a case leaves behind is
        // garbage for VACUUM): its last state change of the step unless a later one is stored (a
        // replay), its status as the chain gives it now, and whether it is still open by the two.
        const stored = await trx
          .selectFrom("cases")
          .select(["address", "state", "state_event_id", "status"])
          .where("address", "in", touched)
          .execute();
        const updates = stored.map((c) => {
          const next = stateOfFiling.get(c.address);
          const moved = next !== undefined && next.id > c.state_event_id;
          const state = moved ? next.state : c.state;
          const status = facts.get(c.address)?.status;
          const json = status ? (toJson(status) as Record<string, unknown>) : c.status;
          return {
            address: c.address,
            state,
            state_event_id: moved ? next.id : c.state_event_id,
            has: status !== undefined,
            status: status ? json : null,
            due: status ? keeperDueAt(status) : null,
            round: status ? Number(status.round) : 0,
            open: isOpen(state, (json as { settled?: boolean } | null)?.settled),
          };
        });
        this.updated += updates.length;
        await sql`
          update cases c set
            state = v.state,
            state_event_id = v.state_event_id,
            status = case when v.has then v.status else c.status end,
            status_block = case when v.has then ${Number(meta.toBlock)}::int8 else c.status_block end,
            keeper_due_at = case when v.has then v.due else c.keeper_due_at end,
            round = case when v.round > 0 then v.round else c.round end,
            open = v.open
          from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as v(
            address text, state text, state_event_id int8, has boolean, status jsonb, due int8, round int, open boolean)
          where c.address = v.address`.execute(trx);
        // Their participations follow (an inbox reads the open ones by address).
        const open = updates.map((u) => ({ address: u.address, open: u.open }));
        await sql`
          update case_participants p set open = v.open
          from jsonb_to_recordset(${JSON.stringify(open)}::jsonb) as v(address text, open boolean)
          where p.case_address = v.address and p.open <> v.open`.execute(trx);
      }
      await this.writeCursor(trx, Number(meta.toBlock), toHash);
    });
    for (const c of touched) this.stale.delete(c);
    await this.upkeep();
    this.backfill.step(meta, rows.length);
  };

  /**
   * VACUUM the case tables once enough case rows were rewritten (outside the step's transaction,
   * as VACUUM must be), and ANALYZE every table as the index grows by a fifth, so the planner's
   * statistics follow its size (PGlite has no autovacuum to do either).
   */
  private async upkeep(): Promise<void> {
    if (this.updated < (this.opts.vacuumEvery ?? VACUUM_EVERY)) return;
    this.updated = 0;
    // The participations too: a case's closing rewrites its parties' and judges' rows (their `open`).
    await sql`vacuum cases, case_participants`.execute(this.store.db);
    const events = await this.store.db
      .selectFrom("court_events")
      .select((e) => e.fn.max("id").as("id"))
      .executeTakeFirst();
    const stored = Number(events?.id ?? 0);
    if (stored >= this.analyzedAt * 1.2) {
      this.analyzedAt = Math.max(stored, 1);
      await sql`analyze`.execute(this.store.db);
    }
  }

  /** The challenge windows of the evaluators the step's new jobs name, read once each. */
  private async readWindows(rows: readonly { name: string; args: Record<string, unknown> }[]): Promise<void> {
    const unknown = unknownEvaluators(rows, this.windows);
    if (unknown.length === 0) return;
    const read = (await this.facts.challengeWindows?.(unknown)) ?? new Map<string, number>();
    for (const e of unknown) this.windows.set(e, read.get(e) ?? null);
  }

  private async writeCursor(trx: Parameters<typeof wipe>[0], block: number, hash: Hex): Promise<void> {
    const row = {
      ...this.key,
      block_number: block,
      block_hash: hash.toLowerCase(),
      genesis_hash: this.genesis ?? null,
    };
    await trx
      .insertInto("ingest_cursor")
      .values(row)
      .onConflict((oc) =>
        oc.columns(["chain_id", "factory"]).doUpdateSet({
          block_number: block,
          block_hash: row.block_hash,
          genesis_hash: row.genesis_hash,
          updated_at: new Date(),
        }),
      )
      .execute();
  }

  /** Whether `address` is the deployment this writer indexes (tests). */
  indexes(address: Address): boolean {
    return isAddressEqual(address, this.chain.factory);
  }
}
