import { isAddressEqual } from "viem";
import { z } from "zod";
import { agenticCommerceAbi } from "../chain/abi/generated.js";
import { JOB_STATES } from "../chain/jobs.js";
import { DocketError } from "../errors/errors.js";
import { digestOfCid, parseEvidenceRef } from "../evidence/cid.js";
import { TX_HASH_PATTERN } from "../formats.js";
import { buildUnsignedTx } from "../tx/unsignedTx.js";
import { arbitrationOf, JOB_ERRORS, jobId, nextStep, refuse, requireJob } from "./jobs.shared.js";
import { jobKeys } from "./keys.js";
import { Answer, chainErrors, defineOperation } from "./operation.js";
import { address, unsignedTxResponse } from "./schemas.js";

export const submitJob = defineOperation({
  name: "submit_job",
  title: "Submit a job's work",
  description:
    "The provider submits its work on a funded job (ERC-8183 submit): `deliverable` is either a CID docket's evidence store gave (publish_evidence; a raw-block CIDv1, bafkrei..., for content up to 256 KiB), stored on chain as its 32-byte sha2-256 digest, so the job, the case and get_job name the same CID; or any bytes32 (0x + 64 hex), as the standard allows. The challenge window opens when it is mined: the client may dispute until it closes, then anyone may finalize. Refused up front (422 JOB_STEP_REFUSED): not_funded, only_provider.",
  kind: "write",
  toolset: "jobs",
  http: { method: "POST", path: "/jobs/:id/submit" },
  input: z.object({
    id: jobId,
    from: address("The job's provider: it signs"),
    deliverable: z
      .string()
      .min(1)
      .max(128)
      .describe("A CID from publish_evidence (bafkrei...), ipfs://<cid>, or any bytes32 (0x + 64 hex digits)"),
  }),
  output: unsignedTxResponse.extend({
    deliverable: z.string().describe("The bytes32 submitted"),
    next: nextStep,
  }),
  errors: [...chainErrors("write"), ...JOB_ERRORS, "JOB_STEP_REFUSED", "INVALID_INPUT"],
  example: {
    from: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    deliverable: "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e",
  },
  handler: async (i, ctx) => {
    arbitrationOf(ctx); // a docket serving no arbitration says so first
    let deliverable: `0x${string}`;
    if (new RegExp(TX_HASH_PATTERN).test(i.deliverable)) deliverable = i.deliverable as `0x${string}`;
    else {
      const d = digestOfCid(parseEvidenceRef(i.deliverable));
      if (!d.startsWith("0x"))
        throw new DocketError("INVALID_INPUT", `deliverable: ${d}`, { deliverable: i.deliverable });
      deliverable = d as `0x${string}`;
    }
    const { job, arbitration: a } = await requireJob(ctx, i.id);
    const state = JOB_STATES[job.status];
    if (state !== "Funded")
      refuse("not_funded", `job ${i.id} is ${state}: work is submitted on a Funded job`, { state });
    if (!isAddressEqual(job.provider, i.from)) {
      refuse("only_provider", `only the job's provider ${job.provider} submits its work`, {
        provider: job.provider,
        from: i.from,
      });
    }
    const tx = await buildUnsignedTx(ctx.court, {
      to: a.commerce,
      abi: agenticCommerceAbi,
      functionName: "submit",
      args: [BigInt(i.id), deliverable, "0x"],
      from: i.from,
      action: `Submits the work on job ${i.id} (deliverable ${deliverable}); the challenge window opens`,
    });
    return new Answer({ ...tx, deliverable, next: null }, { invalidate: jobKeys(i.id) });
  },
});
