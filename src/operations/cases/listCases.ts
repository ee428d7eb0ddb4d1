import { z } from "zod";
import { readCasePage } from "../../chain/reads/cases.js";
import { keyOf } from "../../freshness/keys.js";
import { Answer, defineOperation } from "../kernel/operation.js";
import { paginationInput } from "../kernel/schemas.js";

export const listCases = defineOperation({
  name: "list_cases",
  title: "List cases",
  description:
    "List case contract addresses in filing order, a page at a time, with the total count. Next: read a case with get_case. For cases waiting on judges' votes use list_pending_cases instead.",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/cases" },
  input: z.object(paginationInput),
  output: z.object({
    total: z.number().int(),
    cases: z.array(z.string()),
    offset: z.number().int(),
    limit: z.number().int(),
  }),
  cache: { key: (i) => keyOf.cases(i.offset, i.limit) },
  example: { limit: 20, offset: 0 },
  handler: async ({ limit, offset }, ctx) => {
    const { total, page } = await readCasePage(ctx.chain, offset, limit);
    return new Answer({ total, cases: [...page], offset, limit }, { ttl: 30 });
  },
});
