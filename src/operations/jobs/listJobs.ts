import { isAddressEqual } from "viem";
import { z } from "zod";
import { JOB_STATES, readAllJobs, readJobPage } from "../../chain/jobs.js";
import { keyOf } from "../../freshness/keys.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { address, paginationInput } from "../kernel/schemas.js";
import { jobSummary, requireArbitration, summarizeJob } from "./job.js";

export const listJobs = defineOperation({
  name: "list_jobs",
  title: "List jobs",
  description:
    "List the ERC-8183 jobs of the job contract docket serves (docs/arbitration.md), newest first, a page at a time, with the total that match: each with its state, client, provider, evaluator, budget (token units), expiry and when work was submitted. Filter by `state` (Open, Funded, Submitted, Completed, Rejected, Expired), `client` and `provider` (all given must match). Next: read one with get_job for its evaluation (challenge window, dispute, ruling).",
  kind: "read",
  toolset: "jobs",
  http: { method: "GET", path: "/jobs" },
  input: z.object({
    ...paginationInput,
    state: z.enum(JOB_STATES).optional().describe("Only jobs in this ERC-8183 state"),
    client: address("Only jobs of this client").optional(),
    provider: address("Only jobs of this provider").optional(),
  }),
  output: z.object({
    total: z.number().int().describe("Jobs that match the filters"),
    jobs: z.array(jobSummary),
    offset: z.number().int(),
    limit: z.number().int(),
  }),
  errors: [...chainErrors("read"), "NOT_FOUND"],
  cache: {
    key: (i) => keyOf.jobs(i.offset, i.limit, `${i.state ?? ""}:${i.client ?? ""}:${i.provider ?? ""}`),
  },
  example: { limit: 20, offset: 0, state: "Submitted" },
  handler: async ({ limit, offset, state, client, provider }, ctx) => {
    const a = requireArbitration(ctx);
    if (!state && !client && !provider) {
      const { total, page } = await readJobPage(ctx.chain, a, offset, limit);
      return new Answer({ total, jobs: page.map(summarizeJob), offset, limit }, { ttl: 30 });
    }
    // Filtered: every job is read (one request per JOB_SCAN of them, all but the first in one multicall).
    const all = await readAllJobs(ctx.chain, a);
    const hits = all.jobs.filter(
      (j) =>
        (!state || JOB_STATES[j.status] === state) &&
        (!client || isAddressEqual(j.client, client)) &&
        (!provider || isAddressEqual(j.provider, provider)),
    );
    const jobs = hits.slice(offset, offset + limit).map(summarizeJob);
    return new Answer({ total: hits.length, jobs, offset, limit }, { ttl: 30 });
  },
});
