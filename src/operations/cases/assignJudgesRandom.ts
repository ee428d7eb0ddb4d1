import { z } from "zod";
import { caseFactoryAbi } from "../../chain/abi/generated.js";
import { staleKeys } from "../../freshness/stale.js";
import { buildUnsignedTx } from "../../tx/unsignedTx.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { from, unsignedTxResponse } from "../kernel/schemas.js";
import { caseAddress, requireCase } from "./case.js";

export const assignJudgesRandom = defineOperation({
  name: "assign_judges_random",
  title: "Draw judges at random",
  description:
    "Anyone (a keeper) may execute the draw of an Active case (3 judges) or an Appealed case (5 fresh judges): never a party, never twice, each judge's chance proportional to its stake. The draw was armed when the case became Active or Appealed and uses randomness that did not exist then (by default the hash of that block), with the judge pool as it stood then: nothing the caller sends or does changes who is drawn, and there is no seed to choose. It can run from the block after arming on (before that: CONTRACT_REVERT DrawNotReady); if 256 blocks passed, the transaction re-arms the draw instead and is sent again later. The case becomes Deliberating. Returns an unsigned transaction.",
  kind: "write",
  toolset: "cases",
  http: { method: "POST", path: "/cases/:address/assign-judges-random" },
  input: z.object({ address: caseAddress, from }),
  output: unsignedTxResponse,
  errors: [...chainErrors("write"), "CASE_NOT_FOUND"],
  handler: async ({ address: caseAddr, from: signer }, ctx) => {
    const v = await requireCase(ctx, caseAddr);
    const tx = await buildUnsignedTx(ctx.chain, {
      to: ctx.chain.factory,
      abi: caseFactoryAbi,
      functionName: "assignJudgesRandom",
      args: [caseAddr],
      from: signer,
      action: "Executes the case's armed judge draw",
      // Ready from the block after arming: the one this transaction lands in, not the latest.
      simulateAt: "pending",
    });
    // Which judges get drawn is known only once mined, so every judge's stake view may change.
    return new Answer(tx, { invalidate: staleKeys({ case: v.addr, draw: true }) });
  },
});
