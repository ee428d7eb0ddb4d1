import { z } from "zod";
import { JOB_STATES, readJobPage, readJobs } from "../../chain/jobs.js";
import type { ErrorCode } from "../../errors/errors.js";
import { keyOf } from "../../freshness/keys.js";
import { readIndex } from "../../index/access.js";
import { findJobs } from "../../index/queries/jobs.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { address, keysetPagination, paginationInput } from "../kernel/schemas.js";
import { jobSummary, requireArbitration, summarizeJob } from "./job.js";

export const listJobs = defineOperation({
  name: "list_jobs",
  title: "List jobs",
  description:
    "List the ERC-8183 jobs of the job contract docket serves (docs/arbitration.md), newest first, a page at a time, with the total that match: each with its state, client, provider, evaluator, budget (token units), expiry and when work was submitted. Filter by `state` (Open, Funded, Submitted, Completed, Rejected, Expired), `client` and `provider` (all given must match): a filtered list is found in docket's index over every job (503 INDEX_UNAVAILABLE without it) and paged by `cursor` (pass the page's nextCursor; `offset` does not apply). Next: read one with get_job for its evaluation (challenge window, dispute, ruling).",
  kind: "read",
  toolset: "jobs",
  http: { method: "GET", path: "/jobs" },
  input: z.object({
    ...paginationInput,
    state: z.enum(JOB_STATES).optional().describe("Only jobs in this ERC-8183 state (answered from the index)"),
    client: address("Only jobs of this client (answered from the index)").optional(),
    provider: address("Only jobs of this provider (answered from the index)").optional(),
    cursor: keysetPagination("").cursor.describe(
      "A filtered list's next page: the nextCursor of the page before (answered from the index)",
    ),
  }),
  output: z.object({
    total: z.number().int().describe("Jobs that match the filters, in all"),
    jobs: z.array(jobSummary),
    offset: z.number().int().optional().describe("Without filters: the page's offset"),
    limit: z.number().int(),
    nextCursor: z
      .string()
      .nullable()
      .optional()
      .describe("With filters: the next page's cursor, null after the last page"),
  }),
  errors: [...chainErrors("read"), "NOT_FOUND", "INDEX_UNAVAILABLE"] as ErrorCode[],
  cache: {
    key: (i) =>
      keyOf.jobs(i.offset, i.limit, `${i.state ?? ""}:${i.client ?? ""}:${i.provider ?? ""}:${i.cursor ?? ""}`),
  },
  example: { limit: 20, offset: 0, state: "Submitted" },
  handler: async ({ limit, offset, state, client, provider, cursor }, ctx) => {
    const a = requireArbitration(ctx);
    if (!state && !client && !provider && cursor === undefined) {
      const { total, page } = await readJobPage(ctx.chain, a, offset, limit);
      return new Answer({ total, jobs: page.map(summarizeJob), offset, limit }, { ttl: 30 });
    }
    // Filtered: the index finds the page over every job; the page's jobs are read as the chain has
    // them now (one multicall), as get_job reads one. Not cached: the index moves with the follower.
    const found = await readIndex(ctx, (index) =>
      findJobs(index.db, { state, client: client?.toLowerCase(), provider: provider?.toLowerCase() }, limit, cursor),
    );
    const jobs = await readJobs(
      ctx.chain,
      a,
      found.rows.map((r) => BigInt(r.job_id)),
    );
    return { total: found.total, jobs: jobs.map(summarizeJob), limit, nextCursor: found.nextCursor };
  },
});
