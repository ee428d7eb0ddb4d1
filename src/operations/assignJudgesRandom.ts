import { bytesToBigInt } from "viem";
import { z } from "zod";
import { caseFactoryAbi } from "../chain/abi/generated.js";
import { buildUnsignedTx } from "../tx/unsignedTx.js";
import { caseAddress, caseKeys, requireCase } from "./cases.shared.js";
import { defineOperation, HttpResult } from "./operation.js";
import { amount, from, unsignedTxResponse } from "./schemas.js";

export const assignJudgesRandom = defineOperation({
  name: "assign_judges_random",
  title: "Draw judges at random",
  description:
    "Anyone (a keeper) may draw the panel of an Active case (3 judges) or an Appealed case (5 fresh judges) at random from the eligible judge pool: never a party, never twice. The case becomes Deliberating. Returns an unsigned transaction.",
  kind: "write",
  toolset: "cases",
  http: { method: "POST", path: "/cases/:address/assign-judges-random" },
  input: z.object({
    address: caseAddress,
    seed: amount("Optional uint256 seed mixed into the draw (decimal string); random when omitted").optional(),
    from,
  }),
  output: unsignedTxResponse,
  handler: async ({ address: caseAddr, seed, from: signer }, ctx) => {
    const v = await requireCase(ctx, caseAddr);
    const s = seed === undefined ? bytesToBigInt(crypto.getRandomValues(new Uint8Array(32))) : BigInt(seed);
    const tx = await buildUnsignedTx(ctx, {
      to: ctx.court.factory,
      abi: caseFactoryAbi,
      functionName: "assignJudgesRandom",
      args: [caseAddr, s],
      from: signer,
      action: "Draws the case's judges at random",
    });
    // Which judges get drawn is known only once mined, so every judge's stake view may change.
    return new HttpResult(tx, { invalidate: [...caseKeys(v), "judgepool", "judgestake:*"] });
  },
});
