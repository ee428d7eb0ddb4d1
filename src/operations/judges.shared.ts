import { z } from "zod";
import type { JudgeView } from "../chain/reads.js";

export const judgeSchema = z.object({
  address: z.string(),
  staked: z.string().describe("wei"),
  eligible: z.boolean().describe("Stake is at least the minimum, so the judge can be drawn"),
  activeCases: z.number().int().describe("Open cases the judge sits on; unstaking waits for 0"),
  totalAssigned: z.number().int(),
  votesCast: z.number().int(),
  rewards: z.string().describe("wei earned in total"),
  slashed: z.string().describe("wei lost in total"),
});

export function formatJudge(j: JudgeView): z.infer<typeof judgeSchema> {
  return {
    address: j.addr,
    staked: j.stake.toString(),
    eligible: j.eligible,
    activeCases: j.activeCases,
    totalAssigned: j.totalAssigned,
    votesCast: j.votesCast,
    rewards: j.rewards.toString(),
    slashed: j.slashed.toString(),
  };
}
