import { z } from "zod";
import { courtEvaluatorAbi } from "../../chain/abi/generated.js";
import { JOB_PHASES } from "../../chain/jobs.js";
import { from } from "../kernel/schemas.js";
import { finalizePays, refuse } from "./job.js";
import { defineJobStep } from "./jobStep.js";

export const finalizeJob = defineJobStep({
  name: "finalize_job",
  title: "Finalize an undisputed job",
  description:
    "Anyone settles a submitted job once its challenge window closed without a dispute (docs/arbitration.md): docket's evaluator completes it and the escrowed budget goes to the provider, unless the court could not have judged the work (a dispute filed at the window's end would have been ruled after the job expires: the provider submitted too late), when it rejects it and the client is refunded; `pays` says which. A keeper action (list_keeper_actions lists it). Refused up front (422 JOB_STEP_REFUSED, `details.rule`): not_docket_evaluator, window_open (with when it closes), and any phase but finalizable (disputed: the ruling decides; already ruled or finalized).",
  path: "finalize",
  fields: { from },
  output: {
    pays: z
      .boolean()
      .describe(
        "True: the job completes and the provider is paid; false: the court could not have judged it (the window ended too close to expiry), the client is refunded",
      ),
  },
  example: {},
  call: (i, { job, evaluation, chainTime }) => {
    if (!evaluation) {
      refuse(
        "not_docket_evaluator",
        `job ${i.id}'s evaluator ${job.evaluator} is not docket's: it completes the job itself`,
      );
    }
    const phase = JOB_PHASES[evaluation.view.phase];
    const ends = evaluation.view.windowEndsAt;
    // The contract takes it once chain time is past the window's end; a transaction sent now lands a block later.
    const submitted = phase === "in_window" || phase === "finalizable";
    if (submitted && chainTime + 1n <= ends) {
      refuse(
        "window_open",
        `job ${i.id}'s challenge window is open until ${ends} (chain time ${chainTime}): the client may still dispute`,
        {
          windowEndsAt: Number(ends),
          chainTime: Number(chainTime),
        },
      );
    }
    if (!submitted) {
      refuse(
        `phase_${phase}`,
        `job ${i.id} is ${phase}: only a submitted, undisputed job past its window is finalized`,
        { phase },
      );
    }
    const pays = finalizePays({ job, evaluation, chainTime });
    return {
      to: evaluation.evaluator,
      abi: courtEvaluatorAbi,
      functionName: "finalize",
      args: [BigInt(i.id)],
      action: pays
        ? `Completes job ${i.id} after its undisputed challenge window: the provider is paid`
        : `Rejects job ${i.id} after its challenge window: the court could not have ruled a dispute before the job expires, so the client is refunded`,
      answer: { pays, next: null },
    };
  },
});
