import type { AgentBody } from "../operations/agents/agent.js";
import { type JobBody, jobSchema } from "../operations/jobs/job.js";
import { unframe } from "./evidence.js";
import type { Reads, SameData, Token } from "./reads.js";

/**
 * The jobs' pages, shown when docket serves the ERC-8183 job reads (`GET /jobs`, `GET /jobs/{id}`,
 * docs/arbitration.md): a job's parties by name, its brief and deliverable as text (a party wrote
 * both: they reach the template as plain strings and leave it escaped), where the evaluation
 * stands, and the case that judges it, if any.
 */

/** Every state an ERC-8183 job can be in, in the standard's order. */
export const JOB_STATES: readonly string[] = jobSchema.shape.state.options;

interface JobRow {
  id: number;
  state: string;
  client: string;
  provider: string | null;
  budget: string;
  expiredAt: number;
  submittedAt: number | null;
  description: string;
}

export interface JobsPage {
  rows: JobRow[];
  /** The token budgets are paid in (the job contract's), and chain time for the expiries. */
  token: Token;
  chainTime: number;
  total: number;
  /** A filtered list's next page; null after the last (unfiltered lists page by offset). */
  nextCursor: string | null;
  query: JobsQuery;
  names: Map<string, AgentBody | null>;
  same: SameData;
}

export interface JobsQuery {
  state?: string;
  /** A filtered list's page (the index's keyset): the nextCursor of the page before. */
  cursor?: string;
  limit: number;
  offset: number;
}

export async function jobsPage(reads: Reads, q: JobsQuery): Promise<JobsPage> {
  const body = await reads.get<{ total: number; jobs: JobRow[]; nextCursor?: string | null }>("list_jobs", { ...q });

  const [names, token, chainTime] = await Promise.all([
    reads.names(body.jobs.flatMap((j) => [j.client, ...(j.provider ? [j.provider] : [])])),
    reads.jobToken(),
    reads.chainTime(),
  ]);
  const search = new URLSearchParams(
    Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  );
  return {
    rows: body.jobs,
    token: token ?? { address: "", symbol: "token units", decimals: 0 },
    chainTime,
    total: body.total,
    nextCursor: body.nextCursor ?? null,
    query: q,
    names,
    same: { json: `/jobs?${search}`, mcp: reads.op("list_jobs")?.name ?? "" },
  };
}

export interface JobPage {
  job: JobBody;
  /** The budget's token, so the budget reads as "25 dUSD". */
  token: Token;
  chainTime: number;
  /** The deliverable's text when it was published to docket's evidence store and is text; null otherwise. */
  deliverable: { cid: string; href: string; text: string | null } | null;
  names: Map<string, AgentBody | null>;
  same: SameData;
}

export async function jobPage(reads: Reads, id: number): Promise<JobPage> {
  const { job, chainTime } = await reads.get<{ job: JobBody; chainTime: number }>("get_job", { id });
  const [names, token] = await Promise.all([
    reads.names([job.client, ...(job.provider ? [job.provider] : [])]),
    reads.token(job.token),
  ]);
  let deliverable: JobPage["deliverable"] = null;
  if (job.deliverableCid) {
    const cid = job.deliverableCid;
    // Read and checked against its CID through the evidence read, like a court's policy; absent is no error.
    const doc = reads.op("get_evidence")
      ? await reads.get<{ text?: string }>("get_evidence", { cid }).catch(() => null)
      : null;
    deliverable = { cid, href: `/evidence/${cid}`, text: unframe(doc?.text ?? null) };
  }
  return {
    job,
    token,
    chainTime,
    deliverable,
    names,
    same: { json: `/jobs/${job.id}`, mcp: reads.op("get_job")?.name ?? "" },
  };
}

/** What the job's evaluation phase means for a person. */
export const PHASE_TEXT: Record<string, string> = {
  waiting: "Waiting for the provider's work.",
  in_window: "Work submitted: the client may dispute it until the challenge window closes.",
  finalizable: "The challenge window closed without a dispute: anyone may finalize the job, which pays the provider.",
  disputed: "The client disputed the work: a docket case is judging it.",
  ruled: "The case is final and its ruling was delivered.",
  finalized: "Finalized after the window: the provider was paid.",
  closed: "Ended without the evaluator (rejected while open, or refunded after expiry).",
};
