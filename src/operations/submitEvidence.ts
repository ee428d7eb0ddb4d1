import { z } from "zod";
import { defineCaseWrite } from "./caseWrite.js";

export const submitEvidence = defineCaseWrite({
  name: "submit_evidence",
  title: "Submit evidence",
  description:
    "As the plaintiff or the defendant of an Active or Deliberating case, add a content hash (e.g. an IPFS CID) of more evidence. Read them back with get_case_evidence.",
  path: "/cases/:address/evidence",
  fields: {
    evidenceIpfsHash: z
      .string()
      .min(1)
      .max(128)
      .describe("Content hash of the evidence, e.g. an IPFS CID (1-128 chars)"),
  },
  functionName: "submitEvidence",
  action: "Adds your evidence hash to the case",
  example: { evidenceIpfsHash: "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi" },
  call: (i) => ({ args: [i.evidenceIpfsHash] }),
});
