import type { Address } from "viem";
import { z } from "zod";
import type { Arbitration } from "../../chain/access.js";
import {
  type DisputeView,
  type EvaluationRead,
  JOB_PHASES,
  JOB_STATES,
  type JobView,
  RULING_STATUSES,
  readDispute,
  readJob,
} from "../../chain/jobs.js";
import { type CaseView, OUTCOME_NAMES, STATE_NAMES } from "../../chain/reads/cases.js";
import type { CourtView } from "../../chain/reads/courts.js";
import { DocketError, type ErrorCode } from "../../errors/errors.js";
import { cidOfDigest } from "../../evidence/cid.js";
import { courtRef, refOf } from "../courts/court.js";
import type { Ctx, Operation } from "../kernel/operation.js";

/** Shapes and helpers the job operations share (docs/arbitration.md). */

/** The errors every job read or write may answer beyond the chain's: no such job, no arbitration here. */
export const JOB_ERRORS: readonly ErrorCode[] = ["JOB_NOT_FOUND", "NOT_FOUND"];

/** A job's id as a path parameter (ids start at 1). */
export const jobId = z
  .number()
  .int()
  .min(1)
  .max(Number.MAX_SAFE_INTEGER)
  .describe("The job's id on the ERC-8183 job contract (list_jobs lists them; ids start at 1)");

/** The arbitration contracts docket serves, or 404 NOT_FOUND when this docket serves none. */
export function requireArbitration(ctx: Ctx): Arbitration {
  const a = ctx.chain.arbitration;
  if (!a) {
    throw new DocketError(
      "NOT_FOUND",
      "this docket serves no arbitration contracts (on a real chain set ARBITRATOR_ADDRESS, JOBS_ADDRESS, JOBS_TOKEN_ADDRESS and EVALUATORS)",
    );
  }
  return a;
}

/** A job read fresh, with its evaluation, dispute and case; 404 JOB_NOT_FOUND when there is none. */
export async function requireJob(ctx: Ctx, id: number) {
  const a = requireArbitration(ctx);
  const read = await readJob(ctx.chain, a, BigInt(id));
  if (!read) throw new DocketError("JOB_NOT_FOUND", `no job ${id}: list_jobs lists them`, { job: id });
  const ev = read.evaluation?.view;
  const disputed = ev?.disputed ? await readDispute(ctx.chain, a, ev.disputeId, ev.caseAddr) : undefined;
  return { ...read, arbitration: a, dispute: disputed };
}
export type JobRead = Awaited<ReturnType<typeof requireJob>>;

/**
 * A job step refused before anything is built (422 JOB_STEP_REFUSED): `rule` names the rule in
 * snake_case, `message` says it for a person, `details` adds the values it was judged on.
 */
export function refuse(rule: string, message: string, details: Record<string, unknown> = {}): never {
  throw new DocketError("JOB_STEP_REFUSED", message, { rule, ...details });
}

/** "POST /jobs/7/dispute": an operation's route for one job (or one case). */
export function routeOf(op: Pick<Operation, "http">, param: string | number): string {
  return `${op.http.method} ${op.http.path.replace(/:[A-Za-z]+/, String(param))}`;
}

/** What to call next, as every job write's answer says it. */
export const nextStep = z
  .object({
    operation: z.string().describe("The docket tool (MCP) to call next"),
    http: z.string().describe("Its HTTP route"),
    description: z.string(),
  })
  .nullable()
  .describe("What to do once this transaction is mined; null when nothing follows from you");

const RULING_NAMES = ["refused", "client", "provider"] as const;

const disputeSchema = z.object({
  id: z.number().int().describe("The arbitrator's dispute id"),
  case: z.string().describe("The docket case the dispute is judged in (get_case)"),
  court: courtRef,
  caseState: z.enum(STATE_NAMES),
  outcome: z
    .enum(["PlaintiffWon", "DefendantWon", "Dismissed"])
    .nullable()
    .describe("The case's outcome; null until decided"),
  cost: z.string().describe("What the client paid the arbitrator, wei"),
  ruling: z
    .object({
      value: z
        .number()
        .int()
        .nullable()
        .describe("0 refused (dismissed), 1 the client won, 2 the provider won; null until final"),
      winner: z
        .enum(RULING_NAMES)
        .nullable()
        .describe(
          "Who the ruling is for: client (refund), provider (paid), refused (dismissed without a verdict: no acceptance, the client is refunded)",
        ),
      delivery: z
        .enum(RULING_STATUSES)
        .describe(
          "pending: the case is not final; delivered: the evaluator received `rule`; failed: due again (deliver_ruling)",
        ),
    })
    .describe("The final ruling and whether the job's evaluator has received it"),
});

export const jobSchema = z.object({
  id: z.number().int(),
  state: z.enum(JOB_STATES).describe("ERC-8183 status"),
  client: z.string(),
  provider: z.string().nullable().describe("Null until the client names one"),
  evaluator: z.string(),
  description: z.string(),
  budget: z.string().describe("In the payment token's smallest unit (USDC: 6 decimals), decimal string"),
  token: z.string().describe("The ERC-20 the budget is paid in"),
  expiredAt: z
    .number()
    .int()
    .describe("Unix seconds: after it, a funded or submitted job can be refunded (claimRefund)"),
  deliverable: z.string().nullable().describe("The submitted bytes32; null before submission"),
  deliverableCid: z
    .string()
    .nullable()
    .describe(
      "The deliverable read as a CID (CIDv1 raw, sha2-256 of it): GET /evidence/{cid} when it was published to docket",
    ),
  submittedAt: z.number().int().nullable().describe("Unix seconds; null before submission"),
  evaluation: z
    .object({
      evaluator: z.string(),
      court: courtRef.describe("The court this evaluator files disputes in"),
      phase: z
        .enum(JOB_PHASES)
        .describe(
          "waiting (not submitted), in_window (the client may dispute), finalizable (anyone may finalize_job), disputed (a case is judging it), ruled, finalized, closed (ended without the evaluator)",
        ),
      windowEndsAt: z.number().int().nullable().describe("Unix seconds (chain time): the last moment to dispute"),
      arbitrationCost: z.string().describe("What dispute_job costs now, wei (its `value`)"),
      rulingBy: z
        .number()
        .int()
        .describe("The latest a dispute filed now would be finally ruled (the court's worst case), unix seconds"),
      disputable: z.boolean().describe("Whether dispute_job would be taken now (by the client)"),
      judgeable: z
        .boolean()
        .nullable()
        .describe(
          "Whether the court could judge the whole window (a dispute at its last second ruled before expiry): true, finalize_job pays the provider; false, it refunds the client; null before submission",
        ),
      dispute: disputeSchema.nullable(),
    })
    .nullable()
    .describe("How docket's court-backed evaluator judges the job; null when its evaluator is not docket's"),
});
export type JobBody = z.infer<typeof jobSchema>;

const ZERO = "0x0000000000000000000000000000000000000000";
const orNull = (a: Address) => (a.toLowerCase() === ZERO ? null : a);

function formatDispute(
  ev: EvaluationRead,
  d: { dispute: DisputeView; caseView?: CaseView },
  courts: readonly CourtView[],
) {
  const v = d.caseView;
  const value = d.dispute.ruled ? Number(d.dispute.ruling) : null;
  return {
    id: Number(ev.view.disputeId),
    case: ev.view.caseAddr,
    court: refOf(courts, d.dispute.courtId),
    caseState: (v ? STATE_NAMES[v.state] : "Filed") as (typeof STATE_NAMES)[number],
    outcome: v ? (OUTCOME_NAMES[v.outcome] ?? null) : null,
    cost: d.dispute.cost.toString(),
    ruling: {
      value,
      winner: value === null ? null : (RULING_NAMES[value] ?? null),
      delivery: RULING_STATUSES[Number(d.dispute.status)] ?? "pending",
    },
  };
}

/** Whether the client could dispute now, and if not the rule that says no (null: it could). */
export function disputeBar(
  r: Pick<JobRead, "job" | "chainTime" | "evaluation">,
): { rule: string; message: string; details: Record<string, unknown> } | null {
  const { job, chainTime, evaluation } = r;
  if (!evaluation)
    return {
      rule: "not_docket_evaluator",
      message: `job ${job.id}'s evaluator ${job.evaluator} is not one of docket's court-backed evaluators: its disputes are not docket's`,
      details: { evaluator: job.evaluator },
    };
  const state = JOB_STATES[job.status];
  if (state !== "Submitted")
    return {
      rule: "not_submitted",
      message: `job ${job.id} is ${state}: only submitted work can be disputed`,
      details: { state },
    };
  if (evaluation.view.disputed)
    return {
      rule: "already_disputed",
      message: `job ${job.id} is already disputed (case ${evaluation.view.caseAddr})`,
      details: { case: evaluation.view.caseAddr },
    };
  const ends = evaluation.view.windowEndsAt;
  // A transaction sent now lands in a later block: the window must still be open then.
  if (chainTime >= ends)
    return {
      rule: "window_closed",
      message: `the challenge window closed at ${ends} (chain time ${chainTime}): the job can only be finalized now`,
      details: { windowEndsAt: Number(ends), chainTime: Number(chainTime) },
    };
  if (evaluation.rulingDeadline + 1n >= job.expiredAt)
    return {
      rule: "expires_before_ruling",
      message: `job ${job.id} expires at ${job.expiredAt}, before a ruling could be final (at worst ${evaluation.rulingDeadline}): after expiry anyone could refund it, so the dispute is refused; the court cannot judge this work, and finalizing the job after the window refunds you`,
      details: { expiredAt: Number(job.expiredAt), rulingBy: Number(evaluation.rulingDeadline) },
    };
  return null;
}

/**
 * Whether finalizing the submitted job pays the provider (CourtEvaluator.judgeable): a dispute filed
 * at the window's last second could be ruled before the job expires. Else the court could not have
 * judged the work, and finalizing refunds the client.
 */
export function finalizePays(r: Pick<JobRead, "job" | "chainTime" | "evaluation">): boolean {
  const ev = r.evaluation;
  if (!ev) return true;
  const maxDuration = ev.rulingDeadline - r.chainTime;
  return ev.view.windowEndsAt + maxDuration < r.job.expiredAt;
}

/** A job as get_job shows it. */
export function formatJob(r: JobRead, courts: readonly CourtView[]): JobBody {
  const { job, evaluation } = r;
  const submitted = job.submittedAt !== 0n;
  return {
    id: Number(job.id),
    state: JOB_STATES[job.status] as JobBody["state"],
    client: job.client,
    provider: orNull(job.provider),
    evaluator: job.evaluator,
    description: job.description,
    budget: job.budget.toString(),
    token: r.arbitration.token,
    expiredAt: Number(job.expiredAt),
    deliverable: submitted ? job.deliverable : null,
    deliverableCid: submitted ? cidOfDigest(job.deliverable) : null,
    submittedAt: submitted ? Number(job.submittedAt) : null,
    evaluation: evaluation
      ? {
          evaluator: evaluation.evaluator,
          court: refOf(courts, evaluation.court),
          phase: JOB_PHASES[evaluation.view.phase] as (typeof JOB_PHASES)[number],
          windowEndsAt: evaluation.view.windowEndsAt === 0n ? null : Number(evaluation.view.windowEndsAt),
          arbitrationCost: evaluation.cost.toString(),
          rulingBy: Number(evaluation.rulingDeadline),
          disputable: disputeBar(r) === null,
          judgeable: submitted ? finalizePays(r) : null,
          dispute: r.dispute ? formatDispute(evaluation, r.dispute, courts) : null,
        }
      : null,
  };
}

/** Whether nothing get_job shows of the job can change any more. */
export function jobIsFinal(b: JobBody): boolean {
  const ended = b.state === "Completed" || b.state === "Rejected" || b.state === "Expired";
  const d = b.evaluation?.dispute;
  return ended && (!d || d.ruling.delivery === "delivered");
}

/** A job summary as list_jobs shows it. */
export const jobSummary = z.object({
  id: z.number().int(),
  state: z.enum(JOB_STATES),
  client: z.string(),
  provider: z.string().nullable(),
  evaluator: z.string(),
  budget: z.string().describe("Token units, decimal string"),
  expiredAt: z.number().int(),
  submittedAt: z.number().int().nullable(),
  description: z.string().describe("The job's brief, cut at 200 characters"),
});

export function summarizeJob(j: JobView): z.infer<typeof jobSummary> {
  return {
    id: Number(j.id),
    state: JOB_STATES[j.status] as (typeof JOB_STATES)[number],
    client: j.client,
    provider: orNull(j.provider),
    evaluator: j.evaluator,
    budget: j.budget.toString(),
    expiredAt: Number(j.expiredAt),
    submittedAt: j.submittedAt === 0n ? null : Number(j.submittedAt),
    description: j.description.length > 200 ? `${j.description.slice(0, 199)}…` : j.description,
  };
}
