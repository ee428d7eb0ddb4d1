import type { Kysely } from "kysely";
import { OUTCOME_NAMES } from "../../chain/reads/cases.js";
import type { StoreSchema } from "../../store/schema.js";
import { decodeCaseCursor, encodeCaseCursor } from "./cases.js";

/**
 * An agent's and a judge's history from the index (docs/index.md#histories): the cases they took
 * part in, newest filing first, paged by the same keyset as the case lists, each with how it went
 * for them; a judge's with each vote and its stake's movements.
 */

const OUTCOME_EVENTS = ["Verdict", "Defaulted", "Dismissed", "Settled", "CaseChanged"];
const VOTE_EVENTS = ["VoteCast", "VoteRevealed", "VoteCommitted", "Verdict", "JudgesAssigned"];
const STAKE_EVENTS = ["JudgeStaked", "JudgeUnstaked", "JudgeSlashed", "JudgeRewarded"];

interface CaseRef {
  address: string;
  filed_event_id: number;
}

/** A page of the cases `address` takes part in (as `roles`), newest filing first. */
async function casesOf(
  db: Kysely<StoreSchema>,
  address: string,
  roles: ("plaintiff" | "defendant" | "judge")[],
  page: { limit: number; cursor?: string },
) {
  const after = page.cursor === undefined ? undefined : decodeCaseCursor(page.cursor);
  let q = db
    .selectFrom("case_participants")
    .select(["case_address", "filed_event_id"])
    .distinct()
    .where("address", "=", address)
    .where("role", "in", roles);
  const total = await q
    .clearSelect()
    .select((eb) => eb.fn.count<string>("case_address").distinct().as("n"))
    .executeTakeFirstOrThrow();
  if (after !== undefined) q = q.where("filed_event_id", "<", after);
  const rows = await q
    .orderBy("filed_event_id", "desc")
    .limit(page.limit + 1)
    .execute();
  const more = rows.length > page.limit;
  const cases: CaseRef[] = rows
    .slice(0, page.limit)
    .map((r) => ({ address: r.case_address, filed_event_id: Number(r.filed_event_id) }));
  const last = cases.at(-1);
  return { total: Number(total.n), cases, nextCursor: more && last ? encodeCaseCursor(last.filed_event_id) : null };
}

/** The named events of these cases, in chain order. */
async function eventsOf(db: Kysely<StoreSchema>, cases: string[], names: string[]) {
  if (cases.length === 0) return [];
  return db
    .selectFrom("court_events as e")
    .leftJoin("chain_blocks as b", (j) =>
      j.onRef("b.number", "=", "e.block_number").onRef("b.hash", "=", "e.block_hash"),
    )
    .select(["e.case_address", "e.name", "e.args", "e.block_number", "e.tx_hash", "b.timestamp"])
    .where("e.case_address", "in", cases)
    .where("e.name", "in", names)
    .orderBy("e.id")
    .execute();
}

export type PartyResult = "won" | "lost" | "won_by_default" | "defaulted" | "dismissed" | "undecided";

export interface AgentCase {
  case: string;
  court: number;
  filedAt: number;
  state: string;
  /** plaintiff, defendant, and judge when it also sat on the case. */
  roles: string[];
  /** How it went for the party: a verdict (won, lost), a default judgment (the plaintiff won_by_default, the defendant defaulted), dismissed, or undecided yet. */
  result: PartyResult | null;
  /** The final outcome (PlaintiffWon, DefendantWon, Dismissed), null while undecided. */
  outcome: string | null;
  settled: boolean;
}

/** An agent's cases, as party or judge, with how each went for it. */
export async function agentHistory(db: Kysely<StoreSchema>, address: string, page: { limit: number; cursor?: string }) {
  const found = await casesOf(db, address, ["plaintiff", "defendant", "judge"], page);
  const addrs = found.cases.map((c) => c.address);
  const [rows, roles, events] = await Promise.all([
    addrs.length === 0 ? [] : db.selectFrom("cases").selectAll().where("address", "in", addrs).execute(),
    addrs.length === 0
      ? []
      : db
          .selectFrom("case_participants")
          .select(["case_address", "role"])
          .distinct()
          .where("address", "=", address)
          .where("case_address", "in", addrs)
          .execute(),
    eventsOf(db, addrs, OUTCOME_EVENTS),
  ]);
  const items: AgentCase[] = found.cases.map((ref) => {
    const c = rows.find((r) => r.address === ref.address);
    const mine = roles.filter((r) => r.case_address === ref.address).map((r) => r.role);
    const evs = events.filter((e) => e.case_address === ref.address);
    const defaulted = evs.some((e) => e.name === "Defaulted");
    const dismissed = evs.some((e) => e.name === "Dismissed");
    const verdict = evs.filter((e) => e.name === "Verdict").at(-1);
    let outcome: string | null = null;
    if (defaulted) outcome = "PlaintiffWon";
    else if (dismissed) outcome = "Dismissed";
    else if (verdict && c && ["Resolved"].includes(c.state))
      outcome = OUTCOME_NAMES[Number(verdict.args.outcome)] ?? null;
    const party = mine.includes("plaintiff") ? "plaintiff" : mine.includes("defendant") ? "defendant" : null;
    let result: PartyResult | null = null;
    if (party) {
      if (defaulted) result = party === "plaintiff" ? "won_by_default" : "defaulted";
      else if (outcome === "Dismissed") result = "dismissed";
      else if (outcome === null) result = "undecided";
      else result = (outcome === "PlaintiffWon") === (party === "plaintiff") ? "won" : "lost";
    }
    return {
      case: ref.address,
      court: Number(c?.court_id),
      filedAt: Number(c?.filed_at),
      state: c?.state ?? "",
      roles: mine,
      result,
      outcome,
      settled: evs.some((e) => e.name === "Settled"),
    };
  });
  return { total: found.total, items, nextCursor: found.nextCursor };
}

export interface JudgeRound {
  case: string;
  round: number;
  /** plaintiff / defendant once cast (revealed); committed when a hidden vote was never revealed; null: no vote. */
  vote: "plaintiff" | "defendant" | "committed" | null;
  justification: string | null;
  votedAt: number | null;
  /** The round's verdict (PlaintiffWon, DefendantWon, Dismissed), null before it. */
  verdict: string | null;
  /** Whether the vote sided with the round's verdict; null without a vote or a verdict. */
  withVerdict: boolean | null;
  /** The round has its verdict and this judge cast no vote in it. */
  noShow: boolean;
}

/** A judge's rounds, newest case first, and its stake's movements (newest first, the latest `stakeLimit`). */
export async function judgeHistory(
  db: Kysely<StoreSchema>,
  address: string,
  page: { limit: number; cursor?: string },
  stakeLimit = 100,
) {
  const found = await casesOf(db, address, ["judge"], page);
  const addrs = found.cases.map((c) => c.address);
  const [seats, events] = await Promise.all([
    addrs.length === 0
      ? []
      : db
          .selectFrom("case_participants")
          .select(["case_address", "round"])
          .where("address", "=", address)
          .where("role", "=", "judge")
          .where("case_address", "in", addrs)
          .execute(),
    eventsOf(db, addrs, VOTE_EVENTS),
  ]);
  const rounds: JudgeRound[] = [];
  for (const ref of found.cases) {
    const evs = events.filter((e) => e.case_address === ref.address);
    const mine = seats.filter((s) => s.case_address === ref.address).sort((a, b) => b.round - a.round);
    for (const seat of mine) {
      const inRound = evs.filter((e) => Number(e.args.round) === seat.round);
      const votes = inRound.filter((e) => String(e.args.judge).toLowerCase() === address);
      const cast = votes.find((e) => e.name === "VoteCast" || e.name === "VoteRevealed");
      const committed = votes.some((e) => e.name === "VoteCommitted");
      const v = inRound.find((e) => e.name === "Verdict");
      const verdict = v ? (OUTCOME_NAMES[Number(v.args.outcome)] ?? null) : null;
      const vote = cast ? (cast.args.plaintiffWins ? "plaintiff" : "defendant") : committed ? "committed" : null;
      const sided =
        verdict === "PlaintiffWon" || verdict === "DefendantWon"
          ? vote === "plaintiff" || vote === "defendant"
            ? (vote === "plaintiff") === (verdict === "PlaintiffWon")
            : null
          : null;
      rounds.push({
        case: ref.address,
        round: seat.round,
        vote,
        justification: typeof cast?.args.justification === "string" ? cast.args.justification : null,
        votedAt: cast?.timestamp === undefined || cast.timestamp === null ? null : Number(cast.timestamp),
        verdict,
        withVerdict: sided,
        noShow: verdict !== null && !cast,
      });
    }
  }
  const stakes = await db
    .selectFrom("court_event_addresses as a")
    .innerJoin("court_events as e", "e.id", "a.event_id")
    .leftJoin("chain_blocks as b", (j) =>
      j.onRef("b.number", "=", "e.block_number").onRef("b.hash", "=", "e.block_hash"),
    )
    .select(["e.name", "e.args", "e.block_number", "e.tx_hash", "e.case_address", "b.timestamp"])
    .where("a.address", "=", address)
    .where("a.role", "=", "judge")
    .where("e.name", "in", STAKE_EVENTS)
    .orderBy("e.id", "desc")
    .limit(stakeLimit)
    .execute();
  return {
    total: found.total,
    rounds,
    nextCursor: found.nextCursor,
    stakes: stakes.map((s) => ({
      event: s.name,
      amount: String(s.args.amount ?? "0"),
      court: s.args.courtId === undefined ? null : Number(s.args.courtId),
      case: s.case_address,
      block: Number(s.block_number),
      time: s.timestamp === null ? null : Number(s.timestamp),
      txHash: s.tx_hash,
    })),
  };
}
