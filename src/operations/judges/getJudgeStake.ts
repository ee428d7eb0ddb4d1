import { z } from "zod";
import { courtRegistryAbi } from "../../chain/abi/generated.js";
import { readJudge } from "../../chain/reads/judges.js";
import { keyOf } from "../../freshness/keys.js";
import { courtsOf } from "../courts/court.js";
import { Answer, defineOperation } from "../kernel/operation.js";
import { address } from "../kernel/schemas.js";
import { formatJudge, judgeSchema } from "./judge.js";

export const getJudgeStake = defineOperation({
  name: "get_judge_stake",
  title: "Judge stake",
  description:
    "One judge's stake (wei) in all and per court (`courts`: each court it staked in, its stake there and whether it reaches that court's minimum), the General court's minimum, eligibility, open cases and whether it can unstake now (only with no open cases, and while no armed draw waits in a court its stake counts in: such a draw holds its pool until it is executed, anyone may execute it with assign_judges_random). An address that never staked answers zeros and no courts.",
  kind: "read",
  toolset: "judges",
  http: { method: "GET", path: "/judges/stake/:address" },
  input: z.object({ address: address("Judge address") }),
  output: judgeSchema.extend({
    minimumStake: z.string().describe("The General court's minimum judge stake, wei (each court's: get_court)"),
    canUnstake: z.boolean().describe("Has a stake, sits on no open case, and no waiting draw holds it"),
  }),
  cache: { key: (i) => keyOf.judgeStake(i.address) },
  handler: async ({ address: who }, ctx) => {
    const [{ judge, minimumStake, courtStakes }, courts, heldBy] = await Promise.all([
      readJudge(ctx.chain, who),
      courtsOf(ctx),
      ctx.chain.reader.readContract({
        address: ctx.chain.registry,
        abi: courtRegistryAbi,
        functionName: "drawHolding",
        args: [who],
      }),
    ]);
    return new Answer(
      {
        ...formatJudge(judge, courtStakes, courts),
        minimumStake: minimumStake.toString(),
        canUnstake: judge.stake > 0n && judge.activeCases === 0 && heldBy === 0n,
      },
      { ttl: 30 },
    );
  },
});
