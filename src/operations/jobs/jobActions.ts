import { type Address, getAddress, isAddressEqual } from "viem";
import { z } from "zod";
import type { Arbitration, ChainAccess } from "../../chain/access.js";
import { type JobState, readDueRulings } from "../../chain/jobs.js";
import type { JobRow } from "../../index/queries/jobs.js";
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
 * keeper view (the permissionless ones): worked out from the index's jobs table (every job, as its
 * events left it) and, on the chain, the rulings whose delivery failed. "Now" is the chain time the
 * page was read at, as for case actions (actions.ts).
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

/** A job as the index keeps it, what its actions are worked out from. */
export interface DueJob {
  id: bigint;
  client: Address;
  /** Null until the client names one. */
  provider: Address | null;
  state: JobState;
  expiredAt: bigint;
  /** When the challenge window closes, for a job a docket evaluator judges once submitted. */
  windowEndsAt: bigint | null;
  disputed: boolean;
}

/** A row of the index's jobs table as the actions read it. */
export function dueJobOf(r: JobRow): DueJob {
  return {
    id: BigInt(r.job_id),
    client: getAddress(r.client),
    provider: r.provider === null ? null : getAddress(r.provider),
    state: r.state as JobState,
    expiredAt: BigInt(r.expired_at),
    windowEndsAt: r.window_ends_at === null ? null : BigInt(r.window_ends_at),
    disputed: r.disputed,
  };
}

const jobAction = (
  op: Operation,
  j: DueJob,
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
function finalizable(j: DueJob, now: bigint): boolean {
  return j.state === "Submitted" && !j.disputed && j.windowEndsAt !== null && now > j.windowEndsAt;
}

/** The permissionless job actions: finalize a job whose window passed undisputed. */
export function keeperJobActions(jobs: readonly DueJob[], now: bigint): JobAction[] {
  return jobs.filter((j) => finalizable(j, now)).map(finalizeAction);
}

/** Anyone's action on a job whose window passed undisputed: finalize it. */
function finalizeAction(j: DueJob): JobAction {
  return jobAction(
    finalizeJob,
    j,
    "anyone",
    false,
    null,
    "The challenge window closed without a dispute: settle the job (the provider is paid, or the client refunded when the court could not have judged it: finalize_job's `pays` says which)",
  );
}

/**
 * What `who` may or must do on its own jobs now (client or provider), keeper actions on them
 * included, in the order the jobs come (the index's: due soonest first).
 */
export function jobActionsFor(jobs: readonly DueJob[], who: Address, now: bigint): JobAction[] {
  const out: JobAction[] = [];
  for (const j of jobs) {
    const client = isAddressEqual(j.client, who);
    const provider = j.provider !== null && isAddressEqual(j.provider, who);
    if (!client && !provider) continue;
    const live = now < j.expiredAt;
    if (client && j.state === "Open" && live && j.provider !== null) {
      out.push(
        jobAction(fundJob, j, "client", false, j.expiredAt, "Set the budget and escrow it so the provider can start"),
      );
    }
    if (provider && j.state === "Funded" && live) {
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
    const w = j.windowEndsAt;
    if (client && j.state === "Submitted" && w !== null && !j.disputed && now < w) {
      out.push(
        jobAction(
          disputeJob,
          j,
          "client",
          false,
          w,
          "The provider submitted: review the deliverable, and dispute it before the window closes if it falls short",
        ),
      );
    }
    if (finalizable(j, now)) out.push(finalizeAction(j));
  }
  return out;
}

/** The rulings whose delivery failed (few), or none when docket serves no arbitration contracts. */
export async function readDueRulingsOf(chain: ChainAccess) {
  const a: Arbitration | undefined = chain.arbitration;
  return a ? readDueRulings(chain, a) : [];
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
