import { z } from "zod";
import { STATE_NAMES } from "../../chain/reads/cases.js";
import { readOverview } from "../../chain/reads/system.js";
import { keyOf } from "../../freshness/keys.js";
import { courtRef, refOf } from "../courts/court.js";
import { Answer, defineOperation } from "../kernel/operation.js";

export const getStatsOverview = defineOperation({
  name: "get_stats_overview",
  title: "Global statistics",
  description:
    "Court-wide numbers: cases in total and per state, open cases, registered agents, judges (all and eligible), total judge stake and treasury (wei strings), the General court's minimums and fees, each court's pool (judges, stake) and voting rule, and the block they were read at.",
  kind: "read",
  toolset: "system",
  http: { method: "GET", path: "/stats/overview" },
  input: z.object({}),
  output: z.object({
    totalCases: z.number().int(),
    casesByState: z.record(z.string(), z.number().int()),
    openCases: z.number().int().describe("Cases that can still change"),
    agents: z.number().int(),
    judges: z.object({ total: z.number().int(), eligible: z.number().int(), totalStaked: z.string() }),
    treasury: z.string().describe("Court fees and slashes held by the registry, wei"),
    fees: z.object({
      filingFee: z.string(),
      courtFeeBps: z.number().int(),
      judgeRewardBps: z.number().int(),
      slashBps: z.number().int(),
    }),
    minimums: z.object({ partyStake: z.string(), judgeStake: z.string(), appealBond: z.string() }),
    courts: z
      .array(
        courtRef.extend({
          parent: z.number().int().nullable().describe("Parent court id; null for the General court"),
          hiddenVotes: z.boolean(),
          judges: z.number().int().describe("Judges eligible in this court (staked here or below)"),
          totalStaked: z.string().describe("Stake in this court's draw pool (here and below), wei"),
          minJudgeStake: z.string().describe("wei"),
        }),
      )
      .describe("Each court's pool and voting rule (get_court has the rest)"),
    blockNumber: z.number().int(),
  }),
  cache: { key: () => keyOf.stats() },
  handler: async (_input, ctx) => {
    const { params, stats, overview, courts, blockNumber } = await readOverview(ctx.chain);
    const casesByState: Record<string, number> = {};
    STATE_NAMES.forEach((name, i) => {
      casesByState[name] = Number(stats.byState[i] ?? 0n);
    });
    return new Answer(
      {
        totalCases: Number(stats.totalCases),
        casesByState,
        openCases: Number(stats.openCases),
        agents: Number(overview.agentCount),
        judges: {
          total: Number(overview.judgeCount),
          eligible: Number(overview.eligibleJudgeCount),
          totalStaked: overview.totalJudgeStake.toString(),
        },
        treasury: overview.treasury.toString(),
        fees: {
          filingFee: params.filingFee.toString(),
          courtFeeBps: params.terms.courtFeeBps,
          judgeRewardBps: params.terms.judgeRewardBps,
          slashBps: overview.slashBps,
        },
        minimums: {
          partyStake: params.terms.minPartyStake.toString(),
          judgeStake: overview.minJudgeStake.toString(),
          appealBond: params.terms.appealBond.toString(),
        },
        courts: courts.map((c) => ({
          ...refOf(courts, c.id),
          parent: c.parent === 0n ? null : Number(c.parent),
          hiddenVotes: c.config.terms.hiddenVotes,
          judges: Number(c.judgeCount),
          totalStaked: c.totalStake.toString(),
          minJudgeStake: c.config.minJudgeStake.toString(),
        })),
        blockNumber: Number(blockNumber),
      },
      { ttl: 30 },
    );
  },
});
