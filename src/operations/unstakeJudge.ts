import { z } from "zod";
import { courtRegistryAbi } from "../chain/abi/generated.js";
import { buildUnsignedTx } from "../tx/unsignedTx.js";
import { judgeKeys } from "./keys.js";
import { Answer, defineOperation } from "./operation.js";
import { address, unsignedTxResponse } from "./schemas.js";

export const unstakeJudge = defineOperation({
  name: "unstake_judge",
  title: "Unstake as a judge",
  description:
    "Withdraw your whole judge stake and leave the pool. Refused while you sit on an open case (CONTRACT_REVERT JudgeServingOnOpenCase); get_judge_stake tells whether you can. Returns an unsigned transaction for `address` to sign.",
  kind: "write",
  toolset: "judges",
  http: { method: "POST", path: "/judges/unstake" },
  input: z.object({ address: address("The judge's address: the account that signs") }),
  output: unsignedTxResponse,
  handler: async ({ address: who }, ctx) => {
    const tx = await buildUnsignedTx(ctx.court, {
      to: ctx.court.registry,
      abi: courtRegistryAbi,
      functionName: "unstake",
      from: who,
      action: "Withdraws your whole judge stake",
    });
    return new Answer(tx, { invalidate: judgeKeys(who) });
  },
});
