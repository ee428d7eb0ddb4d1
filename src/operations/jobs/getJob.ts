import { z } from "zod";
import { keyOf } from "../../freshness/keys.js";
import { courtsOf } from "../courts/court.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { formatJob, JOB_ERRORS, jobId, jobIsFinal, jobSchema, requireJob } from "./job.js";

export const getJob = defineOperation({
  name: "get_job",
  title: "Get a job",
  description:
    "Read one ERC-8183 job (docs/arbitration.md) by id: client, provider, evaluator, budget (token units), expiry, the deliverable (as bytes32 and as the CID it names), and, when docket's court-backed evaluator judges it, its evaluation: the phase (waiting, in_window, finalizable, disputed, ruled, finalized, closed), when the challenge window closes, what a dispute costs now, whether the client may dispute now, and the dispute if any: its case (get_case), court, the case's state and outcome, and the ruling with its delivery (pending, delivered, failed). Next: the client disputes with dispute_job while in_window; anyone finalizes with finalize_job once finalizable; a failed delivery is retried with deliver_ruling.",
  kind: "read",
  toolset: "jobs",
  http: { method: "GET", path: "/jobs/:id" },
  input: z.object({ id: jobId }),
  output: z.object({ chainTime: z.number().int().describe("Unix seconds of the block read"), job: jobSchema }),
  errors: [...chainErrors("read"), ...JOB_ERRORS],
  cache: { key: (i) => keyOf.job(i.id) },
  example: { id: 1 },
  handler: async ({ id }, ctx) => {
    const [r, courts] = await Promise.all([requireJob(ctx, id), courtsOf(ctx)]);
    const job = formatJob(r, courts);
    const now = Number(r.chainTime);
    // 300 s once nothing shown can change; else 60 s, and never past the window's end or the expiry
    // (chain time moves the phase on without an event).
    let ttl = jobIsFinal(job) ? 300 : 60;
    for (const t of [job.evaluation?.windowEndsAt, job.expiredAt]) {
      if (!jobIsFinal(job) && t && t >= now) ttl = Math.max(1, Math.min(ttl, t - now + 1));
    }
    return new Answer({ chainTime: now, job }, { ttl });
  },
});
