import type { Address } from "viem";
import { z } from "zod";
import { type CaseStatusView, STATE_NAMES } from "../../chain/reads/cases.js";
import type { CourtView } from "../../chain/reads/courts.js";
import { courtRef, refOf } from "../courts/court.js";
import { submitEvidence } from "../evidence/submitEvidence.js";
import type { Operation } from "../kernel/operation.js";
import { assignJudgesRandom } from "./assignJudgesRandom.js";
import { fileAppeal } from "./fileAppeal.js";
import { resolveAfterDeadline } from "./resolveAfterDeadline.js";
import { respondToCase } from "./respondToCase.js";
import { revealVote } from "./revealVote.js";
import { settleCase } from "./settleCase.js";
import { triggerDefault } from "./triggerDefault.js";
import { voteOnCase } from "./voteOnCase.js";

/**
 * Who may do what on a case now, worked out from the compact status the factory returns for a page
 * of cases in one call (CaseStatus in contracts/interfaces/CourtTypes.sol). The inbox (one address's cases) and the
 * keeper view (the permissionless actions court-wide) both come from here.
 *
 * "Now" is the chain time of the block the page was read at. A transaction sent now lands in a
 * later block, so an action "before a deadline" is listed while chain time is strictly before it,
 * and one "after a deadline" once chain time has passed it: exactly what the contract will accept
 * from the next block on.
 */

/** Max evidence entries per case: 16 per party and round (DisputeCase.MAX_EVIDENCE_PER_PARTY_ROUND), two of each. */
const MAX_EVIDENCE = 64n;

/** The entropy status codes of CaseStatus.drawStatus. */
const DRAW = { pending: 0, ready: 1, expired: 2, none: 255 } as const;

export const ROLES = ["plaintiff", "defendant", "judge", "past_judge", "anyone"] as const;
export type Role = (typeof ROLES)[number];

/**
 * The fields of a next action, on a case or a job: the tool and its route, in which capacity, whether
 * it is required, until when. `roles` and the descriptions say what they mean on what it acts on.
 */
export function actionFields<const R extends readonly [string, ...string[]]>(
  roles: R,
  say: { http: string; as: string; required: string },
) {
  return {
    operation: z.string().describe("The docket tool (MCP) to call; its HTTP route is in `http`"),
    http: z.string().describe(say.http),
    as: z.enum(roles).describe(say.as),
    required: z.boolean().describe(say.required),
    deadline: z.number().int().nullable().describe("Unix seconds (chain time) after which it is refused; null: none"),
    description: z.string(),
  };
}

export const actionSchema = z.object(
  actionFields(ROLES, {
    http: 'The matching HTTP route, e.g. "POST /cases/0x…/vote"',
    as: "In which capacity: a party, a judge of the current panel, or anyone (a keeper action)",
    required: "true when missing it costs the caller (a default, a no-show slash); false when optional",
  }),
);
export type Action = z.infer<typeof actionSchema>;

export const caseActionsSchema = z.object({
  case: z.string().describe("Case contract address"),
  court: courtRef.describe(
    "The court whose pool seats the current round (the appeal court after an appeal that moved up)",
  ),
  state: z.enum(STATE_NAMES),
  round: z.number().int().describe("1, or 2 after an appeal"),
  roles: z.array(z.enum(ROLES)).describe("The address's part in the case"),
  actions: z
    .array(actionSchema)
    .describe("What the address may or must do now, required first, soonest deadline first"),
  waitingFor: z.string().nullable().describe("What the case waits for when the address has nothing to do now"),
  nextChangeAt: z
    .number()
    .int()
    .nullable()
    .describe("Chain time of the next deadline that changes what may be done on the case; null: none ahead"),
});
export type CaseActions = z.infer<typeof caseActionsSchema>;

function route(op: Operation, caseAddr: string): string {
  return `${op.http.method} ${op.http.path.replace(":address", caseAddr)}`;
}

function action(
  op: Operation,
  s: CaseStatusView,
  as: Role,
  required: boolean,
  deadline: bigint | null,
  description: string,
): Action {
  return {
    operation: op.name,
    http: route(op, s.addr),
    as,
    required,
    deadline: deadline === null ? null : Number(deadline),
    description,
  };
}

const state = (s: CaseStatusView) => STATE_NAMES[s.state] as (typeof STATE_NAMES)[number];

/** Whether the case waits for a panel to be drawn in its current round. */
function awaitsPanel(s: CaseStatusView): boolean {
  const st = state(s);
  return (st === "Active" && s.round === 1) || (st === "Appealed" && s.round === 2);
}

/** The permissionless actions executable now on one case (a keeper's work). */
export function keeperActions(s: CaseStatusView, now: bigint): Action[] {
  const st = state(s);
  const out: Action[] = [];
  if (st === "Summoned" && now > s.responseDeadline) {
    out.push(
      action(
        triggerDefault,
        s,
        "anyone",
        false,
        null,
        "The defendant did not respond in time: end the case for the plaintiff",
      ),
    );
  }
  if (
    awaitsPanel(s) &&
    now < s.deliberationDeadline &&
    (s.drawStatus === DRAW.ready || s.drawStatus === DRAW.expired)
  ) {
    const why =
      s.drawStatus === DRAW.ready
        ? "The draw's randomness is in: seat the panel"
        : "The armed draw expired unexecuted: the same call arms it afresh";
    out.push(action(assignJudgesRandom, s, "anyone", false, s.deliberationDeadline, why));
  }
  if ((st === "Active" || st === "Deliberating" || st === "Appealed") && now > s.deliberationDeadline) {
    out.push(
      action(
        resolveAfterDeadline,
        s,
        "anyone",
        false,
        null,
        s.hiddenVotes && st === "Deliberating"
          ? "The reveal phase is over: count the revealed votes (or dismiss) and score the judges"
          : "No verdict by the deliberation deadline: dismiss the case and refund the stakes",
      ),
    );
  }
  if (st === "Resolved" && !s.settled && now > s.appealDeadline) {
    out.push(action(settleCase, s, "anyone", false, null, "The appeal window closed unused: pay out the verdict"));
  }
  return out;
}

function rolesOf(s: CaseStatusView, who: Address): Role[] {
  const w = who.toLowerCase();
  const roles: Role[] = [];
  if (s.plaintiff.toLowerCase() === w) roles.push("plaintiff");
  if (s.defendant.toLowerCase() === w) roles.push("defendant");
  if (s.judges.some((j) => j.toLowerCase() === w)) roles.push("judge");
  else if (roles.length === 0) roles.push("past_judge");
  return roles;
}

/** What a judge of the current panel may do now, or what it waits for. */
function judgeActions(s: CaseStatusView, who: Address, now: bigint): { actions: Action[]; waiting: string | null } {
  if (state(s) !== "Deliberating") return { actions: [], waiting: null };
  const i = s.judges.findIndex((j) => j.toLowerCase() === who.toLowerCase());
  const code = s.votes[i] ?? 0;
  if (!s.hiddenVotes) {
    if (code === 0 && now < s.deliberationDeadline) {
      return {
        actions: [
          action(voteOnCase, s, "judge", true, s.deliberationDeadline, "You are on the panel: read the case and vote"),
        ],
        waiting: null,
      };
    }
    return { actions: [], waiting: code === 0 ? null : "the other judges' votes" };
  }
  if (code === 0) {
    if (now < s.commitDeadline) {
      return {
        actions: [
          action(
            voteOnCase,
            s,
            "judge",
            true,
            s.commitDeadline,
            "You are on the panel: read the case and commit your hidden vote (keep the salt to reveal it)",
          ),
        ],
        waiting: null,
      };
    }
    return { actions: [], waiting: null };
  }
  if (code === 3) {
    const everyoneCommitted = s.votesCommitted >= BigInt(s.judges.length);
    const revealOpen = (now >= s.commitDeadline || everyoneCommitted) && now < s.revealDeadline;
    if (revealOpen) {
      return {
        actions: [
          action(
            revealVote,
            s,
            "judge",
            true,
            s.revealDeadline,
            "Reveal your committed vote with its salt; an unrevealed vote counts as a no-show",
          ),
        ],
        waiting: null,
      };
    }
    if (now < s.commitDeadline) {
      return {
        actions: [],
        waiting: `the other judges' commitments: revealing opens when all have committed, or after ${s.commitDeadline}`,
      };
    }
    return { actions: [], waiting: null };
  }
  return { actions: [], waiting: "the other judges' reveals" };
}

/** What a party may or must do now. */
function partyActions(s: CaseStatusView, who: Address, roles: Role[], now: bigint): Action[] {
  const st = state(s);
  const out: Action[] = [];
  const as: Role = roles.includes("plaintiff") ? "plaintiff" : "defendant";
  if (roles.includes("defendant") && st === "Summoned" && now < s.responseDeadline) {
    out.push(
      action(
        respondToCase,
        s,
        "defendant",
        true,
        s.responseDeadline,
        "You are summoned: respond with your stake before the deadline, or the case is decided for the plaintiff",
      ),
    );
  }
  if ((st === "Active" || st === "Deliberating") && s.evidenceCount < MAX_EVIDENCE) {
    out.push(action(submitEvidence, s, as, false, null, "Add evidence (a content hash) while the case is heard"));
  }
  if (
    st === "Resolved" &&
    !s.settled &&
    !s.appealUsed &&
    s.mayAppeal.toLowerCase() === who.toLowerCase() &&
    now < s.appealDeadline
  ) {
    out.push(
      action(
        fileAppeal,
        s,
        as,
        false,
        s.appealDeadline,
        "The verdict went against you: appeal once, with the appeal bond, to a panel of five",
      ),
    );
  }
  return out;
}

/** The deadlines still ahead that change what may be done on the case. */
export function nextChange(s: CaseStatusView, now: bigint): number | null {
  const st = state(s);
  const candidates: bigint[] = [];
  if (st === "Summoned") candidates.push(s.responseDeadline);
  if (st === "Active" || st === "Deliberating" || st === "Appealed") candidates.push(s.deliberationDeadline);
  if (st === "Deliberating" && s.hiddenVotes) candidates.push(s.commitDeadline, s.revealDeadline);
  if (st === "Resolved" && !s.settled) candidates.push(s.appealDeadline);
  const ahead = candidates.filter((d) => d >= now).sort((a, b) => (a < b ? -1 : 1));
  return ahead.length === 0 ? null : Number(ahead[0]);
}

function byUrgency(a: Action, b: Action): number {
  if (a.required !== b.required) return a.required ? -1 : 1;
  return (a.deadline ?? Number.MAX_SAFE_INTEGER) - (b.deadline ?? Number.MAX_SAFE_INTEGER);
}

/** Everything `who` may or must do on one case now, with what it waits for otherwise. */
export function caseActionsFor(
  s: CaseStatusView,
  who: Address,
  now: bigint,
  courts: readonly CourtView[],
): CaseActions {
  const roles = rolesOf(s, who);
  const judge = roles.includes("judge") ? judgeActions(s, who, now) : { actions: [], waiting: null };
  const party = roles.includes("plaintiff") || roles.includes("defendant") ? partyActions(s, who, roles, now) : [];
  const actions = [...judge.actions, ...party, ...keeperActions(s, now)].sort(byUrgency);
  let waitingFor = judge.waiting;
  if (actions.length === 0 && waitingFor === null) waitingFor = waitingOf(s, now);
  return {
    case: s.addr,
    court: refOf(courts, s.courtId),
    state: state(s),
    round: s.round,
    roles,
    actions,
    waitingFor: actions.length === 0 ? waitingFor : null,
    nextChangeAt: nextChange(s, now),
  };
}

/** What a case waits for, said for anyone. */
function waitingOf(s: CaseStatusView, now: bigint): string | null {
  switch (state(s)) {
    case "Summoned":
      return `the defendant's response, until ${s.responseDeadline}`;
    case "Active":
    case "Appealed":
      return s.drawStatus === DRAW.pending ? "the draw's randomness (a later block)" : "the panel draw";
    case "Deliberating":
      return s.hiddenVotes && now < s.commitDeadline ? "the judges' commitments" : "the judges' votes";
    case "Resolved":
      return s.settled ? null : `the appeal window, until ${s.appealDeadline}`;
    default:
      return null;
  }
}

/**
 * Longest a list of next actions (an inbox, the keeper actions) is reused: chain time moves deadlines
 * past without any event to invalidate it.
 */
const MAX_ACTIONS_TTL = 15;

/**
 * Seconds an answer built from these statuses stays right: until the soonest deadline ahead
 * changes what may be done (chain time moves on without any event), at least 1 and at most MAX_ACTIONS_TTL.
 */
export function ttlUntilNextChange(next: (number | null)[], now: bigint): number {
  const ahead = next.filter((n): n is number => n !== null).map((n) => n - Number(now) + 1);
  const soonest = ahead.length === 0 ? MAX_ACTIONS_TTL : Math.min(...ahead);
  return Math.max(1, Math.min(MAX_ACTIONS_TTL, soonest));
}
