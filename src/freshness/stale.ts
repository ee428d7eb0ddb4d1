/**
 * The freshness table: what goes stale, and when. Each kind of staleness names the cache keys it
 * reaches (`STALE`); each contract event docket follows names the kinds it makes stale, with the
 * event argument that says which case, agent, judge, party or job (`STALE_BY_EVENT`); a write names
 * the same kinds with its own arguments (`staleKeys({ case: addr })`). So a change made through
 * docket and the same change mined straight on chain invalidate through one table, and cannot drift.
 * The chain layer knows none of it: the follower is handed `keysForEvent` by the composition root.
 * `test/cache/keys.test.ts` and `test/events/contractEvents.test.ts` prove every followed event has a
 * row, every argument a row names is one the event carries, and every key a row reaches is a key a
 * read is cached under.
 */

import type { FollowedEventName } from "../chain/contractEvents.js";
import { everyKey, keyOf } from "./keys.js";

/** A case's two parties, whose records a concluding change moves. */
interface Parties {
  plaintiff: string;
  defendant: string;
}

/** The court tree, its list, every court's answer and the arbitration costs quoted from its terms. */
const courtTreeKeys = () => [keyOf.courtTree(), keyOf.courtList(), everyKey.court, everyKey.arbitrationCost];

/**
 * Each kind of staleness and the keys it reaches, from the argument that names what changed (a
 * kind without an argument takes `true`).
 */
const STALE = {
  /** A new case: every list and count a filing changes. */
  filing: () => [everyKey.cases, keyOf.stats(), everyKey.inbox, everyKey.keeper],
  /**
   * A change of one case: that case, its lists and the keeper's and inboxes' actions; a job shows
   * the case its dispute opened (state, outcome) without naming it in its key, so every job too.
   */
  case: (address: string) => [
    keyOf.case(address),
    keyOf.evidence(address),
    everyKey.job,
    everyKey.pending,
    keyOf.stats(),
    everyKey.inbox,
    everyKey.keeper,
  ],
  /**
   * A concluding change (verdict, settlement, dismissal, default, appeal), as a write sees it:
   * judge stakes and records and both parties' records move too. On chain the registry reports
   * each of those with its own event (JudgeRecordChanged, PartyRecordChanged, JudgeSlashed...).
   */
  concluded: (p: Parties) => [
    everyKey.judgePool,
    everyKey.judgeStats,
    everyKey.judgeStake,
    keyOf.agent(p.plaintiff),
    keyOf.agent(p.defendant),
    everyKey.discover,
    ...courtTreeKeys(),
  ],
  /** An agent's registration or update. */
  agent: (who: string) => [everyKey.discover, keyOf.agent(who), keyOf.stats()],
  /** One judge's stake or record. */
  judge: (who: string) => [
    keyOf.judgeStake(who),
    keyOf.judgeStats(who),
    keyOf.agent(who),
    everyKey.judgePool,
    everyKey.discover,
    keyOf.stats(),
    ...courtTreeKeys(),
  ],
  /** A party's record (cases won, lost, no-shows). */
  party: (who: string) => [keyOf.agent(who), everyKey.discover],
  /** The overview's totals. */
  stats: () => [keyOf.stats()],
  /** The court's parameters: fees, stakes, the fee token a 402 quotes. */
  params: () => [keyOf.params(), everyKey.arbitrationCost],
  /**
   * The court tree: every court's terms (what filing and its 402 quote), policy and pool, and the
   * judge pools and stakes.
   */
  court: () => [...courtTreeKeys(), everyKey.judgePool, everyKey.judgeStake],
  /**
   * One job (`true`: every job, when the change names none: a ruling delivered names its dispute),
   * the job lists, and the inboxes and keeper actions built from them.
   */
  job: (id: string | number | bigint | true) => [
    id === true ? everyKey.job : keyOf.job(String(id)),
    everyKey.jobs,
    everyKey.inbox,
    everyKey.keeper,
  ],
  /**
   * A panel seated, as a write sees it: the pools, and the stakes the draw locked (`true`: every
   * judge's, when the write cannot know whom the draw picks). On chain the case's CaseChanged and
   * the registry's judge events report it.
   */
  draw: (judges: readonly string[] | true) => [
    everyKey.judgePool,
    ...(judges === true ? [everyKey.judgeStake] : judges.map((j) => keyOf.judgeStake(j))),
  ],
} as const satisfies Record<string, (arg: never) => string[]>;

/** A kind of staleness. */
export type Stale = keyof typeof STALE;

/** What one change makes stale: each kind it touches, with that kind's argument. */
export type Staleness = {
  [K in Stale]?: Parameters<(typeof STALE)[K]> extends [] ? true : Parameters<(typeof STALE)[K]>[0];
};

/** The cache keys (and `prefix*` patterns) a change makes stale: what a write's `invalidate` holds. */
export function staleKeys(s: Staleness): string[] {
  const keys = (Object.keys(STALE) as Stale[]).flatMap((k) => {
    const arg = s[k];
    return arg === undefined ? [] : (STALE[k] as (a: unknown) => string[])(arg);
  });
  return [...new Set(keys)];
}

/**
 * A followed event's row: each kind it makes stale, with the name of the event argument that says
 * which one (`true` for a kind without an argument, and for `job` when the event names no job).
 * `concluded` and `draw` are a write's: on chain each of their changes comes with its own event.
 */
export type EventRow = Readonly<
  Partial<Record<"case" | "agent" | "judge" | "party", string>> & {
    filing?: true;
    stats?: true;
    params?: true;
    court?: true;
    job?: string | true;
  }
>;

/**
 * Every followed contract event and what it makes stale, in the order of the contract events
 * (src/chain/contractEvents.ts). A case contract's own events make no key stale themselves: each
 * change of a case is also reported by the factory's CaseChanged, which does; every judge or party
 * record change is reported by the registry.
 */
export const STALE_BY_EVENT = {
  CaseFiled: { filing: true },
  Responded: {},
  EvidenceSubmitted: {},
  DrawArmed: {},
  JudgesAssigned: {},
  VoteCommitted: {},
  VoteRevealed: {},
  VoteCast: {},
  Verdict: {},
  Appealed: {},
  Settled: {},
  Defaulted: {},
  Dismissed: {},
  FilingFeePaid: {},
  AgentRegistered: { agent: "agent" },
  AgentUpdated: { agent: "agent" },
  JudgeStaked: { judge: "judge" },
  JudgeUnstaked: { judge: "judge" },
  JudgeSlashed: { judge: "judge" },
  JudgeRewarded: { judge: "judge" },
  CaseChanged: { case: "caseAddr" },
  FilingChanged: { params: true, stats: true },
  TokenFeeChanged: { params: true, stats: true },
  JudgeRecordChanged: { judge: "judge" },
  PartyRecordChanged: { party: "party" },
  TreasuryWithdrawn: { stats: true },
  CourtCreated: { court: true, params: true, stats: true },
  CourtChanged: { court: true, params: true, stats: true },
  ArbitratorChanged: { params: true },
  DisputeFiled: { job: true },
  RulingDelivered: { job: true },
  RulingFailed: { job: true },
  JobCreated: { job: "jobId" },
  ProviderSet: { job: "jobId" },
  BudgetSet: { job: "jobId" },
  JobFunded: { job: "jobId" },
  JobSubmitted: { job: "jobId" },
  JobCompleted: { job: "jobId" },
  JobRejected: { job: "jobId" },
  JobExpired: { job: "jobId" },
  JobDisputed: { job: "jobId" },
  JobFinalized: { job: "jobId" },
  JobRuled: { job: "jobId" },
} as const satisfies Record<FollowedEventName, EventRow>;

/** The keys a mined contract event makes stale; the composition root hands this to the follower. */
export function keysForEvent(log: { eventName?: string; args?: unknown }): string[] {
  const name = log.eventName;
  if (name === undefined || !Object.hasOwn(STALE_BY_EVENT, name)) return [];
  const row: EventRow = STALE_BY_EVENT[name as FollowedEventName];
  const a = (log.args ?? {}) as Record<string, unknown>;
  const s = Object.fromEntries(Object.entries(row).map(([k, arg]) => [k, arg === true ? true : String(a[arg])]));
  return staleKeys(s as Staleness);
}
