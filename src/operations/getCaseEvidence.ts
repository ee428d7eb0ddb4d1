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
    // One multicall: is it a case, and its evidence (which fails harmlessly for a non-case).
    const [isCase, evidence] = await ctx.court.reader.multicall({
      contracts: [
        { address: ctx.court.factory, abi: caseFactoryAbi, functionName: "isCase", args: [address] },
        { address, abi: disputeCaseAbi, functionName: "getEvidence" },
      ],
    });
    if (isCase.status !== "success") throw isCase.error;
    if (!isCase.result) throw new DocketError("CASE_NOT_FOUND", `no case at ${address}`, { address });
    if (evidence.status !== "success") throw evidence.error;
    return {
      address,
      evidence: evidence.result.map((e) => ({
        hash: e.hash,
        submitter: e.submitter,
        submittedAt: Number(e.submittedAt),
      })),
    };
  },
});
