import { z } from "zod";
import { readCaseInCourt } from "../chain/reads.js";
import { caseAddress, caseFound, caseSchema, formatCase, isFinal } from "./cases.shared.js";
import { keyOf } from "./keys.js";
import { Answer, chainErrors, defineOperation } from "./operation.js";

export const getCase = defineOperation({
  name: "get_case",
  title: "Get a case",
  description:
    "Read one dispute case by its contract address: parties, claim, stakes (wei strings), evidence hash, the current judges, vote counts, outcome, appeal status and its court (`court`: id and name). To check whether you are assigned as a judge, look for your address in `judges`. Next: a judge reads its court's policy (get_court with `court.id`) and votes with vote_on_case (with hidden votes: commit, then reveal_vote when votingPhase is 'reveal'); a losing party may file_appeal while appealWindowOpen is true.",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/cases/:address" },
  input: z.object({ address: caseAddress }),
  errors: [...chainErrors("read"), "CASE_NOT_FOUND"],
  output: z.object({ case: caseSchema }),
  cache: { key: (i) => keyOf.case(i.address) },
  handler: async ({ address }, ctx) => {
    const { view, courts } = await readCaseInCourt(ctx.court, address);
    const v = caseFound(view, address);
    // 300 s once nothing shown can change; while the appeal window is open, no longer than it stays open.
    let ttl = isFinal(v) ? 300 : 60;
    if (v.appealWindowOpen) ttl = Math.max(1, Math.min(ttl, Number(v.appealDeadline - v.chainTime) + 1));
    return new Answer({ case: formatCase(v, courts) }, { ttl });
  },
});
