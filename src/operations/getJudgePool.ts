import { z } from "zod";
import { readJudgePool } from "../chain/reads.js";
import { courtInput, courtRef, findCourt, GENERAL_COURT, refOf } from "./courts.shared.js";
import { countedIn, formatJudge, isWithin, judgeSchema } from "./judges.shared.js";
import { keyOf } from "./keys.js";
import { Answer, chainErrors, defineOperation } from "./operation.js";

export const getJudgePool = defineOperation({
  name: "get_judge_pool",
  title: "Judge pool",
  description:
    "The judges of one court's pool (`court`, default 1: the General court, whose pool holds every eligible judge): each with its stake, its stake per court, the stake counted in this court's draws (its eligible stakes in this court and the courts below it), eligibility, open cases, votes, rewards and slashes; plus the court's minimum judge stake (wei). Random panels of a case are drawn from its court's eligible judges, weighted by counted stake. Next: stake_as_judge to join.",
  kind: "read",
  toolset: "judges",
  http: { method: "GET", path: "/judges/pool" },
  input: z.object({ court: courtInput("Whose pool") }),
  output: z.object({
    court: courtRef,
    minimumStake: z.string().describe("The court's minimum judge stake, wei"),
    total: z
      .number()
      .int()
      .describe(
        "Judges listed: every judge with a stake in the General court; else those with a stake in this court or below",
      ),
    eligible: z.number().int().describe("Judges who can be drawn in this court"),
    totalStake: z.string().describe("Stake counted in this court's draws, wei"),
    judges: z.array(
      judgeSchema.extend({
        stakeInCourt: z.string().describe("Stake counted in this court's draws, wei"),
        eligibleInCourt: z.boolean().describe("Can be drawn in this court"),
      }),
    ),
  }),
  errors: [...chainErrors("read"), "COURT_NOT_FOUND"],
  cache: { key: (i) => keyOf.judgePool(i.court ?? GENERAL_COURT) },
  handler: async ({ court: id = GENERAL_COURT }, ctx) => {
    const { pool, courts, courtStakes } = await readJudgePool(ctx.court);
    const court = findCourt(courts, id);
    const judges = pool
      .map((j, i) => {
        const stakes = courtStakes[i] ?? [];
        const counted = countedIn(stakes, courts, court.id);
        return {
          ...formatJudge(j, stakes, courts),
          stakeInCourt: counted.toString(),
          eligibleInCourt: counted > 0n,
          stakes,
        };
      })
      .filter((j) => id === GENERAL_COURT || j.stakes.some((s) => isWithin(courts, s.court, court.id)))
      .map(({ stakes: _s, ...j }) => j);
    const eligible = judges.filter((j) => j.eligibleInCourt);
    return new Answer(
      {
        court: refOf(courts, court.id),
        minimumStake: court.config.minJudgeStake.toString(),
        total: judges.length,
        eligible: eligible.length,
        totalStake: eligible.reduce((sum, j) => sum + BigInt(j.stakeInCourt), 0n).toString(),
        judges,
      },
      { ttl: 30 },
    );
  },
});
