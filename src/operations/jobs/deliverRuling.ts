import { z } from "zod";
import { docketArbitratorAbi } from "../../chain/abi/generated.js";
import { RULING_STATUSES, readCaseArbitration } from "../../chain/jobs.js";
import { staleKeys } from "../../freshness/stale.js";
import { buildUnsignedTx } from "../../tx/unsignedTx.js";
import { caseAddress, requireCase } from "../cases/case.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { from, unsignedTxResponse } from "../kernel/schemas.js";
import { refuse, requireArbitration } from "./job.js";

export const deliverRuling = defineOperation({
  name: "deliver_ruling",
  title: "Deliver a ruling again",
  description:
    "Anyone retries delivering the final ruling of a case born from a dispute (docs/arbitration.md) when the arbitrable's `rule` callback failed: the arbitrator calls it again (executeRuling), with the same bounded gas. The case itself is never blocked by a failing callback; only the escrow waits. A keeper action (list_keeper_actions lists it). Refused up front (422 JOB_STEP_REFUSED, `details.rule`): not_a_dispute (the case was filed by its plaintiff), ruling_pending (the case is not final yet), ruling_delivered (done already).",
  kind: "write",
  toolset: "jobs",
  http: { method: "POST", path: "/cases/:address/deliver-ruling" },
  input: z.object({ address: caseAddress, from }),
  output: unsignedTxResponse.extend({ disputeId: z.number().int(), arbitrable: z.string() }),
  errors: [...chainErrors("write"), "CASE_NOT_FOUND", "NOT_FOUND", "JOB_STEP_REFUSED"],
  example: {},
  handler: async (i, ctx) => {
    const a = requireArbitration(ctx);
    const [v, rec] = await Promise.all([requireCase(ctx, i.address), readCaseArbitration(ctx.chain, i.address)]);
    if (!rec)
      refuse(
        "not_a_dispute",
        `case ${i.address} was filed by its plaintiff, not through the arbitrator: it has no ruling to deliver`,
      );
    const dispute = await ctx.chain.reader.readContract({
      address: rec.arbitrator,
      abi: docketArbitratorAbi,
      functionName: "getDispute",
      args: [rec.disputeId],
    });
    const status = RULING_STATUSES[Number(dispute.status)];
    if (status !== "failed") {
      refuse(
        `ruling_${status}`,
        status === "pending"
          ? `case ${i.address} is not final yet: its ruling is delivered when it is (settle_case, or a default or dismissal)`
          : `the ruling of dispute ${rec.disputeId} was delivered already`,
        { disputeId: Number(rec.disputeId), status },
      );
    }
    const tx = await buildUnsignedTx(ctx.chain, {
      to: rec.arbitrator ?? a.arbitrator,
      abi: docketArbitratorAbi,
      functionName: "executeRuling",
      args: [rec.disputeId],
      from: i.from,
      action: `Delivers dispute ${rec.disputeId}'s ruling (${dispute.ruling}) to ${rec.arbitrable} again`,
    });
    return new Answer(
      { ...tx, disputeId: Number(rec.disputeId), arbitrable: rec.arbitrable },
      { invalidate: staleKeys({ case: v.addr, job: true }) },
    );
  },
});
