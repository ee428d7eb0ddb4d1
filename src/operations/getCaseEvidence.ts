import { z } from "zod";
import { caseFactoryAbi, disputeCaseAbi } from "../chain/abi/generated.js";
import { DocketError } from "../errors/errors.js";
import { caseAddress } from "./cases.shared.js";
import { defineOperation } from "./operation.js";

export const getCaseEvidence = defineOperation({
  name: "get_case_evidence",
  title: "List a case's evidence",
  description:
    "The evidence content hashes the parties added after filing (submit_evidence), oldest first, with who added each and when. The hash given at filing is the case's evidenceIpfsHash (get_case).",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/cases/:address/evidence" },
  input: z.object({ address: caseAddress }),
  output: z.object({
    address: z.string(),
    evidence: z.array(z.object({ hash: z.string(), submitter: z.string(), submittedAt: z.number().int() })),
  }),
  cache: { key: (i) => `evidence:${i.address}`, ttl: () => 60 },
  handler: async ({ address }, ctx) => {
    // Same tick, so the client batches both into one multicall; a non-case's getEvidence fails harmlessly.
    const [isCase, evidence] = await Promise.allSettled([
      ctx.court.reader.readContract({
        address: ctx.court.factory,
        abi: caseFactoryAbi,
        functionName: "isCase",
        args: [address],
      }),
      ctx.court.reader.readContract({ address, abi: disputeCaseAbi, functionName: "getEvidence" }),
    ]);
    if (isCase.status === "rejected") throw isCase.reason;
    if (!isCase.value) throw new DocketError("CASE_NOT_FOUND", `no case at ${address}`, { address });
    if (evidence.status === "rejected") throw evidence.reason;
    return {
      address,
      evidence: evidence.value.map((e) => ({
        hash: e.hash,
        submitter: e.submitter,
        submittedAt: Number(e.submittedAt),
      })),
    };
  },
});
