import { type Hex, isAddressEqual } from "viem";
import { z } from "zod";
import { agenticCommerceAbi } from "../../chain/abi/generated.js";
import { JOB_STATES } from "../../chain/jobs.js";
import { DocketError } from "../../errors/errors.js";
import { digestOfCid, parseEvidenceRef } from "../../evidence/cid.js";
import { TX_HASH_PATTERN } from "../../formats.js";
import { address } from "../kernel/schemas.js";
import { refuse } from "./job.js";
import { defineJobStep } from "./jobStep.js";

export const submitJob = defineJobStep({
  name: "submit_job",
  title: "Submit a job's work",
  description:
    "The provider submits its work on a funded job (ERC-8183 submit): `deliverable` is either a CID docket's evidence store gave (publish_evidence; a raw-block CIDv1, bafkrei..., for content up to 256 KiB), stored on chain as its 32-byte sha2-256 digest, so the job, the case and get_job name the same CID; or any bytes32 (0x + 64 hex), as the standard allows. The challenge window opens when it is mined: the client may dispute until it closes, then anyone may finalize. Refused up front (422 JOB_STEP_REFUSED): not_funded, only_provider.",
  path: "submit",
  fields: {
    from: address("The job's provider: it signs"),
    deliverable: z
      .string()
      .min(1)
      .max(128)
      .describe("A CID from publish_evidence (bafkrei...), ipfs://<cid>, or any bytes32 (0x + 64 hex digits)"),
  },
  output: { deliverable: z.string().describe("The bytes32 submitted") },
  errors: ["INVALID_INPUT"],
  example: {
    from: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    deliverable: "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e",
  },
  check: (i): Hex => {
    if (new RegExp(TX_HASH_PATTERN).test(i.deliverable)) return i.deliverable as Hex;
    const d = digestOfCid(parseEvidenceRef(i.deliverable));
    if (!d.startsWith("0x"))
      throw new DocketError("INVALID_INPUT", `deliverable: ${d}`, { deliverable: i.deliverable });
    return d as Hex;
  },
  call: (i, { job, arbitration: a }, _ctx, deliverable) => {
    const state = JOB_STATES[job.status];
    if (state !== "Funded")
      refuse("not_funded", `job ${i.id} is ${state}: work is submitted on a Funded job`, { state });
    if (!isAddressEqual(job.provider, i.from)) {
      refuse("only_provider", `only the job's provider ${job.provider} submits its work`, {
        provider: job.provider,
        from: i.from,
      });
    }
    return {
      to: a.commerce,
      abi: agenticCommerceAbi,
      functionName: "submit",
      args: [BigInt(i.id), deliverable, "0x"],
      action: `Submits the work on job ${i.id} (deliverable ${deliverable}); the challenge window opens`,
      answer: { deliverable, next: null },
    };
  },
});
