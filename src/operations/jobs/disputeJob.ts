import { isAddressEqual } from "viem";
import { z } from "zod";
import { courtEvaluatorAbi } from "../../chain/abi/generated.js";
import { DocketError } from "../../errors/errors.js";
import { publishEvidence } from "../../evidence/document.js";
import { courtsOf, refOf } from "../courts/court.js";
import { address, evidenceRef } from "../kernel/schemas.js";
import { disputeBar, refuse } from "./job.js";
import { defineJobStep } from "./jobStep.js";

export const disputeJob = defineJobStep({
  name: "dispute_job",
  title: "Dispute a job's work",
  description:
    "The client disputes the provider's submitted work while the challenge window is open (docs/arbitration.md): docket's evaluator asks the arbitrator for a dispute, which opens a docket case in the evaluator's court, the client the plaintiff and the provider the defendant, its claim naming the job, its description and deliverable. Give your evidence as `evidence` (a CID from publish_evidence) or `statement` (text docket publishes for you as an ERC-1497 document). The transaction's `value` is exactly the arbitration cost (the filing fee plus one minimum party stake per judge). Refused up front (422 JOB_STEP_REFUSED, `details.rule`): not_docket_evaluator, not_submitted, already_disputed, only_client, window_closed, expires_before_ruling (the court's worst case would end after the job expires). The ruling completes the job (provider paid) or rejects it (client refunded); follow it with get_job.",
  path: "dispute",
  fields: {
    from: address("The job's client: only it may dispute, and it signs and pays"),
    evidence: evidenceRef("Your evidence: a CID (publish_evidence) of why the work falls short").optional(),
    statement: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe(
        "Or your statement as text (at most 4096 characters; publish a longer one with publish_evidence and give its CID): docket publishes it as your evidence document and files its CID",
      ),
  },
  output: {
    arbitrationCost: z.string().describe("Wei: the transaction's value"),
    evidence: z.string().describe("The evidence CID the case is filed with"),
    court: z.object({ id: z.number().int(), name: z.string() }).describe("Where the case will be judged"),
  },
  errors: ["INVALID_INPUT"],
  example: {
    from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    statement: "The summary covers Q2, not Q3 as the job asked.",
  },
  check: (i) => {
    if ((i.evidence === undefined) === (i.statement === undefined)) {
      throw new DocketError(
        "INVALID_INPUT",
        "give your evidence as exactly one of `evidence` (a CID) or `statement` (text)",
      );
    }
  },
  call: async (i, r, ctx) => {
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
    const courts = await courtsOf(ctx);
    return {
      to: ev.evaluator,
      abi: courtEvaluatorAbi,
      functionName: "disputeJob",
      args: [BigInt(i.id), evidence],
      value: ev.cost,
      action: `Disputes job ${i.id}'s work, paying the arbitration cost of ${ev.cost} wei: a case opens, you against the provider`,
      answer: {
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
      alsoStale: { filing: true },
    };
  },
});
