import { z } from "zod";
import { courtRegistryAbi } from "../../chain/abi/generated.js";
import { readJudge } from "../../chain/reads/judges.js";
import { DocketError } from "../../errors/errors.js";
import { staleKeys } from "../../freshness/stale.js";
import { buildUnsignedTx } from "../../tx/unsignedTx.js";
import { courtInput, courtsOf, findCourt, GENERAL_COURT } from "../courts/court.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { address, amount, unsignedTxResponse } from "../kernel/schemas.js";

export const stakeAsJudge = defineOperation({
  name: "stake_as_judge",
  title: "Stake as a judge",
  description:
    "Join (or top up in) a court's judge pool by staking the chain's coin: `amount` in wei is sent with the transaction, into `court` (default 1, the General court; list_courts lists them). Your stake in that court must total at least the court's minJudgeStake, else STAKE_BELOW_MINIMUM (422). A stake in a court also makes you eligible in every court above it (a judge of Agentic Commerce is drawn in the General court too), never below. Eligible judges can be drawn onto cases, earn rewards for voting with the majority and are slashed for voting against it or not voting. Returns an unsigned transaction for `address` to sign.",
  kind: "write",
  toolset: "judges",
  http: { method: "POST", path: "/judges/stake" },
  input: z.object({
    address: address("The judge's address: the account that signs and stakes"),
    amount: amount("Wei to stake"),
    court: courtInput("The court to stake in"),
  }),
  output: unsignedTxResponse,
  errors: [...chainErrors("write"), "STAKE_BELOW_MINIMUM", "COURT_NOT_FOUND"],
  example: { address: "0xBcd4042DE499D14e55001CcbB24a551F3b954096", amount: "100000000000000000" },
  handler: async ({ address: who, amount: raw, court: id = GENERAL_COURT }, ctx) => {
    const value = BigInt(raw);
    const [{ courtStakes }, courts] = await Promise.all([readJudge(ctx.chain, who), courtsOf(ctx)]);
    const court = findCourt(courts, id);
    const minimum = court.config.minJudgeStake;
    const current = courtStakes.find((s) => Number(s.court) === id)?.stake ?? 0n;
    const total = current + value;
    if (value === 0n || total < minimum) {
      throw new DocketError(
        "STAKE_BELOW_MINIMUM",
        `a judge's stake in court ${id} (${court.name}) must total at least ${minimum} wei; this would make it ${total}`,
        { court: { id, name: court.name }, minimum: minimum.toString(), currentStake: current.toString(), amount: raw },
      );
    }
    const tx = await buildUnsignedTx(ctx.chain, {
      to: ctx.chain.registry,
      abi: courtRegistryAbi,
      functionName: "stakeAsJudge",
      args: [BigInt(id)],
      value,
      from: who,
      action: `Stakes ${raw} wei as a judge in court ${id} (${court.name})`,
    });
    return new Answer(tx, { invalidate: staleKeys({ judge: who }) });
  },
});
