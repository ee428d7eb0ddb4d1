import type { Address } from "viem";
import { z } from "zod";
import { evaluatorOf, readCaseArbitration, readJobOfDispute } from "../../chain/jobs.js";
import { readCaseInCourt } from "../../chain/reads/cases.js";
import { keyOf } from "../../freshness/keys.js";
import { Answer, type Ctx, defineOperation } from "../kernel/operation.js";
import { type CaseBody, caseFound, caseSchema, formatCase, isFinal, oneCaseRead } from "./case.js";

export const getCase = defineOperation({
  name: "get_case",
  title: "Get a case",
  description:
    "Read one dispute case by its contract address: parties, claim, stakes (wei strings), evidence hash, the current judges, vote counts, outcome, appeal status and its court (`court`: id and name). To check whether you are assigned as a judge, look for your address in `judges`. Next: a judge reads its court's policy (get_court with `court.id`) and votes with vote_on_case (with hidden votes: commit, then reveal_vote when votingPhase is 'reveal'); a losing party may file_appeal while appealWindowOpen is true.",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/cases/:address" },
  ...oneCaseRead,
  output: z.object({ case: caseSchema }),
  cache: { key: (i) => keyOf.case(i.address) },
  handler: async ({ address }, ctx) => {
    // Same tick: the case, the courts and its arbitration record go in one multicall.
    const [{ view, courts }, arbitration] = await Promise.all([
      readCaseInCourt(ctx.chain, address),
      caseArbitration(ctx, address),
    ]);
    const v = caseFound(view, address);
    // 300 s once nothing shown can change; while the appeal window is open, no longer than it stays open.
    let ttl = isFinal(v) ? 300 : 60;
    if (v.appealWindowOpen) ttl = Math.max(1, Math.min(ttl, Number(v.appealDeadline - v.chainTime) + 1));
    return new Answer({ case: formatCase(v, courts, await arbitration()) }, { ttl });
  },
});

/**
 * The dispute a case was born from, in two steps: the record (read with the case) and then, for a
 * dispute one of docket's evaluators opened, its job (a second request, only for such a case).
 */
async function caseArbitration(ctx: Ctx, address: Address): Promise<() => Promise<CaseBody["arbitration"]>> {
  const rec = ctx.chain.arbitration ? await readCaseArbitration(ctx.chain, address) : undefined;
  return async () => {
    const a = ctx.chain.arbitration;
    if (!rec || !a) return null;
    const evaluator = evaluatorOf(a, rec.arbitrable);
    const job = evaluator ? await readJobOfDispute(ctx.chain, evaluator.address, rec.disputeId) : undefined;
    return {
      arbitrator: rec.arbitrator,
      arbitrable: rec.arbitrable,
      disputeId: Number(rec.disputeId),
      job: job === undefined ? null : { id: Number(job), contract: a.commerce, http: `GET /jobs/${job}` },
    };
  };
}
