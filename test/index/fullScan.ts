/**
 * The index held against a full scan of the chain: what the index should hold, read from the chain
 * alone (the factory's pages of cases, each case's getCase, getStatus and panels, and every court log
 * from eth_getLogs), and what it holds, read from its tables; `diffIndex` lists every difference.
 * Used by the differential, reorg and kill -9 suites (test/index/).
 */

import type { Kysely } from "kysely";
import { type Address, type Hex, isAddressEqual, type PublicClient } from "viem";
import {
  agenticCommerceAbi,
  caseFactoryAbi,
  courtEvaluatorAbi,
  disputeCaseAbi,
} from "../../src/chain/abi/generated.js";
import { courtEvents } from "../../src/chain/courtLogs.js";
import { STATE_NAMES } from "../../src/chain/reads/cases.js";
import type { Docket } from "../../src/server.js";
import type { JobsTable, StoreSchema } from "../../src/store/schema.js";
import { until } from "../support/wait.js";

/** The deployment a scan reads: the factory's cases and the contracts whose logs are court logs. */
export interface ScanTarget {
  factory: Address;
  registry: Address;
  /** The arbitration contracts, when deployed (their logs count too). */
  arbitration?: { arbitrator: Address; commerce: Address; evaluators: readonly { address: Address }[] };
}

/** One stored event, as compared (the database's id left out: the order of the list is the check). */
export interface EventKey {
  block_number: number;
  block_hash: string;
  log_index: number;
  tx_hash: string;
  address: string;
  name: string;
  args: unknown;
  case_address: string | null;
  job_id: string | null;
  /** `address:role` pairs, sorted. */
  who: string[];
}

export interface CaseKey {
  address: string;
  filed_block: number;
  filed_at: number;
  court_id: number;
  plaintiff: string;
  defendant: string;
  claim: string;
  state: string;
  round: number;
  open: boolean;
  /** The chain's CaseStatus, its draw status left out (it moves with the block number alone). */
  status: unknown;
  /** `address:role:round`, sorted. */
  participants: string[];
}

/** An ERC-8183 job as the index keeps it (its due times, worked out from these, left out). */
export type JobKey = Pick<
  JobsTable,
  | "job_id"
  | "client"
  | "provider"
  | "evaluator"
  | "state"
  | "budget"
  | "expired_at"
  | "submitted_at"
  | "window_ends_at"
  | "disputed"
  | "dispute_id"
  | "case_address"
>;

/** The index's whole content in comparable form. */
export interface IndexImage {
  head: { block: number; hash: string } | undefined;
  events: EventKey[];
  cases: CaseKey[];
  jobs: JobKey[];
  /** Blocks the index holds whose hash the chain no longer has there (orphans), and event blocks it lacks. */
  blocks: string[];
}

// The conversions below are written apart from src/index/rows.ts on purpose: the scan is the oracle
// the writer is held against, so it must not share the writer's code.
const lower = (s: string) => s.toLowerCase();
const isAddr = (v: unknown): v is string => typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v);

/** JSON as the index keeps a decoded value: bigints as decimal strings. */
function plain(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

function withoutDrawStatus(status: unknown): unknown {
  if (!status || typeof status !== "object") return status;
  const { drawStatus: _, ...rest } = status as Record<string, unknown>;
  return rest;
}

const PAGE = 100n;

/** Every case the factory lists, page by page, and the open ones by its own open set. */
async function factoryCases(reader: PublicClient, factory: Address, at: bigint) {
  const all: Address[] = [];
  for (let offset = 0n; ; offset += PAGE) {
    const [total, page] = await reader.readContract({
      address: factory,
      abi: caseFactoryAbi,
      functionName: "getCases",
      args: [offset, PAGE],
      blockNumber: at,
    });
    all.push(...(page as readonly Address[]));
    if (offset + PAGE >= total) break;
  }
  const open = new Set<string>();
  for (let offset = 0n; ; offset += PAGE) {
    const [total, page] = await reader.readContract({
      address: factory,
      abi: caseFactoryAbi,
      functionName: "getOpenCases",
      args: [false, 0, offset, PAGE],
      blockNumber: at,
    });
    for (const s of page) open.add(lower(s.addr));
    if (offset + PAGE >= total) break;
  }
  return { all, open };
}

/**
 * What the index should hold at the chain's head, read from the chain only: every court log (from
 * the factory, the registry, the arbitration contracts, and each case the factory lists), each case
 * from its own views, its panel in every round.
 */
export async function scanChain(reader: PublicClient, target: ScanTarget): Promise<IndexImage> {
  const head = await reader.getBlock({ blockTag: "latest" });
  const at = head.number as bigint;
  const { all, open } = await factoryCases(reader, target.factory, at);
  const isCase = new Set(all.map(lower));
  const a = target.arbitration;
  const emitters = new Set(
    [
      target.factory,
      target.registry,
      ...(a ? [a.arbitrator, a.commerce, ...a.evaluators.map((e) => e.address)] : []),
    ].map(lower),
  );
  const logs = (await reader.getLogs({ events: courtEvents, fromBlock: 0n, toBlock: at, strict: true })).filter(
    (l) => emitters.has(lower(l.address)) || isCase.has(lower(l.address)),
  );
  const events: EventKey[] = logs.map((l) => {
    const args = (l.args ?? {}) as Record<string, unknown>;
    const who = new Set<string>();
    for (const [role, v] of Object.entries(args)) {
      if (role === "caseAddr") continue;
      for (const x of Array.isArray(v) ? v : [v]) if (isAddr(x)) who.add(`${lower(x)}:${role}`);
    }
    return {
      block_number: Number(l.blockNumber),
      block_hash: lower(l.blockHash),
      log_index: l.logIndex,
      tx_hash: lower(l.transactionHash),
      address: lower(l.address),
      name: l.eventName,
      args: plain(args),
      case_address: isCase.has(lower(l.address))
        ? lower(l.address)
        : isAddr(args.caseAddr)
          ? lower(args.caseAddr)
          : null,
      job_id: typeof args.jobId === "bigint" ? args.jobId.toString() : null,
      who: [...who].sort(),
    };
  });
  const cases: CaseKey[] = await Promise.all(
    all.map(async (addr): Promise<CaseKey> => {
      const [[, view], status] = await Promise.all([
        reader.readContract({
          address: target.factory,
          abi: caseFactoryAbi,
          functionName: "getCase",
          args: [addr],
          blockNumber: at,
        }),
        reader.readContract({ address: addr, abi: disputeCaseAbi, functionName: "getStatus", blockNumber: at }),
      ]);
      const participants = [`${lower(view.plaintiff)}:plaintiff:0`, `${lower(view.defendant)}:defendant:0`];
      for (let r = 1; r <= status.round; r++) {
        const [judges] = await reader.readContract({
          address: addr,
          abi: disputeCaseAbi,
          functionName: "getPanel",
          args: [r],
          blockNumber: at,
        });
        for (const j of judges) participants.push(`${lower(j)}:judge:${r}`);
      }
      const filing = logs.find(
        (l) =>
          l.eventName === "CaseFiled" &&
          isAddressEqual(l.address, target.factory) &&
          lower(String((l.args as { caseAddr?: string }).caseAddr)) === lower(addr),
      );
      return {
        address: lower(addr),
        filed_block: Number(filing?.blockNumber ?? -1),
        filed_at: Number(view.filedAt),
        court_id: Number(view.courtId),
        plaintiff: lower(view.plaintiff),
        defendant: lower(view.defendant),
        claim: view.claimDescription,
        state: STATE_NAMES[view.state] ?? String(view.state),
        round: Math.max(1, status.round),
        open: open.has(lower(addr)),
        status: withoutDrawStatus(plain(status)),
        participants: participants.sort(),
      };
    }),
  );
  cases.sort((x, y) => x.address.localeCompare(y.address));
  const jobs = a ? await scanJobs(reader, a, at) : [];
  return { head: { block: Number(at), hash: lower(head.hash as Hex) }, events, cases, jobs, blocks: [] };
}

const JOB_STATE_NAMES = ["Open", "Funded", "Submitted", "Completed", "Rejected", "Expired"];

/** Every job of the job contract at block `at`, from its own views and its evaluator's. */
async function scanJobs(
  reader: PublicClient,
  a: NonNullable<ScanTarget["arbitration"]>,
  at: bigint,
): Promise<JobKey[]> {
  const out: JobKey[] = [];
  for (let offset = 0n; ; offset += PAGE) {
    const [total, page] = await reader.readContract({
      address: a.commerce,
      abi: agenticCommerceAbi,
      functionName: "getJobs",
      args: [offset, PAGE],
      blockNumber: at,
    });
    for (const j of page) {
      const ours = a.evaluators.some((e) => isAddressEqual(e.address, j.evaluator));
      const ev = ours
        ? await reader.readContract({
            address: j.evaluator,
            abi: courtEvaluatorAbi,
            functionName: "getEvaluation",
            args: [j.id],
            blockNumber: at,
          })
        : undefined;
      const zero = /^0x0{40}$/;
      out.push({
        job_id: j.id.toString(),
        client: lower(j.client),
        provider: zero.test(j.provider) ? null : lower(j.provider),
        evaluator: lower(j.evaluator),
        state: JOB_STATE_NAMES[j.status] ?? String(j.status),
        budget: j.budget.toString(),
        expired_at: Number(j.expiredAt),
        submitted_at: j.submittedAt === 0n ? null : Number(j.submittedAt),
        window_ends_at: ev && ev.windowEndsAt !== 0n ? Number(ev.windowEndsAt) : null,
        disputed: ev?.disputed ?? false,
        dispute_id: ev?.disputed ? ev.disputeId.toString() : null,
        case_address: ev?.disputed ? lower(ev.caseAddr) : null,
      });
    }
    if (offset + PAGE >= total) break;
  }
  return out.sort((x, y) => Number(x.job_id) - Number(y.job_id));
}

/**
 * What the index holds, in the same form: its events in id order, its cases with their participants,
 * and (checked against the chain through `reader`) every stored block the chain no longer has and
 * every event whose block is not stored.
 */
export async function readIndexImage(
  db: Kysely<StoreSchema>,
  reader: PublicClient,
  target: ScanTarget,
): Promise<IndexImage> {
  const rows = await db.selectFrom("court_events").selectAll().orderBy("id").execute();
  const who = await db.selectFrom("court_event_addresses").selectAll().execute();
  const whoOf = new Map<number, string[]>();
  for (const w of who) whoOf.set(w.event_id, [...(whoOf.get(w.event_id) ?? []), `${w.address}:${w.role}`]);
  const events: EventKey[] = rows.map((r) => ({
    block_number: Number(r.block_number),
    block_hash: r.block_hash,
    log_index: Number(r.log_index),
    tx_hash: r.tx_hash,
    address: r.address,
    name: r.name,
    args: typeof r.args === "string" ? JSON.parse(r.args) : r.args,
    case_address: r.case_address,
    job_id: r.job_id === null ? null : String(r.job_id),
    who: (whoOf.get(r.id) ?? []).sort(),
  }));
  const idOf = new Map(rows.map((r) => [r.id, `${r.block_hash}:${r.log_index}`]));
  const caseRows = await db.selectFrom("cases").selectAll().orderBy("address").execute();
  const parts = await db.selectFrom("case_participants").selectAll().execute();
  const blocks: string[] = [];
  const cases: CaseKey[] = caseRows.map((c) => {
    const mine = parts.filter((p) => p.case_address === c.address);
    // Every participant row carries its case's filing id: the keyset of an address's cases.
    for (const p of mine) {
      if (p.filed_event_id !== c.filed_event_id)
        blocks.push(
          `participant ${p.address}:${p.role}:${p.round} of ${c.address} has filed_event_id ${p.filed_event_id}, the case ${c.filed_event_id}`,
        );
    }
    const filing = rows.find((r) => r.id === c.filed_event_id);
    if (filing?.name !== "CaseFiled" || filing.case_address !== c.address)
      blocks.push(
        `case ${c.address}: filed_event_id ${c.filed_event_id} is ${filing ? `${filing.name} of ${filing.case_address}` : "no stored event"} (${idOf.get(c.filed_event_id)})`,
      );
    return {
      address: c.address,
      filed_block: Number(c.filed_block),
      filed_at: Number(c.filed_at),
      court_id: Number(c.court_id),
      plaintiff: c.plaintiff,
      defendant: c.defendant,
      claim: c.claim,
      state: c.state,
      round: Number(c.round),
      open: c.open,
      status: withoutDrawStatus(typeof c.status === "string" ? JSON.parse(c.status) : c.status),
      participants: mine.map((p) => `${p.address}:${p.role}:${p.round}`).sort(),
    };
  });
  // Stored blocks: each must be the chain's block at that height, and every event's block stored.
  const stored = await db.selectFrom("chain_blocks").selectAll().orderBy("number").execute();
  const storedAt = new Map(stored.map((b) => [Number(b.number), b]));
  // Twenty at a time: hundreds of requests at once fail on the node's side, not the index's.
  const chainBlocks: (Awaited<ReturnType<typeof reader.getBlock>> | undefined)[] = [];
  for (let i = 0; i < stored.length; i += 20) {
    const part = stored.slice(i, i + 20);
    chainBlocks.push(
      ...(await Promise.all(
        part.map((b) =>
          reader.getBlock({ blockNumber: BigInt(b.number) }).catch((e: Error) => {
            if (e.name === "BlockNotFoundError") return undefined;
            throw e;
          }),
        ),
      )),
    );
  }
  for (const [i, b] of stored.entries()) {
    const onChain = chainBlocks[i];
    if (!onChain) blocks.push(`block ${b.number} stored (${b.hash}) is past the chain's head`);
    else if (lower(onChain.hash as Hex) !== b.hash)
      blocks.push(`block ${b.number} stored as ${b.hash}, the chain has ${lower(onChain.hash as Hex)}`);
    else if (Number(onChain.timestamp) !== Number(b.timestamp))
      blocks.push(`block ${b.number} stored at ${b.timestamp}, the chain says ${onChain.timestamp}`);
  }
  for (const e of events) {
    if (storedAt.get(e.block_number)?.hash !== e.block_hash)
      blocks.push(`event ${e.block_hash}:${e.log_index}: its block is not stored`);
  }
  const jobRows = await db.selectFrom("jobs").selectAll().execute();
  const jobs: JobKey[] = jobRows
    .map((j) => ({
      job_id: String(j.job_id),
      client: j.client,
      provider: j.provider,
      evaluator: j.evaluator,
      state: j.state,
      budget: String(j.budget),
      expired_at: Number(j.expired_at),
      submitted_at: j.submitted_at === null ? null : Number(j.submitted_at),
      window_ends_at: j.window_ends_at === null ? null : Number(j.window_ends_at),
      disputed: j.disputed,
      dispute_id: j.dispute_id === null ? null : String(j.dispute_id),
      case_address: j.case_address,
    }))
    .sort((x, y) => Number(x.job_id) - Number(y.job_id));
  const cursor = await db
    .selectFrom("ingest_cursor")
    .selectAll()
    .where("factory", "=", lower(target.factory))
    .executeTakeFirst();
  return {
    head: cursor ? { block: Number(cursor.block_number), hash: cursor.block_hash } : undefined,
    events,
    cases,
    jobs,
    blocks,
  };
}

/** JSON with object keys sorted (jsonb keeps its own key order). */
const show = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );

/** Every difference between the chain's image and the index's, as lines naming the rows (empty when equal). */
export function diffIndex(chain: IndexImage, index: IndexImage, max = 30): string[] {
  const out: string[] = [];
  if (show(chain.head) !== show(index.head))
    out.push(`cursor: index ${show(index.head)}, chain head ${show(chain.head)}`);
  out.push(...index.blocks);
  const key = (e: EventKey) => `${e.block_hash}:${e.log_index}`;
  const seen = new Map<string, number>();
  for (const e of index.events) seen.set(key(e), (seen.get(key(e)) ?? 0) + 1);
  for (const [k, n] of seen) if (n > 1) out.push(`event ${k} stored ${n} times`);
  const want = new Map(chain.events.map((e) => [key(e), e]));
  const got = new Map(index.events.map((e) => [key(e), e]));
  for (const [k, e] of want) {
    const g = got.get(k);
    if (!g) out.push(`event missing: block ${e.block_number} ${k} ${e.name} ${show(e.args)}`);
    else if (show(g) !== show(e)) out.push(`event ${k} ${e.name}: index ${show(g)}\n    chain ${show(e)}`);
  }
  for (const [k, e] of got)
    if (!want.has(k)) out.push(`event not on the chain: block ${e.block_number} ${k} ${e.name}`);
  if (out.length === 0 && show(index.events.map(key)) !== show(chain.events.map(key)))
    out.push("events: the index's id order is not the chain's order");
  const wantCases = new Map(chain.cases.map((c) => [c.address, c]));
  const gotCases = new Map(index.cases.map((c) => [c.address, c]));
  for (const [a, c] of wantCases) {
    const g = gotCases.get(a);
    if (!g) {
      out.push(`case missing: ${a} (${c.state})`);
      continue;
    }
    for (const k of Object.keys(c) as (keyof CaseKey)[]) {
      if (show(g[k]) !== show(c[k])) out.push(`case ${a} ${k}: index ${show(g[k])}, chain ${show(c[k])}`);
    }
  }
  for (const a of gotCases.keys()) if (!wantCases.has(a)) out.push(`case not on the chain: ${a}`);
  const wantJobs = new Map(chain.jobs.map((j) => [j.job_id, j]));
  const gotJobs = new Map(index.jobs.map((j) => [j.job_id, j]));
  for (const [id, j] of wantJobs) {
    const g = gotJobs.get(id);
    if (!g) out.push(`job missing: ${id} (${j.state})`);
    else if (show(g) !== show(j)) out.push(`job ${id}: index ${show(g)}\n    chain ${show(j)}`);
  }
  for (const id of gotJobs.keys()) if (!wantJobs.has(id)) out.push(`job not on the chain: ${id}`);
  return out.length > max ? [...out.slice(0, max), `... and ${out.length - max} more`] : out;
}

/** The index's image and the chain's, and their differences. */
export async function compareWithChain(db: Kysely<StoreSchema>, reader: PublicClient, target: ScanTarget) {
  const chain = await scanChain(reader, target);
  const index = await readIndexImage(db, reader, target);
  return { chain, index, diff: diffIndex(chain, index) };
}

/** Polls `d`'s follower (the test drives it) until its index's cursor is at the head `reader` sees. */
export async function followToHead(d: Docket, reader: PublicClient, ms = 60_000): Promise<void> {
  const head = Number(await reader.getBlockNumber({ cacheTime: 0 }));
  await until(
    `the index at block ${head}`,
    async () => {
      await d.follower?.poll().catch(() => {});
      return ((await d.ctx.index?.cursor())?.block ?? -1) >= head;
    },
    ms,
  );
}

/** The index of `d`, its database, or a clear error. */
export function indexDb(d: Docket): Kysely<StoreSchema> {
  const db = d.ctx.index?.db;
  if (!db) throw new Error("docket has no index");
  return db;
}
