import { z } from "zod";
import { displayAmount } from "../../chain/reads/core.js";
import { readJudge } from "../../chain/reads/judges.js";
import { keyOf } from "../../freshness/keys.js";
import { courtRef, courtsOf, refOf } from "../courts/court.js";
import { Answer, defineOperation } from "../kernel/operation.js";
import { address } from "../kernel/schemas.js";
import { accuracyOf, RANKS, rankOf } from "./ranks.js";

export const getValidatorStats = defineOperation({
  name: "get_validator_stats",
  title: "Validator statistics",
  description: `A judge's (validator's) record: votes cast, accuracy (percentage of scored votes that agreed with the panel majority), rewards and current stake as display strings ("0.05 ETH"), rank and cases won/lost as a judge, then its stake per court. Ranks, highest first: ${RANKS.map((r) => `${r.rank} (>= ${r.minJudged} validated, >= ${r.minAccuracy}%)`).join(", ")}. An address that never judged answers zeros and UNRANKED.`,
  kind: "read",
  toolset: "judges",
  http: { method: "GET", path: "/validate/stats/:address" },
  input: z.object({ address: address("Validator (judge) address") }),
  output: z.object({
    address: z.string(),
    totalValidated: z.number().int().describe("Votes cast"),
    accuracy: z.number().int().describe("Percentage, 0-100"),
    rewards: z.string().describe('Amount and unit, e.g. "0.05 ETH"'),
    rank: z.enum(RANKS.map((r) => r.rank) as [string, ...string[]]),
    staked: z.string().describe('Amount and unit, e.g. "0.5 ETH"'),
    casesWon: z.number().int().describe("Votes that agreed with the panel majority"),
    casesLost: z.number().int().describe("Votes in the minority (slashed)"),
    courts: z
      .array(courtRef.extend({ staked: z.string().describe('Amount and unit, e.g. "0.5 ETH"') }))
      .describe("The courts the validator staked in, with its stake in each"),
  }),
  cache: { key: (i) => keyOf.judgeStats(i.address) },
  handler: async ({ address: who }, ctx) => {
    const [{ judge, courtStakes }, courts] = await Promise.all([readJudge(ctx.chain, who), courtsOf(ctx)]);
    const won = judge.majorityVotes;
    const lost = judge.minorityVotes;
    const accuracy = accuracyOf(won, lost);
    return new Answer(
      {
        address: who,
        totalValidated: judge.votesCast,
        accuracy,
        rewards: displayAmount(ctx.chain, judge.rewards),
        rank: rankOf(judge.votesCast, accuracy),
        staked: displayAmount(ctx.chain, judge.stake),
        casesWon: won,
        casesLost: lost,
        courts: courtStakes.map((s) => ({ ...refOf(courts, s.court), staked: displayAmount(ctx.chain, s.stake) })),
      },
      { ttl: 60 },
    );
  },
});
