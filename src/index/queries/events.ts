import type { Kysely } from "kysely";
import type { Address, Hex } from "viem";
import type { CourtLog } from "../../chain/courtLogs.js";
import { eventOfLog } from "../../events/fromLogs.js";
import type { EventHistory } from "../../events/resume.js";
import { type DocketEvent, PUSHED_AS } from "../../events/types.js";
import type { StoreSchema } from "../../store/schema.js";

/** The court events docket pushes (those that only move the cache are stored but never sent). */
const PUSHED_NAMES = Object.entries(PUSHED_AS)
  .filter(([, type]) => type !== null)
  .map(([name]) => name);

/** Events per page when a stream catches up from the index. */
export const EVENTS_PAGE = 200;

/** A mined log's event id, parsed: `<block>-<logIndex>-<8 hex of its block hash>`; undefined for any other id. */
export function parseEventId(id: string): { block: number; logIndex: number; hash8: string } | undefined {
  const m = /^(\d{1,15})-(\d{1,9})-([0-9a-f]{8})$/.exec(id);
  if (!m) return undefined;
  return { block: Number(m[1]), logIndex: Number(m[2]), hash8: m[3] as string };
}

/**
 * The stored row `id` names, by block, log index and block hash: undefined when the index does not
 * hold it (never stored, orphaned by a reorg, pruned by INDEX_RETENTION, or not a mined log's id).
 */
export async function storedEventKey(db: Kysely<StoreSchema>, id: string): Promise<number | undefined> {
  const p = parseEventId(id);
  if (!p) return undefined;
  const rows = await db
    .selectFrom("court_events")
    .select(["id", "block_hash"])
    .where("block_number", "=", p.block)
    .where("log_index", "=", p.logIndex)
    .execute();
  return rows.find((r) => r.block_hash.slice(2, 10) === p.hash8)?.id;
}

/**
 * The pushed events stored after the row `after` (a key from storedEventKey or a previous page's
 * `next`), in chain order, `limit` at most, as DocketEvents as the live follower maps them: the same
 * type, data (with the state its transaction's CaseChanged left the case in), case and addresses.
 * Where the live mapping reads a case's parties and current panel from the chain, these are the
 * case's parties and the panel of the last round seated at the event's block (case_participants);
 * a job's client and provider are those its stored events named up to it. `keys` are the events'
 * rows, in step with `events`; `next` is the key to read on from, undefined at the end of what is stored.
 */
export async function eventsAfter(
  db: Kysely<StoreSchema>,
  after: number,
  limit = EVENTS_PAGE,
): Promise<{ events: DocketEvent[]; keys: number[]; next: number | undefined }> {
  const rows = await db
    .selectFrom("court_events")
    .selectAll()
    .where("id", ">", after)
    .where("name", "in", PUSHED_NAMES)
    .orderBy("id")
    .limit(limit)
    .execute();
  if (rows.length === 0) return { events: [], keys: [], next: undefined };
  const txs = [...new Set(rows.map((r) => r.tx_hash))];
  // The CaseChanged events of the page's transactions: the state each case event left its case in.
  const changes = await db
    .selectFrom("court_events")
    .selectAll()
    .where("tx_hash", "in", txs)
    .where("name", "=", "CaseChanged")
    .execute();
  const cases = [...new Set(rows.flatMap((r) => (r.case_address ? [r.case_address] : [])))];
  const participants =
    cases.length === 0
      ? []
      : await db
          .selectFrom("case_participants")
          .select(["case_address", "address", "role", "round", "block_number"])
          .where("case_address", "in", cases)
          .execute();
  const jobs = [...new Set(rows.flatMap((r) => (r.job_id !== null ? [r.job_id] : [])))];
  const jobParties =
    jobs.length === 0
      ? []
      : await db
          .selectFrom("court_event_addresses as a")
          .innerJoin("court_events as e", "e.id", "a.event_id")
          .select(["e.job_id", "e.id", "a.address"])
          .where("e.job_id", "in", jobs)
          .where("a.role", "in", ["client", "provider"])
          .execute();
  const asLog = (r: (typeof rows)[number]): CourtLog => ({
    address: r.address as Address,
    eventName: r.name,
    args: r.args,
    blockNumber: BigInt(r.block_number),
    blockHash: r.block_hash as Hex,
    logIndex: r.log_index,
    transactionHash: r.tx_hash as Hex,
  });
  const around = [...rows, ...changes].map(asLog);
  const events = rows.map((r) => {
    const concerned: string[] = [];
    if (r.case_address) {
      const mine = participants.filter((p) => p.case_address === r.case_address && p.block_number <= r.block_number);
      const round = Math.max(0, ...mine.filter((p) => p.role === "judge").map((p) => p.round));
      // As the chain reads them live: plaintiff, defendant, then the panel.
      for (const role of ["plaintiff", "defendant", "judge"])
        for (const p of mine) if (p.role === role && (role !== "judge" || p.round === round)) concerned.push(p.address);
    }
    if (r.job_id !== null) {
      for (const p of jobParties) if (p.job_id === r.job_id && p.id <= r.id) concerned.push(p.address);
    }
    return eventOfLog(asLog(r), around, concerned);
  });
  return { events, keys: rows.map((r) => r.id), next: (rows[rows.length - 1] as (typeof rows)[number]).id };
}

/** The newest `limit` pushed events stored, newest first, mapped as eventsAfter maps them (the explorer's latest events). */
export async function latestEvents(db: Kysely<StoreSchema>, limit: number): Promise<DocketEvent[]> {
  const newest = await db
    .selectFrom("court_events")
    .select("id")
    .where("name", "in", PUSHED_NAMES)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  const oldest = newest[newest.length - 1];
  if (!oldest) return [];
  const { events } = await eventsAfter(db, oldest.id - 1, limit);
  return events.reverse();
}

/** The index as the history `/events` resumes from (src/events/resume.ts): every stored event, a page at a time. */
export function storedHistory(db: Kysely<StoreSchema>, limit = EVENTS_PAGE): EventHistory {
  return {
    async after(lastId) {
      const from = await storedEventKey(db, lastId);
      if (from === undefined) return undefined;
      return (async function* () {
        let key: number | undefined = from;
        while (key !== undefined) {
          const page = await eventsAfter(db, key, limit);
          if (page.events.length > 0) yield page.events;
          key = page.events.length < limit ? undefined : page.next;
        }
      })();
    },
  };
}
