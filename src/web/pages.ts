import type { z } from "zod";
import type { DocketEvent } from "../events/types.js";
import type { AgentBody } from "../operations/agents/agent.js";
import { type CaseBody, caseSchema } from "../operations/cases/case.js";
import type { judgeSchema } from "../operations/judges/judge.js";
import { type EvidenceItem, evidenceItems } from "./evidence.js";
import type { Reads, SameData } from "./reads.js";
import type { RecentEvents } from "./recent.js";

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
  c: CaseBody;
  plaintiff: AgentBody | null;
  defendant: AgentBody | null;
}

export interface OverviewPage {
  stats: Stats;
  keeper: { chainTime: number; total: number; actions: KeeperAction[] };
  events: DocketEvent[];
  latest: CaseRow[];
  same: SameData;
}

export async function overviewPage(reads: Reads, recent: RecentEvents): Promise<OverviewPage> {
  const [stats, keeper, latest] = await Promise.all([
    reads.get<Stats>("get_stats_overview"),
    reads.get<OverviewPage["keeper"]>("list_keeper_actions", { limit: 100 }),
    casesPage(reads, { limit: 5, offset: 0 }),
  ]);
  return {
    stats,
    keeper: { ...keeper, actions: keeper.actions.slice(0, 20) },
    events: recent.latest(15),
    latest: latest.rows,
    same: { json: "/stats/overview", mcp: "get_stats_overview" },
  };
}

export interface CasesQuery {
  state?: string;
  party?: string;
  court?: string;
  limit: number;
  offset: number;
}

export interface CasesPage {
  query: CasesQuery;
  rows: CaseRow[];
  total: number;
  /** With a filter: how many cases (newest first) were read to find the matches. */
  scanned: number | null;
  more: boolean;
  same: SameData;
}

/** Cases read at most, newest first, to answer one filtered page. */
const SCAN_MAX = 500;
const SCAN_CHUNK = 50;

/** One page of cases, newest first; with a filter, the newest SCAN_MAX cases are searched. */
export async function casesPage(reads: Reads, q: CasesQuery): Promise<CasesPage> {
  const { total } = await reads.get<{ total: number }>("list_cases", { limit: 1, offset: 0 });
  const filtered = q.state !== undefined || q.party !== undefined || q.court !== undefined;
  const same = { json: `/cases?limit=${q.limit}&offset=${q.offset}`, mcp: "list_cases" };
  if (!filtered) {
    const end = Math.max(0, total - q.offset);
    const start = Math.max(0, end - q.limit);
    const cases = await newestFirst(reads, start, end);
    return { query: q, rows: await rows(reads, cases), total, scanned: null, more: start > 0, same };
  }
  const found: CaseBody[] = [];
  let scanned = 0;
  let end = total;
  while (end > 0 && scanned < SCAN_MAX && found.length < q.offset + q.limit + 1) {
    const start = Math.max(0, end - SCAN_CHUNK);
    const cases = await newestFirst(reads, start, end);
    scanned += cases.length;
    found.push(...cases.filter((c) => matches(c, q)));
    end = start;
  }
  const page = found.slice(q.offset, q.offset + q.limit);
  return { query: q, rows: await rows(reads, page), total, scanned, more: found.length > q.offset + q.limit, same };
}

async function newestFirst(reads: Reads, start: number, end: number): Promise<CaseBody[]> {
  if (end <= start) return [];
  const page = await reads.get<{ cases: string[] }>("list_cases", { offset: start, limit: end - start });
  const cases = await Promise.all(page.cases.map((a) => reads.case(a).then((r) => r.case)));
  return cases.reverse();
}

function matches(c: CaseBody & { court?: { id: number | string } }, q: CasesQuery): boolean {
  if (q.state !== undefined && c.state !== q.state) return false;
  if (q.court !== undefined && String(c.court?.id ?? "") !== q.court) return false;
  if (q.party !== undefined) {
    const p = q.party.toLowerCase();
    const involved = [c.plaintiff, c.defendant, ...c.judges].some((a) => a.toLowerCase() === p);
    if (!involved) return false;
  }
  return true;
}

async function rows(reads: Reads, cases: CaseBody[]): Promise<CaseRow[]> {
  const names = await reads.names(cases.flatMap((c) => [c.plaintiff, c.defendant]));
  return cases.map((c) => ({
    c,
    plaintiff: names.get(c.plaintiff.toLowerCase()) ?? null,
    defendant: names.get(c.defendant.toLowerCase()) ?? null,
  }));
}

export interface TimelineEntry {
  /** Chain time (unix seconds), when the step has one; events carry their block instead. */
  at: number | null;
  block: number | null;
  what: string;
  /** Still ahead in chain time. */
  ahead: boolean;
}

export interface CasePage {
  c: CaseBody & { court?: { id: number | string; name: string } };
  names: Map<string, AgentBody | null>;
  chainTime: number;
  next: { at: number; what: string } | null;
  waitingFor: string | null;
  timeline: TimelineEntry[];
  evidence: EvidenceItem[];
  settlement: { pot: bigint; fee: bigint; payout: bigint; rewardPool: bigint; courtFeeBps: number };
  same: SameData;
}

export async function casePage(reads: Reads, recent: RecentEvents, address: string): Promise<CasePage> {
  const { case: c } = await reads.case(address);
  const [names, evidence, inbox, stats] = await Promise.all([
    reads.names([c.plaintiff, c.defendant, ...c.judges]),
    reads.get<{ evidence: Record<string, unknown>[] }>("get_case_evidence", { address: c.address }),
    reads.get<{ chainTime: number; cases: InboxCase[] }>("get_inbox", { address: c.plaintiff }),
    reads.get<Stats>("get_stats_overview"),
  ]);
  const mine = inbox.cases.find((x) => x.case.toLowerCase() === c.address.toLowerCase());
  // Once every judge has committed, the reveal phase runs to its own deadline: that is the one to watch.
  const revealing = c.votingPhase === "reveal" && c.revealDeadline !== null && c.revealDeadline > inbox.chainTime;
  const nextAt = revealing ? c.revealDeadline : (mine?.nextChangeAt ?? null);
  const next = nextAt === null ? null : { at: nextAt, what: deadlineName(c, nextAt, mine) };
  const pot = BigInt(c.plaintiffStake) + BigInt(c.defendantStake);
  const fee = (pot * BigInt(stats.fees.courtFeeBps)) / 10_000n;
  return {
    c,
    names,
    chainTime: inbox.chainTime,
    next,
    waitingFor: mine?.waitingFor ?? null,
    timeline: timeline(c, recent.ofCase(c.address), inbox.chainTime, next),
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

/** What the deadline at `at` is: a phase of the panel's vote, a step someone must take by then, or just the next one. */
function deadlineName(c: CaseBody, at: number, mine: InboxCase | undefined): string {
  if (at === c.commitDeadline) return "commit deadline";
  if (at === c.revealDeadline) return "reveal deadline";
  if (c.appealWindowOpen) return "appeal window closes";
  const step = mine?.actions.find((a) => a.deadline === at);
  return step ? step.description : "next deadline";
}

const EVENT_WORDS: Record<string, string> = {
  "case.filed": "Filed",
  "case.responded": "The defendant responded",
  "evidence.submitted": "Evidence added",
  "draw.armed": "Panel draw armed",
  "judges.assigned": "Judges assigned",
  "vote.committed": "A judge committed a hidden vote",
  "vote.revealed": "A judge revealed a vote",
  "vote.cast": "A judge voted",
  "case.verdict": "Verdict",
  "case.appealed": "Appealed",
  "case.settled": "Settled",
  "case.defaulted": "Defaulted",
  "case.dismissed": "Dismissed",
};

function timeline(c: CaseBody, events: DocketEvent[], now: number, next: CasePage["next"]): TimelineEntry[] {
  const out: TimelineEntry[] = [{ at: c.filedAt, block: null, what: "Filed", ahead: false }];
  for (const e of events) {
    if (e.type === "case.filed") continue;
    out.push({ at: null, block: e.block, what: EVENT_WORDS[e.type] ?? e.type, ahead: false });
  }
  if (c.commitDeadline !== null) {
    out.push({ at: c.commitDeadline, block: null, what: "Commit deadline", ahead: c.commitDeadline > now });
  }
  if (c.revealDeadline !== null) {
    out.push({ at: c.revealDeadline, block: null, what: "Reveal deadline", ahead: c.revealDeadline > now });
  }
  if (c.resolvedAt !== null) {
    // A default is no verdict: nobody judged the claim (issue #31).
    const what =
      c.state === "Defaulted" ? "Won by default: the defendant never answered" : `Verdict: ${c.outcome ?? "none"}`;
    out.push({ at: c.resolvedAt, block: null, what, ahead: false });
  }
  if (next && !out.some((t) => t.at === next.at)) out.push({ at: next.at, block: null, what: next.what, ahead: true });
  // Timed steps in chain-time order; the events this replica saw stay in block order between them.
  return out;
}

export interface AgentPage {
  address: string;
  agent: AgentBody | null;
  judge: z.infer<typeof judgeSchema> & { minimumStake: string; canUnstake: boolean };
  cases: CasesPage;
  same: SameData;
}

export async function agentPage(reads: Reads, address: string): Promise<AgentPage> {
  const [agent, judge, cases] = await Promise.all([
    reads.agent(address),
    reads.get<AgentPage["judge"]>("get_judge_stake", { address }),
    casesPage(reads, { party: address, limit: 20, offset: 0 }),
  ]);
  return { address, agent, judge, cases, same: { json: `/agent/${address}`, mcp: "get_agent" } };
}
