import type { Address } from "viem";
import { z } from "zod";
import { type CaseView, OUTCOME_NAMES, readCase, STATE_NAMES } from "../../chain/reads/cases.js";
import { type CourtParamsView, type CourtView, readParams } from "../../chain/reads/courts.js";
import { DocketError, type ErrorCode } from "../../errors/errors.js";
import { keyOf } from "../../freshness/keys.js";
import { courtRef, refOf } from "../courts/court.js";
import { cachedRead } from "../kernel/cachedRead.js";
import { type Ctx, chainErrors } from "../kernel/operation.js";
import { address } from "../kernel/schemas.js";

/** Shapes and helpers the case operations share. */

export const caseAddress = address("Case contract address");

/** What a read of one case by its address takes and may refuse: `{ address }`, and CASE_NOT_FOUND beside the chain's errors. */
export const oneCaseRead = {
  input: z.object({ address: caseAddress }),
  errors: [...chainErrors("read"), "CASE_NOT_FOUND"] as ErrorCode[],
};

const VOTE_NAMES = [null, "plaintiff", "defendant", "committed"] as const;

/** One judge of the current panel and where its vote stands. */
const panelVote = z.object({
  judge: z.string(),
  vote: z
    .enum(["plaintiff", "defendant", "committed"])
    .nullable()
    .describe(
      "plaintiff/defendant once cast (revealed, with hidden votes); committed: hidden, not revealed yet; null: nothing yet",
    ),
  justification: z.string().describe("The judge's reasons, sent with the reveal; empty when none"),
});

/**
 * A case as the service interface (section 2.3) lists it (18 fields, names and types unchanged),
 * followed by its court and how its votes stand: hidden or public, the phase, commitments and each
 * judge's (revealed) vote.
 */
export const caseSchema = z.object({
  address: z.string(),
  state: z.enum(STATE_NAMES),
  stateIndex: z.number().int(),
  plaintiff: z.string(),
  defendant: z.string(),
  claimDescription: z.string(),
  plaintiffStake: z.string().describe("wei, decimal string"),
  defendantStake: z.string().describe("wei, decimal string"),
  evidenceIpfsHash: z.string(),
  judges: z.array(z.string()).describe("Judges of the current round; check here whether you are assigned"),
  votesForPlaintiff: z.number().int(),
  votesForDefendant: z.number().int(),
  filedAt: z.number().int().describe("Unix seconds"),
  resolvedAt: z.number().int().nullable().describe("Unix seconds; null while unresolved"),
  outcome: z.enum(["PlaintiffWon", "DefendantWon", "Dismissed"]).nullable().describe("Null while unresolved"),
  verdictReason: z.string(),
  appealWindowOpen: z.boolean(),
  appealUsed: z.boolean(),
  court: courtRef.describe(
    "The court the case was filed in: its parameters (copied at filing) and policy (get_court) govern the case",
  ),
  hiddenVotes: z
    .boolean()
    .describe(
      "true: judges commit a hash first (vote_on_case) and reveal it later (reveal_vote); counts show revealed votes only",
    ),
  votingPhase: z
    .enum(["commit", "reveal", "vote"])
    .nullable()
    .describe("While Deliberating: commit/reveal with hidden votes, vote with public ones; null otherwise"),
  votesCommitted: z.number().int().describe("Judges of the current round who committed a hidden vote"),
  commitDeadline: z
    .number()
    .int()
    .nullable()
    .describe("Unix seconds (chain time): last moment to commit; null with public votes or before a panel"),
  revealDeadline: z
    .number()
    .int()
    .nullable()
    .describe("Unix seconds (chain time): last moment to reveal; null with public votes or before a panel"),
  votes: z.array(panelVote).describe("The current panel, judge by judge"),
  arbitration: z
    .object({
      arbitrator: z.string().describe("The arbitrator (IArbitratorV2) that filed the case"),
      arbitrable: z
        .string()
        .describe("The contract that asked for the dispute and receives `rule` when the case is final"),
      disputeId: z.number().int().describe("The arbitrator's dispute id"),
      job: z
        .object({
          id: z.number().int(),
          contract: z.string().describe("The ERC-8183 job contract"),
          http: z.string().describe('Where to read it, e.g. "GET /jobs/7" (get_job)'),
        })
        .nullable()
        .describe("The ERC-8183 job the dispute is about, when docket's evaluator opened it"),
    })
    .nullable()
    .describe(
      "Set when the case was born from an arbitrable contract's dispute (docs/arbitration.md); null for a case its plaintiff filed",
    ),
});
export type CaseBody = z.infer<typeof caseSchema>;

/** A case as get_case shows it; `courts` names its court; `arbitration` is the dispute it was born from, if any. */
export function formatCase(
  v: CaseView,
  courts: readonly CourtView[],
  arbitration: CaseBody["arbitration"] = null,
): CaseBody {
  return {
    address: v.addr,
    state: STATE_NAMES[v.state] as CaseBody["state"],
    stateIndex: v.state,
    plaintiff: v.plaintiff,
    defendant: v.defendant,
    claimDescription: v.claimDescription,
    plaintiffStake: v.plaintiffStake.toString(),
    defendantStake: v.defendantStake.toString(),
    evidenceIpfsHash: v.evidenceIpfsHash,
    judges: [...v.judges],
    votesForPlaintiff: Number(v.votesForPlaintiff),
    votesForDefendant: Number(v.votesForDefendant),
    filedAt: Number(v.filedAt),
    resolvedAt: v.resolvedAt === 0n ? null : Number(v.resolvedAt),
    outcome: OUTCOME_NAMES[v.outcome] ?? null,
    verdictReason: v.verdictReason,
    appealWindowOpen: v.appealWindowOpen,
    appealUsed: v.appealUsed,
    court: refOf(courts, v.courtId),
    hiddenVotes: v.hiddenVotes,
    votingPhase: votingPhase(v),
    votesCommitted: Number(v.votesCommitted),
    // The current round's phases: none before its panel is seated (an appeal awaiting judges).
    commitDeadline: v.hiddenVotes && v.judges.length > 0 ? Number(v.commitDeadline) : null,
    revealDeadline: v.hiddenVotes && v.judges.length > 0 ? Number(v.revealDeadline) : null,
    votes: v.votes.map((x) => ({
      judge: x.judge,
      vote: VOTE_NAMES[x.vote] ?? null,
      justification: x.justification,
    })),
    arbitration,
  };
}

/** Which step the panel is at, from chain time: reveals open once all committed or the commit deadline passed. */
export function votingPhase(v: CaseView): "commit" | "reveal" | "vote" | null {
  if (STATE_NAMES[v.state] !== "Deliberating") return null;
  if (!v.hiddenVotes) return "vote";
  const allCommitted = Number(v.votesCommitted) >= v.judges.length;
  return allCommitted || v.chainTime > v.commitDeadline ? "reveal" : "commit";
}

/** A case that can no longer change what the 18 fields show. */
export function isFinal(v: CaseView): boolean {
  const s = STATE_NAMES[v.state];
  return s === "Defaulted" || s === "Dismissed" || (s === "Resolved" && !v.appealWindowOpen);
}

/** Reads a case fresh from the chain, or answers 404 CASE_NOT_FOUND. */
export async function requireCase(ctx: Ctx, addr: Address): Promise<CaseView> {
  return caseFound(await readCase(ctx.chain, addr), addr);
}

/** The case read at `addr`, or 404 CASE_NOT_FOUND when there was none. */
export function caseFound(v: CaseView | undefined, addr: Address): CaseView {
  if (!v) throw new DocketError("CASE_NOT_FOUND", `no case at ${addr}`, { address: addr });
  return v;
}

/** Court parameters (minimums, fee, windows), cached for 30 s: they change only by owner action. */
export function courtParams(ctx: Ctx): Promise<CourtParamsView> {
  return cachedRead(ctx, keyOf.params(), 30, () => readParams(ctx.chain));
}
