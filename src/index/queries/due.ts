import { type Kysely, sql } from "kysely";
import type { Address } from "viem";
import { disputeCaseAbi } from "../../chain/abi/generated.js";
import { type CaseStatusView, STATE_NAMES } from "../../chain/reads/cases.js";
import type { StoreSchema } from "../../store/schema.js";

/**
 * What is due, from the index (docs/index.md#what-is-due): an address's open cases (the inbox), the
 * open cases whose keeper actions are available (the keeper view), the cases awaiting validation.
 * Each answers with the chain's CaseStatus of the case as its last indexed event left it: deadlines
 * change only with events, so what may be done at a chain time follows from it, but for an armed
 * draw, whose randomness comes with blocks (the operations read those few statuses fresh).
 */

/**
 * The CaseStatus fields viem gives as bigint (integers over 48 bits), read from the ABI of
 * DisputeCase.getStatus, so a field added to the struct is restored without a list to keep in step.
 */
const WIDE = (() => {
  const fn = disputeCaseAbi.find((f) => f.type === "function" && f.name === "getStatus");
  const out =
    fn && "outputs" in fn ? (fn.outputs[0] as { components?: readonly { name: string; type: string }[] }) : {};
  return (out.components ?? [])
    .filter((c) => /^u?int\d+$/.test(c.type) && Number(c.type.replace(/^u?int/, "")) > 48)
    .map((c) => c.name);
})();

/** A CaseStatus as the writer stored it (uint256 as decimal strings) back as the chain gives it. */
export function statusFromRow(json: Record<string, unknown>): CaseStatusView {
  const s: Record<string, unknown> = { ...json };
  for (const k of WIDE) s[k] = BigInt(String(json[k] ?? 0));
  return s as unknown as CaseStatusView;
}

/** The entropy status code of CaseStatus.drawStatus when no draw is awaited. */
const NO_DRAW = 255;

/** Whether the status awaits a draw's randomness (it changes with blocks, not with events). */
export function awaitsDraw(s: CaseStatusView): boolean {
  const st = STATE_NAMES[s.state];
  return s.drawStatus !== NO_DRAW && ((st === "Active" && s.round === 1) || (st === "Appealed" && s.round === 2));
}

/**
 * The earliest chain time at which a keeper action on the case is available as its status stands,
 * by the rules of `keeperActions` (src/operations/cases/actions.ts): a default after the response
 * deadline, a resolution after the deliberation deadline, a settlement after the appeal window;
 * 0 while a draw is armed (ready some blocks on); null when nothing comes without a new event.
 * "After a deadline" is chain time strictly past it, so the time is the deadline plus one.
 */
export function keeperDueAt(s: CaseStatusView): number | null {
  const st = STATE_NAMES[s.state];
  const at: bigint[] = [];
  if (st === "Summoned") at.push(s.responseDeadline + 1n);
  if (st === "Active" || st === "Deliberating" || st === "Appealed") at.push(s.deliberationDeadline + 1n);
  if (st === "Resolved" && !s.settled) at.push(s.appealDeadline + 1n);
  if (awaitsDraw(s)) at.push(0n);
  if (at.length === 0) return null;
  // biome-ignore lint/complexity/useMathMinMax: bigints
  return Number(at.reduce((a, b) => (a < b ? a : b)));
}

export { decodeCursor, encodeCursor } from "./cursor.js";

/** A case row with its stored status. */
export interface DueRow {
  address: string;
  filed_event_id: number;
  status: CaseStatusView;
}

const rowOf = (r: { address: string; filed_event_id: number; status: unknown }): DueRow => ({
  address: r.address,
  filed_event_id: r.filed_event_id,
  status: statusFromRow(r.status as Record<string, unknown>),
});

/** Every open case `who` takes part in (party, or judge of any round) with a status, newest first. */
export async function openCasesOf(db: Kysely<StoreSchema>, who: Address): Promise<DueRow[]> {
  return (await openCasesQuery(db, who).execute()).map(rowOf);
}

/** openCasesOf's query: the address's open participations (one walk of case_participants_open), then their cases. */
export function openCasesQuery(db: Kysely<StoreSchema>, who: Address) {
  return db
    .selectFrom("cases")
    .select(["cases.address", "cases.filed_event_id", "cases.status"])
    .where("cases.open", "=", true)
    .where("cases.status", "is not", null)
    .where("cases.address", "in", (eb) =>
      eb
        .selectFrom("case_participants as p")
        .select("p.case_address")
        .where("p.address", "=", who.toLowerCase())
        .where("p.open", "=", true),
    )
    .orderBy("cases.filed_event_id", "desc");
}

/**
 * The open cases with a keeper action due by `now`, soonest first (keyset on keeper_due_at and the
 * filing), with how many there are in all (over `court` when given).
 */
export async function keeperDuePage(
  db: Kysely<StoreSchema>,
  now: number,
  limit: number,
  after: number[] | undefined,
  court: number | undefined,
): Promise<{ total: number; rows: (DueRow & { keeper_due_at: number })[] }> {
  let q = db
    .selectFrom("cases")
    .where("open", "=", true)
    .where("keeper_due_at", "<=", now)
    .where("status", "is not", null);
  if (court !== undefined) q = q.where(sql<number>`(status->>'courtId')::bigint`, "=", court);
  const [count, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    (after ? q.where(sql`(keeper_due_at, filed_event_id)`, ">", sql`(${after[0]}, ${after[1]})`) : q)
      .select(["address", "filed_event_id", "status", "keeper_due_at"])
      .orderBy("keeper_due_at")
      .orderBy("filed_event_id")
      .limit(limit)
      .execute(),
  ]);
  return {
    total: Number(count.n),
    rows: rows.map((r) => ({ ...rowOf(r), keeper_due_at: Number(r.keeper_due_at) })),
  };
}

const DEADLINE = sql<number>`(status->>'deliberationDeadline')::bigint`;

/** The cases in Deliberating, soonest deliberation deadline first (keyset on it and the filing), with their count. */
export async function deliberatingPage(
  db: Kysely<StoreSchema>,
  limit: number,
  after: number[] | undefined,
): Promise<{ total: number; rows: (DueRow & { round: number; filed_at: number; court_id: number })[] }> {
  const q = db.selectFrom("cases").where("state", "=", "Deliberating").where("status", "is not", null);
  const [count, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    (after ? q.where(sql`(${DEADLINE}, filed_event_id)`, ">", sql`(${after[0]}, ${after[1]})`) : q)
      .select(["address", "filed_event_id", "status", "round", "filed_at", "court_id"])
      .orderBy(DEADLINE)
      .orderBy("filed_event_id")
      .limit(limit)
      .execute(),
  ]);
  return {
    total: Number(count.n),
    rows: rows.map((r) => ({
      ...rowOf(r),
      round: r.round,
      filed_at: Number(r.filed_at),
      court_id: Number(r.court_id),
    })),
  };
}
