import { zeroAddress } from "viem";
import { z } from "zod";
import { agenticCommerceAbi, courtEvaluatorAbi } from "../../chain/abi/generated.js";
import type { Arbitration, ChainAccess } from "../../chain/access.js";
import { DEFAULT_JOB_WORK_TIME, evaluatorOf, MIN_JOB_WORK_TIME } from "../../chain/jobs.js";
import { readChainTime } from "../../chain/reads/core.js";
import { staleKeys } from "../../freshness/stale.js";
import { buildUnsignedTx } from "../../tx/unsignedTx.js";
import { courtInput, GENERAL_COURT } from "../courts/court.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { address, unsignedTxResponse } from "../kernel/schemas.js";
import { fundJob } from "./fundJob.js";
import { nextStep, refuse, requireArbitration, routeOf } from "./job.js";

const MAX_EXPIRY = 365 * 24 * 3600;
/** The default life of a job whose evaluator is not docket's (docket knows nothing of its timings). */
const FOREIGN_DEFAULT_EXPIRY = 30 * 24 * 3600;

/** The chain time, the evaluator's challenge window and its court's worst case (one multicall). */
async function evaluatorTimings(chain: ChainAccess, evaluator: `0x${string}`) {
  const [now, window, rulingBy] = await Promise.all([
    readChainTime(chain),
    chain.reader.readContract({ address: evaluator, abi: courtEvaluatorAbi, functionName: "challengeWindow" }),
    chain.reader.readContract({ address: evaluator, abi: courtEvaluatorAbi, functionName: "rulingDeadline" }),
  ]);
  return { now, window: BigInt(window), maxDuration: rulingBy - now };
}

/**
 * The job's expiry: `expiresIn` from now, or by default the window, the worst case and a week's work;
 * refused (422 JOB_STEP_REFUSED, expiry_too_short) when a docket evaluator's court could not judge a
 * job submitted within MIN_JOB_WORK_TIME of its creation (src/chain/jobs.ts).
 */
async function expiryOf(chain: ChainAccess, a: Arbitration, evaluator: `0x${string}`, expiresIn: number | undefined) {
  if (!evaluatorOf(a, evaluator)) {
    return (await readChainTime(chain)) + BigInt(expiresIn ?? FOREIGN_DEFAULT_EXPIRY);
  }
  const t = await evaluatorTimings(chain, evaluator);
  const least = t.window + t.maxDuration + MIN_JOB_WORK_TIME;
  if (expiresIn === undefined) {
    const span = t.window + t.maxDuration + DEFAULT_JOB_WORK_TIME;
    return t.now + (span > BigInt(MAX_EXPIRY) ? least : span);
  }
  if (BigInt(expiresIn) < least) {
    refuse(
      "expiry_too_short",
      `a job judged by docket's court must live at least ${least} s (the challenge window ${t.window} s, the court's worst case ${t.maxDuration} s and ${MIN_JOB_WORK_TIME} s to do the work); ${expiresIn} s would leave work submitted late undisputable, and finalizing it would refund you`,
      {
        expiresIn,
        minExpiresIn: Number(least),
        challengeWindow: Number(t.window),
        maxDuration: Number(t.maxDuration),
        minWorkTime: Number(MIN_JOB_WORK_TIME),
      },
    );
  }
  return t.now + BigInt(expiresIn);
}

export const createJob = defineOperation({
  name: "create_job",
  title: "Create a job",
  description:
    "Create an ERC-8183 job (docs/arbitration.md) as its client: the provider who will do the work, a description, an expiry, and docket's court-backed evaluator of the `court` you choose (its disputes are judged there: the General court votes in the open, Agentic Commerce hides votes), or any `evaluator` address you name (then docket's court does not judge it). Returns the unsigned createJob transaction for `from` to sign; the new job's id is in its JobCreated event (or list_jobs?client=you). Refused up front (422 JOB_STEP_REFUSED, `details.rule`): no_evaluator_for_court, evaluator_court_mismatch, expiry_too_short (with docket's evaluator the job must outlive its challenge window, the court's worst case and an hour of work: later work could not be judged). Next: fund_job (sets the budget, approves the token, escrows it).",
  kind: "write",
  toolset: "jobs",
  http: { method: "POST", path: "/jobs" },
  input: z.object({
    from: address("The client: creates, funds and may dispute the job; it signs this transaction"),
    provider: address("The provider who will do the work and be paid on completion"),
    description: z
      .string()
      .min(1)
      .max(2000)
      .describe(
        "What the job is: the brief a court reads if the work is disputed (at most 2000 bytes; a CID of a longer one)",
      ),
    court: courtInput("The court docket's evaluator files disputes in"),
    evaluator: address("Optional: another evaluator (not docket's court) to complete or reject the job").optional(),
    expiresIn: z
      .number()
      .int()
      .min(60)
      .max(MAX_EXPIRY)
      .optional()
      .describe(
        "Seconds from now (chain time) until the job expires and a funded job can be refunded. With docket's evaluator it must cover the challenge window, the court's worst case (get_arbitration_cost's maxDuration) and an hour of work at least (else 422 expiry_too_short); the default is those plus seven days of work. The provider must submit before expiry minus window minus worst case: later work cannot be judged, and finalizing it refunds the client",
      ),
  }),
  output: unsignedTxResponse.extend({
    evaluator: z.string().describe("The job's evaluator"),
    expiredAt: z.number().int().describe("Unix seconds the job expires at"),
    next: nextStep,
  }),
  errors: [...chainErrors("write"), "NOT_FOUND", "JOB_STEP_REFUSED"],
  example: {
    from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    provider: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    description: "Summarize the Q3 shipping logs",
    court: 2,
  },
  handler: async (i, ctx) => {
    const a = requireArbitration(ctx);
    const court = i.court ?? GENERAL_COURT;
    const evaluator = i.evaluator ?? a.evaluators.find((e) => e.courtId === court)?.address;
    if (!evaluator) {
      refuse("no_evaluator_for_court", `docket has no evaluator filing disputes in court ${court}`, {
        court,
        evaluators: a.evaluators.map((e) => ({ court: e.courtId, address: e.address })),
      });
    }
    if (i.evaluator && i.court !== undefined && evaluatorOf(a, i.evaluator)?.courtId !== i.court) {
      refuse("evaluator_court_mismatch", "give `court` (docket's evaluator of that court) or `evaluator`, not both", {
        court: i.court,
        evaluator: i.evaluator,
      });
    }
    const expiredAt = await expiryOf(ctx.chain, a, evaluator, i.expiresIn);
    const tx = await buildUnsignedTx(ctx.chain, {
      to: a.commerce,
      abi: agenticCommerceAbi,
      functionName: "createJob",
      args: [i.provider, evaluator, expiredAt, i.description, zeroAddress],
      from: i.from,
      action: `Creates an ERC-8183 job for provider ${i.provider}, evaluated by ${evaluator}`,
    });
    return new Answer(
      {
        ...tx,
        evaluator,
        expiredAt: Number(expiredAt),
        next: {
          operation: fundJob.name,
          http: routeOf(fundJob, "{id}"),
          description:
            "Once mined, take the job id from the JobCreated event (or list_jobs?client=you) and fund it with a budget",
        },
      },
      { invalidate: staleKeys({ job: true }) },
    );
  },
});
