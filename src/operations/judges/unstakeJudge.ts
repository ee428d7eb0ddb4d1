import { z } from "zod";
import { courtRegistryAbi } from "../../chain/abi/generated.js";
import { staleKeys } from "../../freshness/stale.js";
import { buildUnsignedTx } from "../../tx/unsignedTx.js";
import { courtId } from "../courts/court.js";
import { Answer, defineOperation } from "../kernel/operation.js";
import { address, unsignedTxResponse } from "../kernel/schemas.js";

export const unstakeJudge = defineOperation({
  name: "unstake_judge",
  title: "Unstake as a judge",
  description:
    "Withdraw your judge stake: from every court and leave the pool, or with `court` from that court only (get_judge_stake lists your stake per court). Refused while you sit on an open case (CONTRACT_REVERT JudgeServingOnOpenCase); get_judge_stake tells whether you can. Returns an unsigned transaction for `address` to sign.",
  kind: "write",
  toolset: "judges",
  http: { method: "POST", path: "/judges/unstake" },
  input: z.object({
    address: address("The judge's address: the account that signs"),
    court: courtId("Optional: withdraw only your stake in this court (default: every court)").optional(),
  }),
  output: unsignedTxResponse,
  handler: async ({ address: who, court }, ctx) => {
    const tx = await buildUnsignedTx(ctx.chain, {
      to: ctx.chain.registry,
      abi: courtRegistryAbi,
      ...(court === undefined
        ? { functionName: "unstake" as const, action: "Withdraws your whole judge stake" }
        : {
            functionName: "unstakeFrom" as const,
            args: [BigInt(court)],
            action: `Withdraws your stake in court ${court}`,
          }),
      from: who,
    });
    return new Answer(tx, { invalidate: staleKeys({ judge: who }) });
  },
});
