import { type Address, getAddress } from "viem";
import { followedEventOf } from "../chain/contractEvents.js";
import type { CourtLog } from "../chain/courtLogs.js";
import type { ChainChange } from "../chain/follower.js";
import { OUTCOME_NAMES, STATE_NAMES } from "../chain/reads/cases.js";
import { type DocketEvent, type EventType, type EventValue, pushedTypeOf } from "./types.js";

/**
 * The parties and current panel of each case, read together (the composition root hands in
 * `readParticipants`: one multicall); a case missing from the answer could not be read.
 */
export type ParticipantsOf = (cases: readonly Address[]) => Promise<ReadonlyMap<string, readonly string[]>>;

export interface MapOptions {
  participantsOf?: ParticipantsOf;
  /** The client and provider of each job an event names (`jobId`), by id: a job's events concern both. */
  jobPartiesOf?: (ids: readonly bigint[]) => Promise<ReadonlyMap<string, readonly string[]>>;
  /** The participants could not be read: the events go out with the addresses they name only. */
  onLookupError?: (err: unknown) => void;
}

/** The first 8 hex digits of a hash, for ids. */
const short = (hash: string | null) => (hash ?? "0x").slice(2, 10).padEnd(8, "0");

/** A decoded argument as JSON: amounts as decimal strings, addresses checksummed (viem decodes them so). */
function jsonValue(v: unknown): EventValue {
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  return v === null || v === undefined ? null : String(v);
}

/** Every address an event names in its arguments (a judge, a party, a drawn panel). */
function addressesIn(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const v of Object.values(args)) {
    for (const x of Array.isArray(v) ? v : [v]) {
      if (typeof x === "string" && /^0x[0-9a-fA-F]{40}$/.test(x)) out.push(getAddress(x));
    }
  }
  return out;
}

/**
 * The state a case event left its case in: the case reports each change to the factory, whose
 * CaseChanged follows the case's own event in the same transaction.
 */
function stateAfter(l: CourtLog, logs: readonly CourtLog[]): string | undefined {
  const next = logs.find(
    (c) =>
      c.eventName === "CaseChanged" &&
      c.transactionHash === l.transactionHash &&
      c.logIndex > l.logIndex &&
      String(c.args.caseAddr).toLowerCase() ===
        (l.eventName === "CaseFiled" ? String(l.args.caseAddr) : l.address).toLowerCase(),
  );
  return next ? STATE_NAMES[Number(next.args.state)] : undefined;
}

/** A case contract's own event (the follower keeps only those the factory vouches for). */
const isCaseLog = (l: CourtLog) => followedEventOf(l.eventName)?.contract === "case";

/** The type docket pushes for a court event; undefined when it only moves the cache. */
const typeOf = (l: CourtLog) => pushedTypeOf(l.eventName);

/** Which case an event is about: a case contract's own events, filing, a judge paid or slashed for one. */
function caseOf(l: CourtLog, caseEvent: boolean): Address | undefined {
  if (caseEvent) return getAddress(l.address);
  return typeof l.args.caseAddr === "string" ? getAddress(l.args.caseAddr) : undefined;
}

/** Who each of `keys` concerns, by `lookup`; none when there is nothing to look up or the lookup fails (reported). */
async function whoIn<K>(
  keys: readonly K[],
  lookup: ((keys: readonly K[]) => Promise<ReadonlyMap<string, readonly string[]>>) | undefined,
  onError: ((err: unknown) => void) | undefined,
): Promise<ReadonlyMap<string, readonly string[]>> {
  if (!lookup || keys.length === 0) return new Map();
  return lookup(keys).catch((err) => {
    onError?.(err);
    return new Map();
  });
}

/**
 * Turns the court logs of one poll into the events docket pushes, in chain order. A case contract's
 * event concerns its parties and current panel: they are read once per poll for all its distinct
 * cases together (`participantsOf`), so a party filtering by its own address sees the verdict on
 * its case. They are read after the event was mined (at the head), so a panel is the current one.
 */
export async function eventsFromLogs(logs: readonly CourtLog[], opts: MapOptions = {}): Promise<DocketEvent[]> {
  const pushed = logs.filter((l) => typeOf(l) !== undefined);
  const cases = [...new Set(pushed.filter(isCaseLog).map((l) => getAddress(l.address)))];
  const jobIds = [...new Set(pushed.flatMap((l) => (typeof l.args.jobId === "bigint" ? [l.args.jobId] : [])))];
  const [people, parties] = await Promise.all([
    whoIn(cases, opts.participantsOf, opts.onLookupError),
    whoIn(jobIds, opts.jobPartiesOf, opts.onLookupError),
  ]);
  return pushed.map((l) => {
    const caseAddr = caseOf(l, isCaseLog(l));
    const job = typeof l.args.jobId === "bigint" ? (parties.get(String(l.args.jobId)) ?? []) : [];
    return eventOfLog(l, logs, [...((caseAddr && people.get(caseAddr)) || []), ...job]);
  });
}

/** The event id of a mined log: `<block>-<logIndex>-<first 8 hex of its block hash>`. */
export const logEventId = (block: bigint | number, logIndex: number, blockHash: string | null) =>
  `${block}-${logIndex}-${short(blockHash)}`;

/**
 * One pushed court log as the event docket pushes: `logs` are the logs around it (its transaction's
 * CaseChanged names the state it left its case in), `concerned` who it concerns beyond the addresses
 * it names (its case's parties and panel, its job's client and provider). The live follower and the
 * index's stored events (src/index/queries/events.ts) both map through here.
 */
export function eventOfLog(l: CourtLog, logs: readonly CourtLog[], concerned: readonly string[]): DocketEvent {
  const caseEvent = isCaseLog(l);
  const caseAddr = caseOf(l, caseEvent);
  const data: Record<string, EventValue> = {};
  for (const [k, v] of Object.entries(l.args)) if (k !== "caseAddr") data[k] = jsonValue(v);
  if (l.eventName === "Verdict") data.outcome = OUTCOME_NAMES[Number(l.args.outcome)] ?? null;
  const state = caseAddr && (caseEvent || l.eventName === "CaseFiled") ? stateAfter(l, logs) : undefined;
  if (state) data.state = state;
  const addresses = new Set(addressesIn(l.args).filter((a) => a !== caseAddr));
  for (const a of concerned) addresses.add(getAddress(a));
  return {
    id: logEventId(l.blockNumber, l.logIndex, l.blockHash),
    type: typeOf(l) as EventType,
    block: Number(l.blockNumber),
    txHash: l.transactionHash,
    ...(caseAddr ? { case: caseAddr } : {}),
    addresses: [...addresses],
    data,
  };
}

/** A reorg or reset the follower found, as the event that tells clients to distrust what they saw after `block`. */
export function eventFromChange(c: ChainChange): DocketEvent {
  return {
    id: `${c.block}-${c.kind}-${short(c.hash)}`,
    type: c.kind === "reorg" ? "chain.reorg" : "chain.reset",
    block: c.block,
    txHash: null,
    addresses: [],
    // A reorg deeper than the follower remembers has no known fork point: `block` is the head then.
    data:
      c.kind === "reset"
        ? { head: c.block }
        : c.depth === null
          ? { fork: null, depth: null, head: c.block }
          : { fork: c.block, depth: c.depth },
  };
}
