import type { Address } from "viem";
import { z } from "zod";
import { disputeCaseAbi } from "../../chain/abi/generated.js";
import type { CaseView } from "../../chain/reads/cases.js";
import type { ErrorCode } from "../../errors/errors.js";
import { staleKeys } from "../../freshness/stale.js";
import { buildUnsignedTx } from "../../tx/unsignedTx.js";
import { Answer, type Ctx, chainErrors, defineOperation, type Operation } from "../kernel/operation.js";
import { from, unsignedTxResponse } from "../kernel/schemas.js";
import { caseAddress, requireCase } from "./case.js";

type CaseFn =
  | "respond"
  | "submitEvidence"
  | "vote"
  | "commitVote"
  | "revealVote"
  | "resolveAfterDeadline"
  | "triggerDefault"
  | "appeal"
  | "settle";

/** What a write sends: the arguments and value, another function when the case calls for it, and more to say. */
export interface CaseCall {
  args?: readonly unknown[];
  value?: bigint;
  functionName?: CaseFn;
  action?: string;
  /** Fields added to the response beside unsigned_tx (declared in the spec's `extraOutput`). */
  extra?: Record<string, unknown>;
}

/**
 * The shape shared by every write on one case contract: check the case exists (404 otherwise),
 * build the call, simulate it as `from` when given, and invalidate exactly what it changes.
 */
export function defineCaseWrite<Extra extends z.ZodRawShape, Out extends z.ZodRawShape = {}>(spec: {
  name: string;
  title: string;
  description: string;
  path: string;
  fields: Extra;
  functionName: CaseFn;
  action: string;
  /** The call's arguments and value, from the input and the case as it is now. */
  call: (
    input: z.output<z.ZodObject<Extra>> & { address: Address; from?: Address },
    v: CaseView,
    ctx: Ctx,
  ) => Promise<CaseCall> | CaseCall;
  /** Response fields beyond unsigned_tx and instructions. */
  extraOutput?: Out;
  /** Whether the change can conclude the case (moves judge and party records too). */
  concluding?: boolean;
  /** Codes `call` raises beyond those of every case write. */
  errors?: readonly ErrorCode[];
  example?: Record<string, unknown>;
}): Operation {
  const input = z.object({ address: caseAddress, ...spec.fields, from });
  return defineOperation({
    name: spec.name,
    title: spec.title,
    description: `${spec.description} Returns an unsigned transaction: sign it with your own wallet and broadcast it; docket never signs. Pass \`from\` to have the call checked first (a refusal comes back as CONTRACT_REVERT with the contract's reason).`,
    kind: "write",
    toolset: "cases",
    http: { method: "POST", path: spec.path },
    input,
    output: spec.extraOutput ? unsignedTxResponse.extend(spec.extraOutput) : unsignedTxResponse,
    example: spec.example as never,
    errors: [...chainErrors("write"), "CASE_NOT_FOUND", ...(spec.errors ?? [])],
    handler: async (raw, ctx) => {
      const i = raw as z.output<z.ZodObject<Extra>> & { address: Address; from?: Address };
      const v = await requireCase(ctx, i.address);
      const { args, value, functionName, action, extra } = await spec.call(i, v, ctx);
      const tx = await buildUnsignedTx(ctx.chain, {
        to: i.address,
        abi: disputeCaseAbi,
        functionName: functionName ?? spec.functionName,
        args,
        value,
        from: i.from,
        action: action ?? spec.action,
      });
      return new Answer(extra ? { ...tx, ...extra } : tx, {
        invalidate: staleKeys(spec.concluding ? { case: v.addr, concluded: v } : { case: v.addr }),
      });
    },
  }) as unknown as Operation;
}
