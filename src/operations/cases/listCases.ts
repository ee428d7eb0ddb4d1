import { getAddress } from "viem";
import { z } from "zod";
import { readCasePage, STATE_NAMES } from "../../chain/reads/cases.js";
import type { ErrorCode } from "../../errors/errors.js";
import { CURSOR_PATTERN } from "../../formats.js";
import { keyOf } from "../../freshness/keys.js";
import { readIndex } from "../../index/access.js";
import { type CaseFilter, findCases } from "../../index/queries/cases.js";
import { courtId } from "../courts/court.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { address, paginationInput } from "../kernel/schemas.js";

/** The filters list_cases takes; any of them (or a cursor) makes it a query of the index. */
const filters = {
  party: address("Only cases this address is plaintiff or defendant of (answered from the index)").optional(),
  judge: address("Only cases this address was drawn to judge, in any round (answered from the index)").optional(),
  state: z.enum(STATE_NAMES).describe("Only cases in this state (answered from the index)").optional(),
  court: courtId("Only cases filed in this court (answered from the index)").optional(),
  filedAfter: z
    .number()
    .int()
    .min(0)
    .describe("Only cases filed at or after this chain time, unix seconds (answered from the index)")
    .optional(),
  filedBefore: z
    .number()
    .int()
    .min(0)
    .describe("Only cases filed before this chain time, unix seconds (answered from the index)")
    .optional(),
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe("Only cases whose claim has all these words (answered from the index)")
    .optional(),
  cursor: z
    .string()
    .max(64)
    .regex(new RegExp(CURSOR_PATTERN), "not a cursor: pass a page's nextCursor as it came")
    .describe("A filtered list's next page: the nextCursor of the page before (answered from the index)")
    .optional(),
};
type Filters = { [K in keyof typeof filters]?: z.output<(typeof filters)[K]> };

/** A case as a filtered list shows it. */
const caseItem = z.object({
  address: z.string(),
  court: z.number().int().describe("Court id (list_courts)"),
  state: z.enum(STATE_NAMES),
  round: z.number().int().describe("Its current round (1 before any appeal)"),
  open: z.boolean().describe("False once settled, defaulted or dismissed"),
  filedAt: z.number().int().describe("Chain time of the filing, unix seconds"),
  filedBlock: z.number().int(),
  plaintiff: z.string(),
  defendant: z.string(),
});

/** The filter as the index's query takes it (addresses lower-case), or undefined when none is given. */
function filterOf(i: Filters): CaseFilter | undefined {
  const f: CaseFilter = {
    party: i.party?.toLowerCase(),
    judge: i.judge?.toLowerCase(),
    state: i.state,
    court: i.court,
    filedAfter: i.filedAfter,
    filedBefore: i.filedBefore,
    q: i.q,
  };
  const given = Object.entries(f).filter(([, v]) => v !== undefined);
  return given.length === 0 && i.cursor === undefined ? undefined : Object.fromEntries(given);
}

export const listCases = defineOperation({
  name: "list_cases",
  title: "List cases",
  description:
    "List case contract addresses in filing order, a page at a time, with the total count. With any filter (party, judge, state, court, filedAfter, filedBefore, q for words of the claim; combinable) the list comes from docket's index instead: newest filing first, each case in `items` with its court, state and parties, paged by `cursor` (pass the page's nextCursor; `offset` does not apply). Next: read a case with get_case or its history with get_case_timeline. For cases waiting on judges' votes use list_pending_cases instead.",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/cases" },
  input: z.object({ ...paginationInput, ...filters }),
  output: z.object({
    total: z.number().int().describe("Cases in all (with filters: every case matching them)"),
    cases: z.array(z.string()).describe("Case addresses, this page"),
    offset: z.number().int().optional().describe("Without filters: the page's offset"),
    limit: z.number().int(),
    items: z.array(caseItem).optional().describe("With filters: each case of `cases`, to list it"),
    nextCursor: z
      .string()
      .nullable()
      .optional()
      .describe("With filters: the next page's cursor, null after the last page"),
  }),
  errors: [...chainErrors("read"), "INVALID_INPUT", "INDEX_UNAVAILABLE"] as ErrorCode[],
  cache: {
    key: (i) => {
      const f = filterOf(i);
      return f
        ? keyOf.caseQuery(JSON.stringify({ ...f, cursor: i.cursor, limit: i.limit }))
        : keyOf.cases(i.offset, i.limit);
    },
  },
  example: { limit: 20, offset: 0 },
  handler: async (input, ctx) => {
    const { limit, offset } = input;
    const filter = filterOf(input);
    if (!filter) {
      const { total, page } = await readCasePage(ctx.chain, offset, limit);
      return new Answer({ total, cases: [...page], offset, limit }, { ttl: 30 });
    }
    // `offset` does not apply to a filtered list (its pages are keyed by `cursor`): it is ignored.
    // Not cached (no ttl): the index moves with the follower, not with the cache's invalidations.
    const found = await readIndex(ctx, (index) => findCases(index.db, filter, { limit, cursor: input.cursor }));
    const items = found.items.map((c) => ({
      ...c,
      address: getAddress(c.address),
      plaintiff: getAddress(c.plaintiff),
      defendant: getAddress(c.defendant),
      state: c.state as (typeof STATE_NAMES)[number],
    }));
    return { total: found.total, cases: items.map((c) => c.address), limit, items, nextCursor: found.nextCursor };
  },
});
