import { type Address, isAddressEqual } from "viem";
import { z } from "zod";
import type { Arbitration, ChainAccess } from "../../chain/access.js";
import { type EvaluationView, JOB_STATES, type JobView, readJobActionInputs } from "../../chain/jobs.js";
import { actionFields } from "../cases/actions.js";
import type { Operation } from "../kernel/operation.js";
import { deliverRuling } from "./deliverRuling.js";
import { disputeJob } from "./disputeJob.js";
import { finalizeJob } from "./finalizeJob.js";
import { fundJob } from "./fundJob.js";
import { routeOf } from "./job.js";
import { submitJob } from "./submitJob.js";

/**
 * The job actions that are due (docs/arbitration.md), for the inbox (one address's jobs) and the
 * keeper view (the permissionless ones): worked out from the newest JOB_SCAN jobs, the evaluation
 * of each submitted one and the rulings whose delivery failed. "Now" is the chain time the page was
 * read at, as for case actions (actions.ts).
 */

export const JOB_ROLES = ["client", "provider", "anyone"] as const;

export const jobActionSchema = z.object({
  job: z.number().int().describe("The job's id (get_job)"),
  ...actionFields(JOB_ROLES, {
    http: 'The matching HTTP route, e.g. "POST /jobs/7/finalize"',
    as: "In which capacity: the job's client or provider, or anyone (a keeper action)",
    required: "true when missing it costs the caller (a provider that never submits loses the job at expiry)",
  }),
});
export type JobAction = z.infer<typeof jobActionSchema>;

const jobAction = (
  op: Operation,
  j: JobView,
  as: JobAction["as"],
  required: boolean,
  deadline: bigint | null,
  description: string,
): JobAction => ({
  job: Number(j.id),
  operation: op.name,
  http: routeOf(op, j.id.toString()),
  as,
  required,
  deadline: deadline === null ? null : Number(deadline),
  description,
});

/** Whether a submitted job's window has passed undisputed: anyone may finalize it. */
function finalizable(e: EvaluationView | undefined, now: bigint): boolean {
  return !!e && !e.disputed && e.windowEndsAt > 0n && now > e.windowEndsAt;
}

/** The permissionless job actions: finalize a job whose window passed undisputed. */
export function keeperJobActions(
  jobs: readonly JobView[],
  evaluations: ReadonlyMap<string, EvaluationView>,
  now: bigint,
): JobAction[] {
  return jobs.filter((j) => finalizable(evaluations.get(j.id.toString()), now)).map(finalizeAction);
}

/** Anyone's action on a job whose window passed undisputed: finalize it. */
function finalizeAction(j: JobView): JobAction {
  return jobAction(
    finalizeJob,
    j,
    "anyone",
    false,
    null,
    "The challenge window closed without a dispute: settle the job (the provider is paid, or the client refunded when the court could not have judged it: finalize_job's `pays` says which)",
  );
}

/** What `who` may or must do on its own jobs now (client or provider), keeper actions on them included. */
export function jobActionsFor(
  jobs: readonly JobView[],
  evaluations: ReadonlyMap<string, EvaluationView>,
  who: Address,
  now: bigint,
): JobAction[] {
  const out: JobAction[] = [];
  for (const j of jobs) {
    const client = isAddressEqual(j.client, who);
    const provider = isAddressEqual(j.provider, who);
    if (!client && !provider) continue;
    const state = JOB_STATES[j.status];
    const e = evaluations.get(j.id.toString());
    const live = now < j.expiredAt;
    if (
      client &&
      state === "Open" &&
      live &&
      !isAddressEqual(j.provider, "0x0000000000000000000000000000000000000000")
    ) {
      out.push(
        jobAction(fundJob, j, "client", false, j.expiredAt, "Set the budget and escrow it so the provider can start"),
      );
    }
    if (provider && state === "Funded" && live) {
      out.push(
        jobAction(
          submitJob,
          j,
          "provider",
          true,
          j.expiredAt,
          "The job is funded: do the work and submit the deliverable before the job expires",
        ),
      );
    }
    if (client && state === "Submitted" && e && !e.disputed && now < e.windowEndsAt) {
      out.push(
        jobAction(
          disputeJob,
          j,
          "client",
          false,
          e.windowEndsAt,
          "The provider submitted: review the deliverable, and dispute it before the window closes if it falls short",
        ),
      );
    }
    if (finalizable(e, now)) out.push(finalizeAction(j));
  }
  return out.sort(
    (a, b) => Number(b.required) - Number(a.required) || (a.deadline ?? Infinity) - (b.deadline ?? Infinity),
  );
}

/** The chain time by which the job actions change without an event (a window closing, an expiry). */
export function nextJobChange(
  jobs: readonly JobView[],
  evaluations: ReadonlyMap<string, EvaluationView>,
  now: bigint,
): number | null {
  const ahead: bigint[] = [];
  for (const j of jobs) {
    const state = JOB_STATES[j.status];
    if (state === "Completed" || state === "Rejected" || state === "Expired") continue;
    if (j.expiredAt >= now) ahead.push(j.expiredAt);
    const e = evaluations.get(j.id.toString());
    if (e && e.windowEndsAt >= now) ahead.push(e.windowEndsAt);
  }
  return ahead.length === 0 ? null : Number(ahead.reduce((a, b) => (a < b ? a : b)));
}

/** What the job actions are built from, or nothing when docket serves no arbitration contracts. */
export async function readJobActionInputsOf(chain: ChainAccess) {
  const a: Arbitration | undefined = chain.arbitration;
  if (!a) return { jobs: [] as JobView[], due: [], evaluations: new Map<string, EvaluationView>() };
  return readJobActionInputs(chain, a);
}

/** A ruling due again, as a keeper action on its case. */
export function rulingAction(caseAddr: string, disputeId: bigint) {
  return {
    operation: deliverRuling.name,
    http: routeOf(deliverRuling, caseAddr),
    as: "anyone" as const,
    required: false,
    deadline: null,
    description: `The arbitrable's callback failed on dispute ${disputeId}: deliver the final ruling again`,
  };
}
