import { zeroAddress } from "viem";
import { z } from "zod";
import { agenticCommerceAbi } from "../chain/abi/generated.js";
import { evaluatorOf } from "../chain/jobs.js";
import { readChainTime } from "../chain/reads.js";
import { buildUnsignedTx } from "../tx/unsignedTx.js";
import { courtInput, GENERAL_COURT } from "./courts.shared.js";
import { fundJob } from "./fundJob.js";
import { arbitrationOf, nextStep, refuse, routeOf } from "./jobs.shared.js";
import { jobKeys } from "./keys.js";
import { Answer, chainErrors, defineOperation } from "./operation.js";
import { address, unsignedTxResponse } from "./schemas.js";

/** A job's default life: long enough for any dev court's worst case after a challenge window. */
const DEFAULT_EXPIRY = 30 * 24 * 3600;

export const createJob = defineOperation({
  name: "create_job",
  title: "Create a job",
  description:
    "Create an ERC-8183 job (docs/arbitration.md) as its client: the provider who will do the work, a description, an expiry, and docket's court-backed evaluator of the `court` you choose (its disputes are judged there: the General court votes in the open, Agentic Commerce hides votes), or any `evaluator` address you name (then docket's court does not judge it). Returns the unsigned createJob transaction for `from` to sign; the new job's id is in its JobCreated event (or list_jobs?client=you). Next: fund_job (sets the budget, approves the token, escrows it).",
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
      .max(365 * 24 * 3600)
      .default(DEFAULT_EXPIRY)
      .describe(
        "Seconds from now (chain time) until the job expires and a funded job can be refunded (default 30 days); leave room for the challenge window and a ruling",
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
    const a = arbitrationOf(ctx);
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
    const expiredAt = (await readChainTime(ctx.court)) + BigInt(i.expiresIn);
    const tx = await buildUnsignedTx(ctx.court, {
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
      { invalidate: jobKeys() },
    );
  },
});
