/**
 * Every cache key docket uses, in one place: the key each read is cached under, and the sets of
 * keys a change makes stale, whether a write builds it or the event follower sees it mined. A key
 * is `kind:argument`; a pattern ending in `*` matches every key with that prefix (every page of a
 * list, every judge's stake).
 */

import { courtEventOf, type Stale } from "../chain/eventCatalogue.js";

/** The key of one cached read, per operation and arguments. */
export const keyOf = {
  case: (address: string) => `case:${address}`,
  evidence: (address: string) => `evidence:${address}`,
  cases: (offset: number, limit: number) => `cases:${offset}:${limit}`,
  pending: (offset: number, limit: number) => `pending:${offset}:${limit}`,
  validator: (address: string) => `validator:${address}`,
  agent: (address: string) => `agent:${address}`,
  discover: (offset: number, limit: number) => `discover:${offset}:${limit}`,
  judgeStake: (address: string) => `judgestake:${address}`,
  /** A page of one court's judge pool (get_judge_pool). */
  judgePool: (court: number, offset: number, limit: number) => `judgepool:${court}:${offset}:${limit}`,
  stats: () => "stats",
  /** An address's inbox page (get_inbox). */
  inbox: (address: string, offset: number, limit: number) => `inbox:${address}:${offset}:${limit}`,
  /** A page of court-wide keeper steps. */
  keeper: (offset: number, limit: number, court?: number) => `keeper:${offset}:${limit}:${court ?? "all"}`,
  /** Court parameters (minimums, fee, windows), read by several operations. */
  params: () => "params",
  /** The court tree as read from the chain (names, parameters, pools), shared by the court-aware reads. */
  courtTree: () => "courts",
  /** list_courts' answer. */
  courtList: () => "courtlist",
  /** get_court's answer. */
  court: (id: number) => `court:${id}`,
  /** get_job's answer. */
  job: (id: number | string) => `job:${id}`,
  /** A page of list_jobs, with its filters. */
  jobs: (offset: number, limit: number, filter: string) => `jobs:${offset}:${limit}:${filter}`,
  /** get_arbitration_cost's answer. */
  arbitrationCost: (court: number, jurors: number) => `arbcost:${court}:${jurors}`,
} as const;

/** Patterns matching every key of one kind: all pages of a list, all judges' entries. */
export const everyKey = {
  cases: "cases:*",
  pending: "pending:*",
  discover: "discover:*",
  validator: "validator:*",
  judgeStake: "judgestake:*",
  judgePool: "judgepool:*",
  /**
   * Every inbox: a case change concerns its parties and judges, whom a mined event does not name,
   * so every inbox goes (they are short-lived anyway: deadlines pass without events).
   */
  inbox: "inbox:*",
  keeper: "keeper:*",
  court: "court:*",
  job: "job:*",
  jobs: "jobs:*",
  arbitrationCost: "arbcost:*",
  /** The whole cache: a reset chain or a reorg deeper than the follower remembers. */
  all: "*",
} as const;

/** What a change to a court or to any stake in it makes stale: the tree, its lists, every court's answer. */
export function courtKeys(): string[] {
  return [keyOf.courtTree(), keyOf.courtList(), everyKey.court, everyKey.arbitrationCost];
}

/**
 * What a change to a job makes stale: that job (every job when the change names none: a ruling
 * delivered names its dispute), the job lists, and the inboxes and keeper steps built from them.
 */
export function jobKeys(id?: number | bigint | string): string[] {
  return [id === undefined ? everyKey.job : keyOf.job(String(id)), everyKey.jobs, everyKey.inbox, everyKey.keeper];
}

/** What a new case makes stale: the case list and the totals. */
export function filingKeys(): string[] {
  return [everyKey.cases, keyOf.stats(), everyKey.inbox, everyKey.keeper];
}

/**
 * What a change to one case makes stale. A concluding change (verdict, settlement, dismissal,
 * default, appeal) also moves judge stakes and records and both parties' records.
 */
export function caseKeys(addr: string, concluding?: { plaintiff: string; defendant: string }): string[] {
  const keys = [
    keyOf.case(addr),
    keyOf.evidence(addr),
    // A job shows the case its dispute opened (state, outcome), without naming it in its key.
    everyKey.job,
    everyKey.pending,
    keyOf.stats(),
    everyKey.inbox,
    everyKey.keeper,
  ];
  if (concluding) {
    keys.push(
      everyKey.judgePool,
      everyKey.validator,
      everyKey.judgeStake,
      keyOf.agent(concluding.plaintiff),
      keyOf.agent(concluding.defendant),
      everyKey.discover,
      ...courtKeys(),
    );
  }
  return keys;
}

/** What a change to one judge's stake or record makes stale. */
export function judgeKeys(who: string): string[] {
  return [
    keyOf.judgeStake(who),
    keyOf.validator(who),
    keyOf.agent(who),
    everyKey.judgePool,
    everyKey.discover,
    keyOf.stats(),
    ...courtKeys(),
  ];
}

/** What an agent's registration or update makes stale. */
export function agentKeys(who: string): string[] {
  return [everyKey.discover, keyOf.agent(who), keyOf.stats()];
}

/** What a party's record (cases won, lost, no-shows) makes stale. */
export function partyKeys(who: string): string[] {
  return [keyOf.agent(who), everyKey.discover];
}

/**
 * The keys a mined court event makes stale; the event follower is handed this. Which answers an
 * event touches is the catalogue's (src/chain/eventCatalogue.ts): every case change is reported by
 * the factory's CaseChanged, and every judge or party record change by the registry.
 */
export function keysForEvent(log: { eventName?: string; args?: unknown }): string[] {
  const e = courtEventOf(log.eventName);
  if (!e) return [];
  const a = (log.args ?? {}) as Record<string, unknown>;
  const keys = e.stale.flatMap((s: Stale) => STALE[s](a));
  return e.stale.length > 1 ? [...new Set(keys)] : keys;
}

/** The keys each kind of staleness names, from the event's arguments. */
const STALE: Record<Stale, (a: Record<string, unknown>) => string[]> = {
  filing: () => filingKeys(),
  case: (a) => caseKeys(String(a.caseAddr)),
  agent: (a) => agentKeys(String(a.agent)),
  judge: (a) => judgeKeys(String(a.judge)),
  party: (a) => partyKeys(String(a.party)),
  stats: () => [keyOf.stats()],
  params: () => [keyOf.params(), everyKey.arbitrationCost],
  job: (a) => jobKeys(a.jobId === undefined ? undefined : String(a.jobId)),
  // A court's terms are what filing and its 402 quote; its pool is what the judge pools show.
  court: () => [...courtKeys(), everyKey.judgePool, everyKey.judgeStake],
};
