import { defineCaseWrite } from "../cases/caseWrite.js";
import { evidenceRef } from "../kernel/schemas.js";

export const submitEvidence = defineCaseWrite({
  name: "submit_evidence",
  title: "Submit evidence",
  description:
    "As the plaintiff or the defendant of an Active or Deliberating case, add more evidence by its IPFS CID (publish it first with publish_evidence; up to 16 items per party and round). Read them back with get_case_evidence.",
  path: "/cases/:address/evidence",
  fields: {
    evidenceIpfsHash: evidenceRef(
      "The evidence: an IPFS CID, ipfs://<cid> or /ipfs/<cid> (publish_evidence gives one; its evidence document's CID is best)",
    ),
  },
  functionName: "submitEvidence",
  action: "Adds your evidence to the case",
  example: { evidenceIpfsHash: "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e" },
  call: (i) => ({ args: [i.evidenceIpfsHash] }),
});
