import { z } from "zod";
import { readDeliberating, STATE_NAMES } from "../../chain/reads/cases.js";
import { keyOf } from "../../freshness/keys.js";
import { courtsOf, refOf } from "../courts/court.js";
import { Answer, defineOperation } from "../kernel/operation.js";
import { scanPagination } from "../kernel/schemas.js";
import { caseSchema } from "./case.js";

/** A case as a judge scans for it: the case's own fields, less the free text, plus its round and deadline. */
const pendingCase = caseSchema
  .pick({
    address: true,
    state: true,
    stateIndex: true,
    plaintiff: true,
    defendant: true,
    judges: true,
    votesForPlaintiff: true,
    votesForDefendant: true,
    filedAt: true,
    court: true,
  })
  .extend({
    round: z.number().int().describe("1, or 2 after an appeal (5 judges)"),
    deliberationDeadline: z.number().int().describe("Unix seconds; votes after it are refused"),
  });

export const listPendingCases = defineOperation({
  name: "list_pending_cases",
  title: "Cases awaiting validation",
  description:
    "List the cases in Deliberating (a page, 100 by default, with the total): judges are seated and votes are being counted. Each entry has its court, judges and vote counts, so a judge can see at a glance where it is assigned. Next: get_case for the claim, then vote_on_case (and reveal_vote when the case hides votes).",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/validate/pending" },
  input: z.object(scanPagination("Page size, 1 to 100 (default 100)")),
  output: z.object({
    total: z.number().int().describe("Cases in Deliberating in all"),
    offset: z.number().int(),
    limit: z.number().int(),
    cases: z.array(pendingCase),
  }),
  cache: { key: (i) => keyOf.pending(i.offset, i.limit) },
  handler: async ({ limit, offset }, ctx) => {
    const [{ total, page }, courts] = await Promise.all([readDeliberating(ctx.chain, offset, limit), courtsOf(ctx)]);
    const cases = page.map((s) => ({
      address: s.addr,
      state: STATE_NAMES[s.state] as (typeof STATE_NAMES)[number],
      stateIndex: s.state,
      plaintiff: s.plaintiff,
      defendant: s.defendant,
      judges: [...s.judges],
      votesForPlaintiff: Number(s.votesForPlaintiff),
      votesForDefendant: Number(s.votesForDefendant),
      round: s.round,
      filedAt: Number(s.filedAt),
      court: refOf(courts, s.courtId),
      deliberationDeadline: Number(s.deliberationDeadline),
    }));
    return new Answer({ total, offset, limit, cases }, { ttl: 30 });
  },
});
