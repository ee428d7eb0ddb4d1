import { DocketError } from "../errors/errors.js";
import type { DocketEvent } from "../events/types.js";
import type { AgentBody } from "../operations/agents/agent.js";
import { type CaseBody, caseSchema } from "../operations/cases/case.js";
import { type EventLine, eventLine } from "./eventWords.js";
import { type EvidenceItem, evidenceItems } from "./evidence.js";
import { fmt } from "./format.js";
import { EXPLORER, type Reads, type SameData, type Token, withoutIndex } from "./reads.js";
import type { RecentEvents } from "./recent.js";
import {
  type Ahead,
  chainOnlyTimeline,
  type IndexedEntry,
  indexedTimeline,
  namedIn,
  panels,
  type TimelineRound,
} from "./timeline.js";

/**
 * What each explorer page shows, gathered from the operations (src/web/reads.ts). The templates
 * (src/web/views/) only lay these out; every value a party wrote reaches them as a plain string
 * and leaves them escaped.
 */

/** Every state a case can be in, in the contract's order. */
export const CASE_STATES: readonly string[] = caseSchema.shape.state.options;

interface Stats {
  totalCases: number;
  casesByState: Record<string, number>;
  openCases: number;
  agents: number;
  judges: { total: number; eligible: number; totalStaked: string };
  treasury: string;
  fees: { filingFee: string; courtFeeBps: number; judgeRewardBps: number; slashBps: number };
  minimums: { partyStake: string; judgeStake: string; appealBond: string };
  blockNumber: number;
}

interface KeeperAction {
  case: string;
  operation: string;
  http: string;
  description: string;
  deadline: number | null;
}

interface InboxCase {
  case: string;
  nextChangeAt: number | null;
  waitingFor: string | null;
  actions: { operation: string; as: string; description: string; deadline: number | null }[];
}

/** A case as a list row: its parties by name. */
export interface CaseRow {
  c: CaseBody & { court?: { id: number | string; name: string } };
  plaintiff: AgentBody | null;
  defendant: AgentBody | null;
  /** Both stakes (wei). */
  pot: bigint;
  /** The next deadline (chain time), "due" when anyone may act now, null when none is known. */
  next: number | "due" | null;
  chainTime: number;
}

export interface OverviewPage {
  stats: Stats;
  /** The filing fee as it is really paid: in the fee token through x402 when the court takes one. */
  tokenFee: { amount: bigint; token: Token } | null;
  /** Each latest event in words, with the names of those who acted. */
  lines: Map<string, EventLine>;
  names: Map<string, AgentBody | null>;
  /** Null without the index (the keeper's view comes from it). */
  keeper: { chainTime: number; total: number; actions: KeeperAction[] } | null;
  events: DocketEvent[];
  /** Whether the events come from the index (else only those this process saw since it started). */
  eventsIndexed: boolean;
  latest: CaseRow[];
  same: SameData;
}

const LATEST_EVENTS = 15;

export async function overviewPage(
  reads: Reads,
  recent: RecentEvents,
  storedEvents: ((n: number) => Promise<DocketEvent[]>) | undefined,
): Promise<OverviewPage> {
  const [stats, keeper, latest, stored, tokenFee] = await Promise.all([
    reads.get<Stats>("get_stats_overview"),
    withoutIndex(reads.get<NonNullable<OverviewPage["keeper"]>>("list_keeper_actions", { limit: 100 })),
    casesPage(reads, { limit: 5, offset: 0 }),
    storedEvents ? withoutIndex(storedEvents(LATEST_EVENTS)) : null,
    reads.tokenFilingFee(),
  ]);
  const events = newestEvents([...(stored ?? []), ...recent.latest(LATEST_EVENTS)], LATEST_EVENTS);
  const lines = new Map(events.map((e) => [e.id, eventLine(e)]));
  const names = await reads.names([...lines.values()].flatMap((l) => (l.who ? [l.who] : [])));
  return {
    stats,
    tokenFee,
    lines,
    names,
    keeper: keeper && { ...keeper, actions: keeper.actions.slice(0, 20) },
    events,
    eventsIndexed: stored !== null,
    latest: latest.rows,
    same: { json: "/stats/overview", mcp: "get_stats_overview" },
  };
}

/** The newest `n` of these events, newest first, each once (the index's and the live ones overlap). */
function newestEvents(events: DocketEvent[], n: number): DocketEvent[] {
  const order = (e: DocketEvent) => [e.block, Number(e.id.split("-")[1]) || 0] as const;
  const unique = [...new Map(events.map((e) => [e.id, e])).values()];
  unique.sort((x, y) => {
    const [a, b] = [order(x), order(y)];
    return b[0] - a[0] || b[1] - a[1];
  });
  return unique.slice(0, n);
}

export interface CasesQuery {
  state?: string;
  party?: string;
  judge?: string;
  court?: string;
  /** Words of the claim. */
  q?: string;
  /** A filtered list's next page: the nextCursor of the page before. */
  cursor?: string;
  limit: number;
  offset: number;
}

export interface CasesPage {
  query: CasesQuery;
  rows: CaseRow[];
  total: number;
  /** With a filter: answered by docket's index, newest filing first, paged by cursor. */
  filtered: boolean;
  /** The newer and the older page's links (null where there is none). */
  pager: { newer: string | null; older: string | null };
  same: SameData;
}

/** The filters a cases query carries, as URL parameters (the same names as list_cases' inputs). */
function filtersOf(q: CasesQuery): Record<string, string> {
  const f: Record<string, string> = {};
  for (const k of ["state", "party", "judge", "court", "q"] as const) {
    const v = q[k];
    if (v !== undefined) f[k] = v;
  }
  return f;
}

/**
 * One page of cases, newest first. Without a filter, the chain's list (offset pages); with any,
 * list_cases answers from the index (every case matching, however old) and pages by cursor.
 */
export async function casesPage(reads: Reads, q: CasesQuery): Promise<CasesPage> {
  const filters = filtersOf(q);
  const href = (base: string, p: Record<string, string>) =>
    `${base}?${new URLSearchParams({ ...filters, ...p, limit: String(q.limit) })}`;
  const page = (p: Record<string, string>) => href(`${EXPLORER}/cases`, p);
  if (Object.keys(filters).length === 0 && q.cursor === undefined) {
    const { total } = await reads.get<{ total: number }>("list_cases", { limit: 1, offset: 0 });
    const end = Math.max(0, total - q.offset);
    const start = Math.max(0, end - q.limit);
    const cases = await newestFirst(reads, start, end);
    return {
      query: q,
      rows: await rows(reads, cases),
      total,
      filtered: false,
      pager: {
        // Past the end there is no newer page to offer: the page says where the list ends instead.
        newer: q.offset > 0 && q.offset < total ? page({ offset: String(Math.max(0, q.offset - q.limit)) }) : null,
        older: start > 0 ? page({ offset: String(q.offset + q.limit) }) : null,
      },
      same: { json: `/cases?limit=${q.limit}&offset=${q.offset}`, mcp: "list_cases" },
    };
  }
  const { court, ...rest } = filters;
  const found = await reads.get<{ total: number; cases: string[]; nextCursor: string | null }>("list_cases", {
    ...rest,
    ...(court !== undefined ? { court: Number(court) } : {}),
    ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
    limit: q.limit,
  });
  // Each row as the chain has it now (the index lists; the chain is the truth of a case's state).
  const cases = await Promise.all(found.cases.map((a) => reads.case(a).then((r) => r.case)));
  const at: Record<string, string> = q.cursor !== undefined ? { cursor: q.cursor } : {};
  return {
    query: q,
    rows: await rows(reads, cases),
    total: found.total,
    filtered: true,
    pager: {
      newer: q.cursor !== undefined ? page({}) : null,
      older: found.nextCursor ? page({ cursor: found.nextCursor }) : null,
    },
    same: { json: href("/cases", at), mcp: "list_cases" },
  };
}

async function newestFirst(reads: Reads, start: number, end: number): Promise<CaseBody[]> {
  if (end <= start) return [];
  const page = await reads.get<{ cases: string[] }>("list_cases", { offset: start, limit: end - start });
  const cases = await Promise.all(page.cases.map((a) => reads.case(a).then((r) => r.case)));
  return cases.reverse();
}

async function rows(reads: Reads, cases: CaseBody[]): Promise<CaseRow[]> {
  const open = cases.filter((c) => !FINAL.has(c.state) || c.appealWindowOpen);
  const plaintiffs = [...new Set(open.map((c) => c.plaintiff))];
  const [names, inboxes, now] = await Promise.all([
    reads.names(cases.flatMap((c) => [c.plaintiff, c.defendant])),
    // Each open case's next deadline, from its plaintiff's inbox (the index's; none without it).
    Promise.all(
      plaintiffs.map((p) =>
        withoutIndex(reads.get<{ cases: InboxCase[] }>("get_inbox", { address: p, limit: 100 })).catch(() => null),
      ),
    ),
    reads.chainTime(),
  ]);
  const due = new Map<string, InboxCase>();
  for (const inbox of inboxes) for (const x of inbox?.cases ?? []) due.set(x.case.toLowerCase(), x);
  return cases.map((c) => {
    const mine = due.get(c.address.toLowerCase());
    const overdue = mine?.actions.some((a) => a.as === "anyone") ?? false;
    return {
      c,
      plaintiff: names.get(c.plaintiff.toLowerCase()) ?? null,
      defendant: names.get(c.defendant.toLowerCase()) ?? null,
      pot: BigInt(c.plaintiffStake) + BigInt(c.defendantStake),
      next: overdue ? "due" : (mine?.nextChangeAt ?? null),
      chainTime: now,
    };
  });
}

/** Who must act next on a case and by when, in chain time; `overdue` once the deadline passed and anyone may act. */
export interface NextStep {
  text: string;
  /** The deadline (chain time), when there is one ahead. */
  at: number | null;
  overdue: boolean;
}

export interface CasePage {
  c: CaseBody & { court?: { id: number | string; name: string } };
  names: Map<string, AgentBody | null>;
  /** "plaintiff v defendant", by their registered names (a short address for an unregistered one). */
  title: string;
  /** Chain time now: the latest block's timestamp, as the server read it. */
  chainTime: number;
  next: NextStep | null;
  /** The panel's count: votes cast (or committed, with hidden votes), seats, and how many decide. */
  tally: { cast: number; counted: string; seats: number; decide: number } | null;
  /** Each round's verdict before this one, and the appeal that followed it (from the index). */
  earlier: { round: number; outcome: string | null; votes: number; appellant: string | null; bond: string | null }[];
  /** Whether the case is over: a judge who never voted did not vote (rather than "not yet"). */
  final: boolean;
  /** Every round from the index (or, without it, what the chain tells), then the deadlines ahead. */
  timeline: TimelineRound[];
  /** Why the timeline is the chain's view only: no index, or the index has not reached the case yet. */
  timelineMissing: string | null;
  /** Each round's panel, from the index. */
  panels: Map<number, string[]>;
  evidence: EvidenceItem[];
  settlement: { pot: bigint; fee: bigint; payout: bigint; rewardPool: bigint; courtFeeBps: number };
  same: SameData;
}

/** States after which nothing more happens on a case (a Resolved one may still be appealed: see appealWindowOpen). */
const FINAL = new Set(["Resolved", "Dismissed", "Defaulted"]);

export async function casePage(reads: Reads, address: string): Promise<CasePage> {
  const { case: c } = await reads.case(address);
  const [evidence, inbox, stats, indexed, now] = await Promise.all([
    reads.get<{ evidence: Record<string, unknown>[] }>("get_case_evidence", { address: c.address }),
    withoutIndex(reads.get<{ chainTime: number; cases: InboxCase[] }>("get_inbox", { address: c.plaintiff })),
    reads.get<Stats>("get_stats_overview"),
    withoutIndex(caseTimelineOf(reads, c.address)),
    reads.chainTime(),
  ]);
  const entries = indexed === null || indexed === "lag" ? [] : indexed.entries;
  const names = await reads.names([c.plaintiff, c.defendant, ...c.judges, ...namedIn(entries)]);
  const mine = inbox?.cases.find((x) => x.case.toLowerCase() === c.address.toLowerCase());
  const nameOf = (a: string) => names.get(a.toLowerCase())?.name || fmt.short(a);
  const next = nextStep(c, now, mine, nameOf);
  const ahead = aheadOf(c, now, next);
  const pot = BigInt(c.plaintiffStake) + BigInt(c.defendantStake);
  const fee = (pot * BigInt(stats.fees.courtFeeBps)) / 10_000n;
  const seats = c.judges.length;
  return {
    c,
    names,
    title: `${nameOf(c.plaintiff)} v ${nameOf(c.defendant)}`,
    chainTime: now,
    next,
    tally:
      seats === 0
        ? null
        : {
            cast: c.votingPhase === "commit" ? c.votesCommitted : c.votesForPlaintiff + c.votesForDefendant,
            counted: c.votingPhase === "commit" ? "committed" : c.hiddenVotes ? "revealed" : "cast",
            seats,
            decide: Math.floor(seats / 2) + 1,
          },
    final: FINAL.has(c.state) && !c.appealWindowOpen,
    earlier: c.appealUsed ? earlierRounds(entries) : [],
    timeline:
      indexed === null || indexed === "lag" ? chainOnlyTimeline(c, now, ahead) : indexedTimeline(entries, ahead),
    timelineMissing:
      indexed === null
        ? "Its full history (every round, vote and payment) needs docket's index, which is not available here: this is what the chain alone tells."
        : indexed === "lag"
          ? "docket's index has not reached this case yet: this is what the chain alone tells."
          : null,
    panels: panels(entries),
    evidence: evidenceItems(c, evidence.evidence),
    settlement: {
      pot,
      fee,
      payout: pot - fee,
      rewardPool: (fee * BigInt(stats.fees.judgeRewardBps)) / 10_000n,
      courtFeeBps: stats.fees.courtFeeBps,
    },
    same: { json: `/cases/${c.address}`, mcp: `get_case (resource docket://cases/${c.address})` },
  };
}

/** The verdicts an appeal reopened, each with its appeal: an appealed case's first round, up top. */
function earlierRounds(entries: readonly IndexedEntry[]): CasePage["earlier"] {
  const out: CasePage["earlier"] = [];
  for (const e of entries) {
    if (e.kind === "verdict" && e.round !== null) {
      const votes = entries.filter((v) => (v.kind === "vote" || v.kind === "vote_revealed") && v.round === e.round);
      out.push({ round: e.round, outcome: e.outcome, votes: votes.length, appellant: null, bond: null });
    }
    const last = out[out.length - 1];
    if (e.kind === "appeal" && last) {
      last.appellant = typeof e.args.appellant === "string" ? e.args.appellant : null;
      last.bond = typeof e.args.bond === "string" ? e.args.bond : null;
    }
  }
  return out.filter((r) => r.appellant !== null);
}

/** What anyone (a keeper) may do on a case once its deadline passed, in words. */
const OVERDUE: Record<string, string> = {
  trigger_default: "the defendant did not answer in time: anyone can trigger the default now (the plaintiff wins)",
  resolve_after_deadline: "no verdict by the deadline: anyone can resolve the case now",
  settle_case: "the appeal window closed: anyone can settle the case now (pay out the verdict)",
};

/**
 * Who must act next on the case and by when, in chain time: from the case and the keeper's view
 * of it (get_inbox's actions, which need the index). Past a deadline, what anyone may now do.
 */
export function nextStep(
  c: CaseBody,
  now: number,
  mine: InboxCase | undefined,
  nameOf: (a: string) => string,
): NextStep | null {
  const keeper = mine?.actions.find((a) => a.as === "anyone");
  const overdue = keeper && OVERDUE[keeper.operation];
  if (overdue) return { text: `Overdue: ${overdue}.`, at: null, overdue: true };
  if (keeper?.operation === "assign_judges_random")
    return { text: "Due now: the draw's randomness is in, anyone can seat the panel.", at: null, overdue: false };
  const at = mine?.nextChangeAt ?? null;
  const by = (text: string, deadline: number | null) =>
    deadline !== null && deadline > now ? { text, at: deadline, overdue: false } : { text, at: null, overdue: false };
  // The inbox may be older than the chain's clock (cached until its next change, and a dev chain's
  // clock jumps): a deadline it names that chain time has passed is overdue now.
  const passed = (d: number | null) => d !== null && d <= now;
  const late = (operation: string): NextStep => ({ text: `Overdue: ${OVERDUE[operation]}.`, at: null, overdue: true });
  switch (c.state) {
    case "Summoned":
      if (passed(at)) return late("trigger_default");
      return by(`The defendant, ${nameOf(c.defendant)}, must answer with its stake`, at);
    case "Active":
    case "Appealed":
      if (passed(at)) return late("resolve_after_deadline");
      return by(`A panel must be drawn (${mine?.waitingFor ?? "the panel draw"}) before the deadline`, at);
    case "Deliberating": {
      if (c.hiddenVotes ? passed(c.revealDeadline) : passed(at)) return late("resolve_after_deadline");
      const pending = c.votes.filter((v) => v.vote === null).length;
      const judges = `${pending} ${plural(pending, "judge")} of ${c.judges.length}`;
      if (c.votingPhase === "commit") return by(`${judges} must still commit a hidden vote`, c.commitDeadline);
      if (c.votingPhase === "reveal") {
        const hidden = c.votes.filter((v) => v.vote === "committed").length;
        return by(`${hidden} ${plural(hidden, "judge")} must still reveal a vote`, c.revealDeadline);
      }
      return by(`${judges} must still vote`, at);
    }
    case "Resolved":
      if (!c.appealWindowOpen) return null;
      if (passed(at)) return late("settle_case");
      return by(`The losing side, ${nameOf(c.outcome === "PlaintiffWon" ? c.defendant : c.plaintiff)}, may appeal`, at);
    default:
      return null;
  }
}

/** "1 judge", "2 judges". */
export function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

/** get_case_timeline's answer, or "lag" for a case the index does not hold yet (the chain has it). */
async function caseTimelineOf(reads: Reads, address: string): Promise<{ entries: IndexedEntry[] } | "lag"> {
  try {
    return await reads.get<{ entries: IndexedEntry[] }>("get_case_timeline", { address });
  } catch (err) {
    if (err instanceof DocketError && err.code === "CASE_NOT_FOUND") return "lag";
    throw err;
  }
}

/** The current round's deadlines still ahead in chain time, and the next step's. */
function aheadOf(c: CaseBody, now: number, next: NextStep | null): Ahead[] {
  const out: Ahead[] = [];
  if (c.commitDeadline !== null && c.commitDeadline > now) out.push({ at: c.commitDeadline, what: "Commit deadline" });
  if (c.revealDeadline !== null && c.revealDeadline > now) out.push({ at: c.revealDeadline, what: "Reveal deadline" });
  if (next?.at && !out.some((d) => d.at === next.at)) out.push({ at: next.at, what: "Deadline" });
  return out.sort((a, b) => a.at - b.at);
}
