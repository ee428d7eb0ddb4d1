import { formatEther } from "viem";
import type { CaseBody } from "../operations/cases/case.js";

/**
 * A case's timeline as the case page shows it: the entries of get_case_timeline (the index: every
 * round with its panel, each vote, commits and reveals, evidence, appeals and bonds, verdicts,
 * payouts and slashes, rulings delivered) in words, grouped by round, then the chain's deadlines
 * still ahead. Without the index, only what the chain's view of the case tells (chainOnly).
 */

/** One step of a case's life. */
export interface TimelineEntry {
  /** Chain time (unix seconds), when known; otherwise the block shows. */
  at: number | null;
  block: number | null;
  /** get_case_timeline's kind (filed, panel, vote...), or `deadline` for one ahead. */
  kind: string;
  /** In docket's own words. */
  what: string;
  /** The address the step is by or about (a judge, a party), linked to its page. */
  who: string | null;
  /** Text a party or a judge wrote (a vote's justification): shown as written. */
  text: string | null;
  /** A vote's side. */
  side: "plaintiff" | "defendant" | null;
  /** Still ahead in chain time. */
  ahead: boolean;
}

/** The steps of one round (0: before any panel was drawn). */
export interface TimelineRound {
  round: number;
  entries: TimelineEntry[];
}

/** An entry of get_case_timeline, as its answer has it. */
export interface IndexedEntry {
  kind: string;
  event: string;
  block: number;
  time: number | null;
  round: number | null;
  side: "plaintiff" | "defendant" | null;
  outcome: string | null;
  state: string | null;
  args: Record<string, unknown>;
}

const eth = (wei: unknown) => `${formatEther(BigInt(String(wei ?? 0)))} ETH`;
const str = (v: unknown) => (typeof v === "string" ? v : null);
/** A verdict in plain words. */
const OUTCOME: Record<string, string> = {
  PlaintiffWon: "the plaintiff won",
  DefendantWon: "the defendant won",
  Dismissed: "dismissed",
};
export const outcomeWords = (o: string | null) => (o === null ? "none" : (OUTCOME[o] ?? o));

/** What an indexed entry says, and who it names. */
function words(e: IndexedEntry): { what: string; who: string | null; text: string | null } {
  const a = e.args;
  const judge = str(a.judge);
  switch (e.kind) {
    case "filed":
      return { what: `Filed, the plaintiff staking ${eth(a.stake)}`, who: str(a.plaintiff), text: null };
    case "state":
      return { what: `Now ${e.state ?? "in a new state"}`, who: null, text: null };
    case "answered":
      return { what: `The defendant answered, staking ${eth(a.stake)}`, who: str(a.defendant), text: null };
    case "evidence":
      return { what: "Evidence added", who: str(a.submitter), text: null };
    case "draw_armed":
      return { what: `Round ${e.round ?? "?"}: the panel's draw armed`, who: null, text: null };
    case "panel": {
      const judges = Array.isArray(a.judges) ? a.judges.length : 0;
      return { what: `Round ${e.round ?? "?"}: a panel of ${judges} drawn`, who: null, text: null };
    }
    case "vote":
      return { what: `Voted for the ${e.side}`, who: judge, text: null };
    case "vote_committed":
      return { what: "Committed a hidden vote", who: judge, text: null };
    case "vote_revealed":
      return { what: `Revealed a vote for the ${e.side}`, who: judge, text: str(a.justification) || null };
    case "verdict":
      return { what: `Verdict of round ${e.round ?? "?"}: ${outcomeWords(e.outcome)}`, who: null, text: null };
    case "appeal":
      return { what: `Appealed, with a bond of ${eth(a.bond)}`, who: str(a.appellant), text: null };
    case "settled":
      return {
        what: `Settled: ${eth(a.payout)} paid out, court fee ${eth(a.courtFee)}, judges' rewards ${eth(a.judgeRewards)}`,
        who: str(a.winner),
        text: null,
      };
    case "defaulted":
      // A default is no verdict: nobody judged the claim (issue #31).
      return { what: "Won by default: the defendant never answered", who: str(a.plaintiff), text: null };
    case "dismissed":
      return { what: "Dismissed", who: null, text: null };
    case "payment_deferred":
      return { what: `A payment of ${eth(a.amount)} deferred (to withdraw)`, who: str(a.to), text: null };
    case "withdrawn":
      return { what: `Withdrew ${eth(a.amount)}`, who: str(a.to), text: null };
    case "judge_rewarded":
      return { what: `Rewarded ${eth(a.amount)} for voting with the verdict`, who: judge, text: null };
    case "judge_slashed":
      return { what: `Slashed ${eth(a.amount)}`, who: judge, text: null };
    case "dispute_filed":
      return {
        what: `Opened as dispute ${String(a.disputeID)} of an arbitrable contract`,
        who: str(a.arbitrable),
        text: null,
      };
    case "ruling_delivered":
      return {
        what: `Ruling ${String(a.ruling)} delivered to the arbitrable contract`,
        who: str(a.arbitrable),
        text: null,
      };
    case "ruling_failed":
      return { what: `Ruling ${String(a.ruling)} could not be delivered`, who: str(a.arbitrable), text: null };
    default:
      return { what: e.event, who: null, text: null };
  }
}

/** The addresses an indexed timeline names (to show them by name): panels' judges and each entry's. */
export function namedIn(entries: readonly IndexedEntry[]): string[] {
  return entries.flatMap((e) => {
    const judges = Array.isArray(e.args.judges) ? e.args.judges.filter((j): j is string => typeof j === "string") : [];
    const who = words(e).who;
    return who ? [who, ...judges] : judges;
  });
}

/** The panel each round drew, from its `panel` entries: round → judges. */
export function panels(entries: readonly IndexedEntry[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const e of entries)
    if (e.kind === "panel" && e.round !== null && Array.isArray(e.args.judges))
      out.set(e.round, e.args.judges.map(String));
  return out;
}

/** A deadline still ahead, from the chain's view of the case. */
export interface Ahead {
  at: number;
  what: string;
}

/**
 * The indexed entries grouped by round, in chain order: an entry naming its round opens it; the
 * others (evidence, an appeal, a settlement) belong to the round under way. Then the deadlines ahead.
 */
export function indexedTimeline(entries: readonly IndexedEntry[], ahead: readonly Ahead[]): TimelineRound[] {
  const rounds: TimelineRound[] = [{ round: 0, entries: [] }];
  let state: string | null = null;
  let judged: TimelineRound | undefined;
  for (const e of entries) {
    // A state entry that repeats the state (evidence added to an active case) tells nothing.
    if (e.kind === "state") {
      if (e.state === state) continue;
      state = e.state;
    }
    let current = rounds[rounds.length - 1] as TimelineRound;
    if (e.round !== null && e.round > current.round) {
      current = { round: e.round, entries: [] };
      rounds.push(current);
    }
    // An appeal is of the round whose verdict it contests (its transaction arms the next round's draw first).
    const into = e.kind === "appeal" && judged ? judged : current;
    into.entries.push({ at: e.time, block: e.block, kind: e.kind, ...words(e), side: e.side, ahead: false });
    if (e.kind === "verdict") judged = current;
  }
  const last = rounds[rounds.length - 1] as TimelineRound;
  for (const d of ahead)
    last.entries.push({
      at: d.at,
      block: null,
      kind: "deadline",
      what: d.what,
      who: null,
      text: null,
      side: null,
      ahead: true,
    });
  return rounds.filter((r) => r.entries.length > 0);
}

/** Without the index: what the chain's view of the case tells, its filing, deadlines and resolution. */
export function chainOnlyTimeline(c: CaseBody, now: number | null, ahead: readonly Ahead[]): TimelineRound[] {
  const entry = (at: number, what: string, kind: string): TimelineEntry => ({
    at,
    block: null,
    kind,
    what,
    who: null,
    text: null,
    side: null,
    ahead: now !== null && at > now,
  });
  const out: TimelineEntry[] = [entry(c.filedAt, "Filed", "filed")];
  if (c.commitDeadline !== null) out.push(entry(c.commitDeadline, "Commit deadline", "deadline"));
  if (c.revealDeadline !== null) out.push(entry(c.revealDeadline, "Reveal deadline", "deadline"));
  if (c.resolvedAt !== null) {
    const what =
      c.state === "Defaulted" ? "Won by default: the defendant never answered" : `Verdict: ${outcomeWords(c.outcome)}`;
    out.push(entry(c.resolvedAt, what, c.state === "Defaulted" ? "defaulted" : "verdict"));
  }
  for (const d of ahead) if (!out.some((t) => t.at === d.at)) out.push(entry(d.at, d.what, "deadline"));
  return [{ round: c.appealUsed ? 2 : 1, entries: out }];
}
