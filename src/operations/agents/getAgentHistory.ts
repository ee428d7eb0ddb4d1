import { getAddress } from "viem";
import { z } from "zod";
import { STATE_NAMES } from "../../chain/reads/cases.js";
import type { ErrorCode } from "../../errors/errors.js";
import { readIndex } from "../../index/access.js";
import { agentHistory } from "../../index/queries/histories.js";
import { defineOperation } from "../kernel/operation.js";
import { address } from "../kernel/schemas.js";
import { historyPage } from "./history.js";

export const getAgentHistory = defineOperation({
  name: "get_agent_history",
  title: "An agent's case history",
  description:
    "Every case an address took part in, as plaintiff, defendant or judge, newest filing first, from docket's index, with how each went for it as a party: won or lost on a verdict, won_by_default (its defendant never answered) or defaulted (it never answered), dismissed, or undecided yet. Paged by `cursor` (the page's nextCursor). For a judge's votes use get_judge_history; for the record the chain keeps, get_agent.",
  kind: "read",
  toolset: "agents",
  http: { method: "GET", path: "/agent/:address/history" },
  input: z.object({ address: address("The agent whose cases to list"), ...historyPage }),
  errors: ["INVALID_INPUT", "INDEX_UNAVAILABLE"] as ErrorCode[],
  output: z.object({
    address: z.string(),
    total: z.number().int().describe("Cases it took part in, in all"),
    limit: z.number().int(),
    nextCursor: z.string().nullable().describe("The next page's cursor; null after the last"),
    cases: z.array(
      z.object({
        case: z.string(),
        court: z.number().int(),
        filedAt: z.number().int().describe("Chain time of the filing, unix seconds"),
        state: z.enum(STATE_NAMES),
        roles: z.array(z.enum(["plaintiff", "defendant", "judge"])),
        result: z
          .enum(["won", "lost", "won_by_default", "defaulted", "dismissed", "undecided"])
          .nullable()
          .describe("How it went for the address as a party; null when it only judged the case"),
        outcome: z.enum(["PlaintiffWon", "DefendantWon", "Dismissed"]).nullable().describe("Null while undecided"),
        settled: z.boolean(),
      }),
    ),
  }),
  example: { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
  handler: async ({ address: who, limit, cursor }, ctx) => {
    const h = await readIndex(ctx, (index) => agentHistory(index.db, who.toLowerCase(), { limit, cursor }));
    return {
      address: who,
      total: h.total,
      limit,
      nextCursor: h.nextCursor,
      cases: h.items.map((c) => ({
        ...c,
        case: getAddress(c.case),
        state: c.state as (typeof STATE_NAMES)[number],
        roles: c.roles as ("plaintiff" | "defendant" | "judge")[],
        outcome: c.outcome as "PlaintiffWon" | "DefendantWon" | "Dismissed" | null,
      })),
    };
  },
});
