import { getAddress } from "viem";
import { z } from "zod";
import type { ErrorCode } from "../../errors/errors.js";
import { readIndex } from "../../index/access.js";
import { judgeHistory } from "../../index/queries/histories.js";
import { historyPage } from "../agents/history.js";
import { defineOperation } from "../kernel/operation.js";
import { address } from "../kernel/schemas.js";

export const getJudgeHistory = defineOperation({
  name: "get_judge_history",
  title: "A judge's history",
  description:
    "Every round a judge was drawn to, newest case first, from docket's index: its vote (side, justification, time), the round's verdict and whether the vote sided with it, and no-shows (a verdict came and it had cast no vote); and in `stakes` its stake's movements, newest first (staked, unstaked, slashed, rewarded, with amounts in wei and blocks). Cases are paged by `cursor` (the page's nextCursor); `stakes` holds the latest 100. For its totals as the chain keeps them, get_validator_stats.",
  kind: "read",
  toolset: "judges",
  http: { method: "GET", path: "/judges/history/:address" },
  input: z.object({ address: address("The judge whose history to read"), ...historyPage }),
  errors: ["INVALID_INPUT", "INDEX_UNAVAILABLE"] as ErrorCode[],
  output: z.object({
    address: z.string(),
    total: z.number().int().describe("Cases it was drawn to, in all"),
    limit: z.number().int(),
    nextCursor: z.string().nullable().describe("The next page's cursor; null after the last"),
    rounds: z.array(
      z.object({
        case: z.string(),
        round: z.number().int(),
        vote: z
          .enum(["plaintiff", "defendant", "committed"])
          .nullable()
          .describe("Its side once cast (revealed); committed: a hidden vote never revealed; null: no vote"),
        justification: z.string().nullable().describe("Sent with a revealed vote"),
        votedAt: z.number().int().nullable().describe("Chain time of the vote, unix seconds"),
        verdict: z.enum(["PlaintiffWon", "DefendantWon", "Dismissed"]).nullable().describe("The round's verdict"),
        withVerdict: z.boolean().nullable().describe("Whether its vote sided with the verdict; null without either"),
        noShow: z.boolean().describe("The round has its verdict and this judge cast no vote"),
      }),
    ),
    stakes: z.array(
      z.object({
        event: z.enum(["JudgeStaked", "JudgeUnstaked", "JudgeSlashed", "JudgeRewarded"]),
        amount: z.string().describe("wei, decimal string"),
        court: z.number().int().nullable().describe("The court staked in or left (staked, unstaked)"),
        case: z.string().nullable().describe("The case it was slashed or rewarded for"),
        block: z.number().int(),
        time: z.number().int().nullable().describe("Chain time, unix seconds"),
        txHash: z.string(),
      }),
    ),
  }),
  example: { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
  handler: async ({ address: who, limit, cursor }, ctx) => {
    const h = await readIndex(ctx, (index) => judgeHistory(index.db, who.toLowerCase(), { limit, cursor }));
    return {
      address: who,
      total: h.total,
      limit,
      nextCursor: h.nextCursor,
      rounds: h.rounds.map((r) => ({
        ...r,
        case: getAddress(r.case),
        verdict: r.verdict as "PlaintiffWon" | "DefendantWon" | "Dismissed" | null,
      })),
      stakes: h.stakes.map((s) => ({
        ...s,
        event: s.event as "JudgeStaked" | "JudgeUnstaked" | "JudgeSlashed" | "JudgeRewarded",
        case: s.case === null ? null : getAddress(s.case),
      })),
    };
  },
});
