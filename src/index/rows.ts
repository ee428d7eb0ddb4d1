import type { Insertable, Selectable } from "kysely";
import { getAddress } from "viem";
import type { CourtLog } from "../chain/courtLogs.js";
import { STATE_NAMES } from "../chain/reads/cases.js";
import type { CaseParticipantsTable, CourtEventAddressesTable, CourtEventsTable } from "../store/schema.js";

/**
 * A court log as the index stores it, before the database gives it an id (a `court_events` row of
 * schema.ts, with who it concerns beside it): the pure half of the ingest (no chain, no database), so
 * that the bench's generated events go through the same code.
 */
export type EventRow = Omit<Selectable<CourtEventsTable>, "id"> & {
  /** Who it concerns, by the argument that names them (`judges` for each of a panel). */
  addresses: Omit<CourtEventAddressesTable, "event_id">[];
};

const lower = (s: string) => s.toLowerCase();
const isAddress = (v: unknown): v is string => typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v);

/** A decoded argument as JSON: uint256 as a decimal string, addresses checksummed as viem decodes them. */
function json(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return v.map(json);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, json(x)]));
  return v;
}

/** The case a log is about: a case contract's own (the follower keeps those the factory vouches for), or one it names. */
export function caseOfLog(l: Pick<CourtLog, "address" | "args" | "eventName">, isCaseContract: boolean): string | null {
  if (isCaseContract) return lower(l.address);
  return isAddress(l.args.caseAddr) ? lower(l.args.caseAddr) : null;
}

/** One stored row per court log, in chain order. `isCaseContract` says which logs a case emitted. */
export function eventRows(logs: readonly CourtLog[], isCaseContract: (l: CourtLog) => boolean): EventRow[] {
  return logs.map((l) => {
    // An event without arguments (Dismissed) decodes with none.
    const args = l.args ?? {};
    const addresses: EventRow["addresses"] = [];
    for (const [role, v] of Object.entries(args)) {
      if (role === "caseAddr") continue;
      for (const x of Array.isArray(v) ? v : [v]) if (isAddress(x)) addresses.push({ address: lower(x), role });
    }
    const seen = new Set<string>();
    return {
      block_number: Number(l.blockNumber),
      block_hash: lower(l.blockHash),
      log_index: l.logIndex,
      tx_hash: lower(l.transactionHash),
      address: lower(l.address),
      name: l.eventName,
      args: json(args) as Record<string, unknown>,
      case_address: caseOfLog({ ...l, args }, isCaseContract(l)),
      job_id: typeof args.jobId === "bigint" ? args.jobId.toString() : null,
      addresses: addresses.filter((a) => {
        const k = `${a.address}:${a.role}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      }),
    };
  });
}

/** A case as its filing says, before its facts (claim, status) are read. */
export interface FiledCase {
  address: string;
  court_id: number;
  plaintiff: string;
  defendant: string;
  filed_block: number;
}

/** What a step's stored events change in the case tables, worked out from them alone. */
export interface CaseChanges {
  filed: FiledCase[];
  /** The state each case's last CaseChanged of the step names, with that event's index in the step. */
  states: Map<string, { state: string; at: number }>;
  /** Judges seated (JudgesAssigned), by case and round. */
  panels: { case_address: string; round: number; judges: string[]; block_number: number }[];
  /** Every case the step's events touch (its status is read again). */
  touched: Set<string>;
}

/** The case tables' part of a step's events (rows in chain order). */
export function caseChanges(rows: readonly EventRow[]): CaseChanges {
  const out: CaseChanges = { filed: [], states: new Map(), panels: [], touched: new Set() };
  rows.forEach((r, i) => {
    const c = r.case_address;
    if (!c) return;
    out.touched.add(c);
    const a = r.args;
    if (r.name === "CaseFiled") {
      out.filed.push({
        address: c,
        court_id: Number(a.courtId),
        plaintiff: lower(String(a.plaintiff)),
        defendant: lower(String(a.defendant)),
        filed_block: r.block_number,
      });
    } else if (r.name === "CaseChanged") {
      out.states.set(c, { state: STATE_NAMES[Number(a.state)] ?? String(a.state), at: i });
    } else if (r.name === "JudgesAssigned" && Array.isArray(a.judges)) {
      out.panels.push({
        case_address: c,
        round: Number(a.round),
        judges: (a.judges as string[]).map(lower),
        block_number: r.block_number,
      });
    }
  });
  return out;
}

/** The participant rows of a filing and of the panels seated. */
export function participantRows(
  changes: CaseChanges,
  filedIdOf: (caseAddress: string) => number | undefined,
): Insertable<CaseParticipantsTable>[] {
  const rows: Insertable<CaseParticipantsTable>[] = [];
  for (const f of changes.filed) {
    const id = filedIdOf(f.address);
    if (id === undefined) continue;
    rows.push({
      address: f.plaintiff,
      case_address: f.address,
      role: "plaintiff",
      round: 0,
      filed_event_id: id,
      block_number: f.filed_block,
    });
    rows.push({
      address: f.defendant,
      case_address: f.address,
      role: "defendant",
      round: 0,
      filed_event_id: id,
      block_number: f.filed_block,
    });
  }
  for (const p of changes.panels) {
    const id = filedIdOf(p.case_address);
    if (id === undefined) continue;
    for (const j of p.judges) {
      rows.push({
        address: j,
        case_address: p.case_address,
        role: "judge",
        round: p.round,
        filed_event_id: id,
        block_number: p.block_number,
      });
    }
  }
  return rows;
}

/** Whether a case in `state` (with its status's `settled`) can still change: what the factory's open set says. */
export function isOpen(state: string, settled: boolean | undefined): boolean {
  if (state === "Defaulted" || state === "Dismissed") return false;
  return !(state === "Resolved" && settled === true);
}

/** A checksummed address, for answers. */
export const checksum = (a: string) => getAddress(a);
