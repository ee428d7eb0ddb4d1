import { z } from "zod";
import { readCaseStatuses } from "../chain/reads.js";
import { actionSchema, keeperSteps, nextChange, ttlUntilNextChange } from "./actions.js";
import { keyOf } from "./keys.js";
import { Answer, defineOperation } from "./operation.js";
import { paginationInput } from "./schemas.js";

const MAX_TTL = 15;

export const listKeeperActions = defineOperation({
  name: "list_keeper_actions",
  title: "Keeper steps executable now",
  description:
    "The permissionless steps any agent may execute now across the court, so cases never stall: draw a panel whose randomness is in (assign_judges_random), end an unanswered case (trigger_default), resolve a case past its deliberation deadline (resolve_after_deadline), pay out a verdict whose appeal window closed (settle_case). Scans a page of open cases (100 by default) per call; walk `nextOffset` until it is null. Each step names the tool and HTTP route; call it (with `from` to have it simulated), sign and broadcast. Keepers earn nothing but progress.",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/keeper/actions" },
  input: z.object({
    limit: paginationInput.limit.default(100).describe("Open cases scanned per page, 1 to 100 (default 100)"),
    offset: paginationInput.offset,
  }),
  output: z.object({
    chainTime: z.number().int().describe("Unix seconds of the block the page was read at"),
    total: z.number().int().describe("Open cases in all"),
    offset: z.number().int(),
    limit: z.number().int(),
    nextOffset: z.number().int().nullable().describe("Where the next page starts; null on the last page"),
    actions: z.array(actionSchema.extend({ case: z.string().describe("Case contract address") })),
  }),
  cache: { key: (i) => keyOf.keeper(i.offset, i.limit) },
  handler: async ({ limit, offset }, ctx) => {
    const page = await readCaseStatuses(ctx.court, offset, limit);
    const now = BigInt(page.chainTime);
    const actions = page.cases.flatMap((s) => keeperSteps(s, now).map((a) => ({ case: s.addr, ...a })));
    const end = offset + page.cases.length;
    const body = {
      chainTime: page.chainTime,
      total: page.total,
      offset,
      limit,
      nextOffset: end < page.total ? end : null,
      actions,
    };
    const next = page.cases.map((s) => nextChange(s, now));
    return new Answer(body, { ttl: ttlUntilNextChange(next, now, MAX_TTL) });
  },
});
