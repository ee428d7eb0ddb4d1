import { z } from "zod";
import { courtRegistryAbi } from "../chain/abi/generated.js";
import { buildUnsignedTx } from "../tx/unsignedTx.js";
import { defineOperation, HttpResult } from "./operation.js";
import { address, unsignedTxResponse } from "./schemas.js";
import { judgeKeys } from "./stakeAsJudge.js";

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
    return new HttpResult(tx, { invalidate: judgeKeys(who) });
  },
});
