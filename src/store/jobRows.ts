import type { JobsTable } from "./schema.js";

/**
 * The jobs table's half of the ingest, pure (no chain, no database): a job's row is its events
 * folded in chain order, on a step's events as on the events a reorg left (rollback.ts), so both
 * agree by construction.
 */

/** A stored court event as the fold reads it: its id, name, arguments and block time. */
export interface JobEvent {
  id: number;
  address: string;
  name: string;
  args: Record<string, unknown>;
  job_id: string | null;
  block_number: number;
  timestamp: number;
}

/** The events that make or change a job's row (the job contract's and docket's evaluators'). */
export const JOB_EVENTS = [
  "JobCreated",
  "ProviderSet",
  "BudgetSet",
  "JobFunded",
  "JobSubmitted",
  "JobCompleted",
  "JobRejected",
  "JobExpired",
  "JobDisputed",
] as const;
const FOLDED = new Set<string>(JOB_EVENTS);

/** Whether the event changes a job's row. */
export const isJobEvent = (e: { name: string; job_id: string | null }) => e.job_id !== null && FOLDED.has(e.name);

const ZERO = "0x0000000000000000000000000000000000000000";
const lower = (v: unknown) => String(v).toLowerCase();
/** A uint256 time as the table keeps it: past JS's safe integers (a job that never expires) it is capped. */
const time = (v: unknown) => {
  const n = BigInt(String(v ?? 0));
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
};

/**
 * The job's row after one more of its events; undefined while no JobCreated came (nothing to change).
 * `challengeWindow` is the evaluator's when it is one of docket's (its window is an immutable of the
 * evaluator, read once by the writer).
 */
export function foldJob(
  row: JobsTable | undefined,
  e: JobEvent,
  challengeWindow: (evaluator: string) => number | null,
): JobsTable | undefined {
  // A step written again (a replay) brings events the row holds already: they change nothing.
  if (row && e.id <= row.last_event_id) return row;
  const a = e.args;
  if (e.name === "JobCreated") {
    const evaluator = lower(a.evaluator);
    return due({
      job_id: String(e.job_id),
      contract: lower(e.address),
      client: lower(a.client),
      provider: lower(a.provider) === ZERO ? null : lower(a.provider),
      evaluator,
      state: "Open",
      budget: "0",
      expired_at: time(a.expiredAt),
      challenge_window: challengeWindow(evaluator),
      submitted_at: null,
      window_ends_at: null,
      disputed: false,
      dispute_id: null,
      case_address: null,
      due_at: null,
      keeper_due_at: null,
      created_event_id: e.id,
      created_block: e.block_number,
      last_event_id: e.id,
    });
  }
  if (!row) return undefined;
  const r: JobsTable = { ...row, last_event_id: e.id };
  switch (e.name) {
    case "ProviderSet":
      r.provider = lower(a.provider);
      break;
    case "BudgetSet":
      r.budget = String(a.amount);
      break;
    case "JobFunded":
      r.state = "Funded";
      r.budget = String(a.amount);
      break;
    case "JobSubmitted":
      r.state = "Submitted";
      r.submitted_at = e.timestamp;
      r.window_ends_at = r.challenge_window === null ? null : e.timestamp + r.challenge_window;
      break;
    case "JobCompleted":
      r.state = "Completed";
      break;
    case "JobRejected":
      r.state = "Rejected";
      break;
    case "JobExpired":
      r.state = "Expired";
      break;
    case "JobDisputed":
      r.disputed = true;
      r.dispute_id = String(a.disputeId);
      r.case_address = lower(a.caseAddr);
      break;
  }
  return due(r);
}

/** The row with its due times worked out from its state (what the inbox and keeper view order by). */
function due(r: JobsTable): JobsTable {
  const live = r.state === "Open" || r.state === "Funded";
  const submitted = r.state === "Submitted";
  return {
    ...r,
    due_at: live ? r.expired_at : submitted ? (r.window_ends_at ?? r.expired_at) : null,
    keeper_due_at: submitted && !r.disputed && r.window_ends_at !== null ? r.window_ends_at + 1 : null,
  };
}

/** Every job's row after `events` (in chain order), starting from the rows given (the stored ones). */
export function foldJobs(
  rows: ReadonlyMap<string, JobsTable>,
  events: readonly JobEvent[],
  challengeWindow: (evaluator: string) => number | null,
): Map<string, JobsTable> {
  const out = new Map<string, JobsTable>();
  for (const e of events) {
    if (!isJobEvent(e)) continue;
    const id = e.job_id as string;
    const next = foldJob(out.get(id) ?? rows.get(id), e, challengeWindow);
    if (next) out.set(id, next);
  }
  return out;
}
