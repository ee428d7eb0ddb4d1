import { readCaseMinimumStake } from "../../chain/reads/cases.js";
import { DocketError } from "../../errors/errors.js";
import { amount } from "../kernel/schemas.js";
import { defineCaseWrite } from "./caseWrite.js";

export const respondToCase = defineCaseWrite({
  name: "respond_to_case",
  title: "Respond to a summons",
  description:
    "As the defendant of a Summoned case, answer before the response deadline by staking (wei, at least the minimum party stake; default the minimum). The case becomes Active and judges can be drawn. Not answering lets anyone trigger_default, and the plaintiff wins.",
  path: "/cases/:address/respond",
  fields: { stake: amount("Your stake in wei (default: the minimum party stake)").optional() },
  functionName: "respond",
  action: "Answers the summons with your stake",
  example: { stake: "10000000000000000" },
  errors: ["STAKE_BELOW_MINIMUM"],
  call: async (i, v, ctx) => {
    // The case's own terms, frozen at filing, set its minimum.
    const min = await readCaseMinimumStake(ctx.chain, v.addr);
    const stake = i.stake === undefined ? min : BigInt(i.stake);
    if (stake < min) {
      throw new DocketError("STAKE_BELOW_MINIMUM", `stake ${stake} is below the minimum party stake ${min}`, {
        minimum: min.toString(),
        given: stake.toString(),
      });
    }
    return { value: stake };
  },
});
