import { z } from "zod";
import { courtRegistryAbi } from "../chain/abi/generated.js";
import { readJudge } from "../chain/reads.js";
import { DocketError } from "../errors/errors.js";
import { buildUnsignedTx } from "../tx/unsignedTx.js";
import { judgeKeys } from "./keys.js";
import { Answer, chainErrors, defineOperation } from "./operation.js";
import { address, amount, unsignedTxResponse } from "./schemas.js";

export const stakeAsJudge = defineOperation({
  name: "stake_as_judge",
  title: "Stake as a judge",
  description:
    "Join (or top up in) the judge pool by staking the chain's coin: `amount` in wei is sent with the transaction, and your total stake must reach the minimum judge stake (see get_judge_pool), else STAKE_BELOW_MINIMUM (422). Eligible judges can be drawn onto cases, earn rewards for voting with the majority and are slashed for voting against it or not voting. Returns an unsigned transaction for `address` to sign.",
  kind: "write",
  toolset: "judges",
  http: { method: "POST", path: "/judges/stake" },
  input: z.object({
    address: address("The judge's address: the account that signs and stakes"),
    amount: amount("Wei to stake"),
  }),
  output: unsignedTxResponse,
  errors: [...chainErrors("write"), "STAKE_BELOW_MINIMUM"],
  example: { address: "0xBcd4042DE499D14e55001CcbB24a551F3b954096", amount: "100000000000000000" },
  handler: async ({ address: who, amount: raw }, ctx) => {
    const value = BigInt(raw);
    const { judge, minimumStake } = await readJudge(ctx.court, who);
    const total = judge.stake + value;
    if (value === 0n || total < minimumStake) {
      throw new DocketError(
        "STAKE_BELOW_MINIMUM",
        `a judge's stake must total at least ${minimumStake} wei; this would make it ${total}`,
        { minimum: minimumStake.toString(), currentStake: judge.stake.toString(), amount: raw },
      );
    }
    const tx = await buildUnsignedTx(ctx.court, {
      to: ctx.court.registry,
      abi: courtRegistryAbi,
      functionName: "stakeAsJudge",
      args: [0n],
      value,
      from: who,
      action: `Stakes ${raw} wei as a judge`,
    });
    return new Answer(tx, { invalidate: judgeKeys(who) });
  },
});
