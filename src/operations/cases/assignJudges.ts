import { z } from "zod";
import { caseFactoryAbi } from "../../chain/abi/generated.js";
import { staleKeys } from "../../freshness/stale.js";
import { buildUnsignedTx } from "../../tx/unsignedTx.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { address, from, unsignedTxResponse } from "../kernel/schemas.js";
import { caseAddress, requireCase } from "./case.js";

export const assignJudges = defineOperation({
  name: "assign_judges",
  title: "Assign judges (owner override)",
  description:
    "The court owner's manual override, on a dev or test deployment only (a factory deployed with manualSeating; a production factory refuses it with ManualSeatingOff): seat exactly 3 judges (5 on appeal) on an Active (or Appealed) case. Each must be an eligible staked judge, not a party, not repeated, and on appeal not a judge of the first round. Anyone else should use assign_judges_random. Returns an unsigned transaction for the owner's wallet.",
  kind: "write",
  toolset: "cases",
  http: { method: "POST", path: "/cases/:address/assign-judges" },
  input: z.object({
    address: caseAddress,
    judges: z.array(address("Judge address")).min(3).max(5).describe("3 judges, or 5 on appeal"),
    from,
  }),
  output: unsignedTxResponse,
  errors: [...chainErrors("write"), "CASE_NOT_FOUND"],
  handler: async ({ address: caseAddr, judges, from: signer }, ctx) => {
    const v = await requireCase(ctx, caseAddr);
    const tx = await buildUnsignedTx(ctx.chain, {
      to: ctx.chain.factory,
      abi: caseFactoryAbi,
      functionName: "assignJudges",
      args: [caseAddr, judges],
      from: signer,
      action: "Seats the given judges on the case",
    });
    return new Answer(tx, {
      invalidate: staleKeys({ case: v.addr, draw: judges }),
    });
  },
});
