import { z } from "zod";
import { readJudge } from "../chain/reads.js";
import { formatJudge, judgeSchema } from "./judges.shared.js";
import { keyOf } from "./keys.js";
import { Answer, defineOperation } from "./operation.js";
import { address } from "./schemas.js";

export const getJudgeStake = defineOperation({
  name: "get_judge_stake",
  title: "Judge stake",
  description:
    "One judge's stake (wei), the minimum, eligibility, open cases and whether it can unstake now (only with no open cases). An address that never staked answers zeros.",
  kind: "read",
  toolset: "judges",
  http: { method: "GET", path: "/judges/stake/:address" },
  input: z.object({ address: address("Judge address") }),
  output: judgeSchema.extend({
    minimumStake: z.string().describe("wei"),
    canUnstake: z.boolean().describe("Has a stake and sits on no open case"),
  }),
  cache: { key: (i) => keyOf.judgeStake(i.address) },
  handler: async ({ address: who }, ctx) => {
    const { judge, minimumStake } = await readJudge(ctx.court, who);
    return new Answer(
      {
        ...formatJudge(judge),
        minimumStake: minimumStake.toString(),
        canUnstake: judge.stake > 0n && judge.activeCases === 0,
      },
      { ttl: 30 },
    );
  },
});
