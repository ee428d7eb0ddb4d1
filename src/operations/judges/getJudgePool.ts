import { z } from "zod";
import { readJudgePage, readJudgePool } from "../../chain/reads/judges.js";
import { keyOf } from "../../freshness/keys.js";
import { courtInput, courtRef, findCourt, GENERAL_COURT, refOf } from "../courts/court.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { paginationInput } from "../kernel/schemas.js";
import { countedIn, formatJudge, isWithin, judgeSchema } from "./judge.js";

export const getJudgePool = defineOperation({
  name: "get_judge_pool",
  title: "Judge pool",
  description:
    "The judges of one court's pool (`court`, default 1: the General court, whose pool holds every eligible judge), a page at a time (`offset`, `limit`) with the total: each with its stake, its stake per court, the stake counted in this court's draws (its eligible stakes in this court and the courts below it), eligibility, open cases, votes, rewards and slashes; plus the court's minimum judge stake (wei). Random panels of a case are drawn from its court's eligible judges, weighted by counted stake. Next: stake_as_judge to join.",
  kind: "read",
  toolset: "judges",
  http: { method: "GET", path: "/judges/pool" },
  input: z.object({ court: courtInput("Whose pool"), ...paginationInput }),
  output: z.object({
    court: courtRef,
    minimumStake: z.string().describe("The court's minimum judge stake, wei"),
    total: z
      .number()
      .int()
      .describe(
        "Judges listed (all pages): every judge with a stake in the General court; else those with a stake in this court or below",
      ),
    eligible: z.number().int().describe("Judges who can be drawn in this court"),
    totalStake: z.string().describe("Stake counted in this court's draws, wei"),
    offset: z.number().int(),
    limit: z.number().int(),
    judges: z.array(
      judgeSchema.extend({
        stakeInCourt: z.string().describe("Stake counted in this court's draws, wei"),
        eligibleInCourt: z.boolean().describe("Can be drawn in this court"),
      }),
    ),
  }),
  errors: [...chainErrors("read"), "COURT_NOT_FOUND"],
  cache: { key: (i) => keyOf.judgePool(i.court ?? GENERAL_COURT, i.offset, i.limit) },
  example: { limit: 20, offset: 0 },
  handler: async ({ court: id = GENERAL_COURT, offset, limit }, ctx) => {
    // The General court lists every judge: one page of the chain's list. A child court lists those
    // with a stake in it or below it: the whole list, read in bounded chunks, filtered, then paged.
    const read = id === GENERAL_COURT ? await readJudgePage(ctx.chain, offset, limit) : await readJudgePool(ctx.chain);
    const { pool, courts, courtStakes } = read;
    const court = findCourt(courts, id);
    const listed = pool
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
    const judges = id === GENERAL_COURT ? listed : listed.slice(offset, offset + limit);
    return new Answer(
      {
        court: refOf(courts, court.id),
        minimumStake: court.config.minJudgeStake.toString(),
        total: id === GENERAL_COURT ? read.total : listed.length,
        // The court's own counts: judges with stake counted in its draws, and that stake.
        eligible: Number(court.judgeCount),
        totalStake: court.totalStake.toString(),
        offset,
        limit,
        judges,
      },
      { ttl: 30 },
    );
  },
});
