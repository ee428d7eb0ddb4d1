import { z } from "zod";
import { readCaseEvidence } from "../chain/reads.js";
import { DocketError } from "../errors/errors.js";
import { caseAddress } from "./cases.shared.js";
import { keyOf } from "./keys.js";
import { Answer, chainErrors, defineOperation } from "./operation.js";

export const getCaseEvidence = defineOperation({
  name: "get_case_evidence",
  title: "List a case's evidence",
  description:
    "The evidence content hashes the parties added after filing (submit_evidence), oldest first, with who added each and when. The hash given at filing is the case's evidenceIpfsHash (get_case).",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/cases/:address/evidence" },
  input: z.object({ address: caseAddress }),
  errors: [...chainErrors("read"), "CASE_NOT_FOUND"],
  output: z.object({
    address: z.string(),
    evidence: z.array(z.object({ hash: z.string(), submitter: z.string(), submittedAt: z.number().int() })),
  }),
  cache: { key: (i) => keyOf.evidence(i.address) },
  handler: async ({ address }, ctx) => {
    const evidence = await readCaseEvidence(ctx.court, address);
    if (!evidence) throw new DocketError("CASE_NOT_FOUND", `no case at ${address}`, { address });
    return new Answer(
      {
        address,
        evidence: evidence.map((e) => ({
          hash: e.hash,
          submitter: e.submitter,
          submittedAt: Number(e.submittedAt),
        })),
      },
      { ttl: 60 },
    );
  },
});
