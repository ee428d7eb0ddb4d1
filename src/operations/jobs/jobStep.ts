import { z } from "zod";
import type { ErrorCode } from "../../errors/errors.js";
import { type Staleness, staleKeys } from "../../freshness/stale.js";
import { buildUnsignedTx, type TxRequest } from "../../tx/unsignedTx.js";
import { Answer, type Ctx, chainErrors, defineOperation, type Operation } from "../kernel/operation.js";
import { unsignedTxResponse } from "../kernel/schemas.js";
import { JOB_ERRORS, type JobRead, jobId, nextStep, requireArbitration, requireJob } from "./job.js";

/** What a step sends, what its answer adds beside the transaction, and what it makes stale beyond the job. */
export interface JobCall<Answer = Record<string, unknown>> extends Omit<TxRequest, "from"> {
  /** Fields of the answer besides unsigned_tx and instructions, `next` among them. */
  answer: Answer & { next: z.infer<typeof nextStep> };
  /** Staleness beyond the job's own (the freshness table's kinds). */
  alsoStale?: Omit<Staleness, "job">;
}

/** The values of an answer's declared fields. */
type OutputOf<Out extends z.ZodRawShape> = { [K in keyof Out]: z.output<Out[K]> };

/**
 * The shape shared by every step on one ERC-8183 job: a docket serving no arbitration says so
 * first; then the checks on the input alone; then the job, read fresh (404 JOB_NOT_FOUND); then the
 * step's own refusals (422 JOB_STEP_REFUSED, `refuse`) and its call, simulated as `from` and
 * answered as an unsigned transaction with `next`, making the job's keys stale.
 */
export function defineJobStep<Fields extends z.ZodRawShape, Out extends z.ZodRawShape, Checked = undefined>(spec: {
  name: string;
  title: string;
  description: string;
  /** The route below the job: "fund" serves POST /jobs/:id/fund. */
  path: string;
  /** The input besides `id`, `from` (the signer) among them. */
  fields: Fields;
  /** Answer fields besides unsigned_tx, instructions and `next`. */
  output: Out;
  /** Codes raised beyond those of every job step. */
  errors?: readonly ErrorCode[];
  example?: Record<string, unknown>;
  /** Checks on the input alone, before the chain is read; what it returns goes to `call`. */
  check?: (input: z.output<z.ZodObject<Fields>> & { id: number }) => Checked;
  /** The step's refusals and the call it makes, from the input and the job as it is now. */
  call: (
    input: z.output<z.ZodObject<Fields>> & { id: number },
    job: JobRead,
    ctx: Ctx,
    checked: Checked,
  ) => Promise<JobCall<OutputOf<Out>>> | JobCall<OutputOf<Out>>;
}): Operation {
  type In = z.output<z.ZodObject<Fields>> & { id: number; from?: TxRequest["from"] };
  return defineOperation({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    kind: "write",
    toolset: "jobs",
    http: { method: "POST", path: `/jobs/:id/${spec.path}` },
    input: z.object({ id: jobId, ...spec.fields }),
    output: unsignedTxResponse.extend({ ...spec.output, next: nextStep }),
    errors: [...chainErrors("write"), ...JOB_ERRORS, "JOB_STEP_REFUSED", ...(spec.errors ?? [])],
    example: spec.example as never,
    handler: async (raw, ctx) => {
      const i = raw as In;
      requireArbitration(ctx);
      const checked = spec.check ? spec.check(i) : (undefined as Checked);
      const r = await requireJob(ctx, i.id);
      const { answer, alsoStale, ...call } = await spec.call(i, r, ctx, checked);
      const tx = await buildUnsignedTx(ctx.chain, { ...call, from: i.from });
      return new Answer({ ...tx, ...answer } as never, { invalidate: staleKeys({ ...alsoStale, job: i.id }) });
    },
  }) as unknown as Operation;
}
