import { z } from "zod";
import type { CourtView } from "../../chain/reads/courts.js";
import type { CourtStake, JudgeView } from "../../chain/reads/judges.js";
import { courtRef, refOf } from "../courts/court.js";

/** A judge's own stake in one court. */
const courtStakeSchema = courtRef.extend({
  staked: z.string().describe("wei staked in this court itself"),
  eligible: z.boolean().describe("At least the court's minJudgeStake: drawn here and in every court above"),
});

export const judgeSchema = z.object({
  address: z.string(),
  staked: z.string().describe("wei, across every court"),
  eligible: z.boolean().describe("Can be drawn in the General court: an eligible stake in some court"),
  activeCases: z.number().int().describe("Open cases the judge sits on; unstaking waits for 0"),
  totalAssigned: z.number().int(),
  votesCast: z.number().int(),
  rewards: z.string().describe("wei earned in total"),
  slashed: z.string().describe("wei lost in total"),
  courts: z.array(courtStakeSchema).describe("The courts the judge staked in, with its stake in each"),
});
export type JudgeBody = z.infer<typeof judgeSchema>;

/** The judge's stake in each court it staked in, named, and whether it reaches that court's minimum. */
function stakesOf(stakes: readonly CourtStake[], courts: readonly CourtView[]) {
  return stakes.map((s) => {
    const c = courts.find((x) => x.id === s.court);
    return {
      ...refOf(courts, s.court),
      staked: s.stake.toString(),
      eligible: c !== undefined && s.stake >= c.config.minJudgeStake,
    };
  });
}

export function formatJudge(j: JudgeView, stakes: readonly CourtStake[], courts: readonly CourtView[]): JudgeBody {
  return {
    address: j.addr,
    staked: j.stake.toString(),
    eligible: j.eligible,
    activeCases: j.activeCases,
    totalAssigned: j.totalAssigned,
    votesCast: j.votesCast,
    rewards: j.rewards.toString(),
    slashed: j.slashed.toString(),
    courts: stakesOf(stakes, courts),
  };
}

/** Whether court `c` is `ancestor` or lies below it. */
export function isWithin(courts: readonly CourtView[], c: bigint, ancestor: bigint): boolean {
  for (let at: bigint | undefined = c; at !== undefined && at !== 0n; at = courts.find((x) => x.id === at)?.parent) {
    if (at === ancestor) return true;
  }
  return false;
}

/**
 * The stake a judge has counted in a court's draw pool: each of its eligible court stakes in that
 * court or below it (a stake counts up the tree, as the registry's pools do).
 */
export function countedIn(stakes: readonly CourtStake[], courts: readonly CourtView[], court: bigint): bigint {
  let sum = 0n;
  for (const s of stakes) {
    const c = courts.find((x) => x.id === s.court);
    if (c && s.stake >= c.config.minJudgeStake && isWithin(courts, s.court, court)) sum += s.stake;
  }
  return sum;
}
