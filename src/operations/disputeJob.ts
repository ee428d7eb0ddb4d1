import { isAddressEqual } from "viem";
import { z } from "zod";
import { courtEvaluatorAbi } from "../chain/abi/generated.js";
import { DocketError } from "../errors/errors.js";
import { publishEvidence } from "../evidence/document.js";
import { buildUnsignedTx } from "../tx/unsignedTx.js";
import { courtsOf, refOf } from "./courts.shared.js";
import { arbitrationOf, disputeBar, JOB_ERRORS, jobId, nextStep, refuse, requireJob } from "./jobs.shared.js";
import { filingKeys, jobKeys } from "./keys.js";
import { Answer, chainErrors, defineOperation } from "./operation.js";
import { address, evidenceRef, unsignedTxResponse } from "./schemas.js";

export const disputeJob = defineOperation({
  name: "dispute_job",
  title: "Dispute a job's work",
  description:
    "The client disputes the provider's submitted work while the challenge window is open (docs/arbitration.md): docket's evaluator asks the arbitrator for a dispute, which opens a docket case in the evaluator's court, the client the plaintiff and the provider the defendant, its claim naming the job, its description and deliverable. Give your evidence as `evidence` (a CID from publish_evidence) or `statement` (text docket publishes for you as an ERC-1497 document). The transaction's `value` is exactly the arbitration cost (the filing fee plus one minimum party stake per judge). Refused up front (422 JOB_STEP_REFUSED, `details.rule`): not_docket_evaluator, not_submitted, already_disputed, only_client, window_closed, expires_before_ruling (the court's worst case would end after the job expires). The ruling completes the job (provider paid) or rejects it (client refunded); follow it with get_job.",
  kind: "write",
  toolset: "jobs",
  http: { method: "POST", path: "/jobs/:id/dispute" },
  input: z.object({
    id: jobId,
    from: address("The job's client: only it may dispute, and it signs and pays"),
    evidence: evidenceRef("Your evidence: a CID (publish_evidence) of why the work falls short").optional(),
    statement: z
      .string()
      .min(1)
      .max(20_000)
      .optional()
      .describe("Or your statement as text: docket publishes it as your evidence document and files its CID"),
  }),
  output: unsignedTxResponse.extend({
    arbitrationCost: z.string().describe("Wei: the transaction's value"),
    evidence: z.string().describe("The evidence CID the case is filed with"),
    court: z.object({ id: z.number().int(), name: z.string() }).describe("Where the case will be judged"),
    next: nextStep,
  }),
  errors: [...chainErrors("write"), ...JOB_ERRORS, "JOB_STEP_REFUSED", "INVALID_INPUT"],
  example: {
    from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    statement: "The summary covers Q2, not Q3 as the job asked.",
  },
  handler: async (i, ctx) => {
    arbitrationOf(ctx); // a docket serving no arbitration says so first
    if ((i.evidence === undefined) === (i.statement === undefined)) {
      throw new DocketError(
        "INVALID_INPUT",
        "give your evidence as exactly one of `evidence` (a CID) or `statement` (text)",
      );
    }
    const r = await requireJob(ctx, i.id);
    const bar = disputeBar(r);
    if (bar) refuse(bar.rule, bar.message, bar.details);
    if (!isAddressEqual(r.job.client, i.from)) {
      refuse("only_client", `only the job's client ${r.job.client} may dispute it`, {
        client: r.job.client,
        from: i.from,
      });
    }
    const ev = r.evaluation as NonNullable<typeof r.evaluation>;
    let evidence = i.evidence as string;
    if (i.statement !== undefined) {
      const published = await publishEvidence(ctx.evidence, Buffer.from(i.statement, "utf8"), "text/plain", {
        name: `The client's statement on job ${i.id}`,
        description: `Why the client of ERC-8183 job ${i.id} disputes the provider's work`,
      });
      evidence = published.document.cid;
    }
    const tx = await buildUnsignedTx(ctx.court, {
      to: ev.evaluator,
      abi: courtEvaluatorAbi,
      functionName: "disputeJob",
      args: [BigInt(i.id), evidence],
      value: ev.cost,
      from: i.from,
      action: `Disputes job ${i.id}'s work, paying the arbitration cost of ${ev.cost} wei: a case opens, you against the provider`,
    });
    const courts = await courtsOf(ctx);
    return new Answer(
      {
        ...tx,
        arbitrationCost: ev.cost.toString(),
        evidence,
        court: refOf(courts, ev.court),
        next: {
          operation: "get_job",
          http: `GET /jobs/${i.id}`,
          description:
            "Once mined, get_job shows the case (get_case); the provider answers it with respond_to_case, judges are drawn, and the ruling settles the job",
        },
      },
      { invalidate: [...jobKeys(i.id), ...filingKeys()] },
    );
  },
});
