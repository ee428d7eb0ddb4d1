import { z } from "zod";
import { readJudgePool } from "../chain/reads.js";
import { formatJudge, judgeSchema } from "./judges.shared.js";
import { keyOf } from "./keys.js";
import { Answer, defineOperation } from "./operation.js";

export const getJudgePool = defineOperation({
  name: "get_judge_pool",
  title: "Judge pool",
  description:
    "Every staked judge with stake, eligibility, open cases, votes, rewards and slashes, plus the minimum judge stake (wei). Random panels are drawn from the eligible ones. Next: stake_as_judge to join.",
  kind: "read",
  toolset: "judges",
  http: { method: "GET", path: "/judges/pool" },
  input: z.object({}),
  output: z.object({
    minimumStake: z.string().describe("wei"),
    total: z.number().int(),
    eligible: z.number().int(),
    judges: z.array(judgeSchema),
  }),
  cache: { key: () => keyOf.judgePool() },
  handler: async (_input, ctx) => {
    const { minimumStake, pool } = await readJudgePool(ctx.court);
    const judges = pool.map(formatJudge);
    return new Answer(
      {
        minimumStake: minimumStake.toString(),
        total: judges.length,
        eligible: judges.filter((j) => j.eligible).length,
        judges,
      },
      { ttl: 30 },
    );
  },
});
