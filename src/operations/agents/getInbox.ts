import { z } from "zod";
import { readChainTime } from "../../chain/reads/core.js";
import type { ErrorCode } from "../../errors/errors.js";
import { keyOf } from "../../freshness/keys.js";
import { readIndex } from "../../index/access.js";
import { openCasesOf } from "../../index/queries/due.js";
import { inboxJobs, nextJobChangeAt } from "../../index/queries/jobs.js";
import { caseActionsFor, caseActionsSchema, ttlUntilNextChange } from "../cases/actions.js";
import { withFreshDraws } from "../cases/dueFromIndex.js";
import { courtsOf } from "../courts/court.js";
import { dueJobOf, jobActionSchema, jobActionsFor } from "../jobs/jobActions.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { address, keysetPagination, scanPagination } from "../kernel/schemas.js";

export const getInbox = defineOperation({
  name: "get_inbox",
  title: "An address's inbox of next actions",
  description:
    "Every open case the address takes part in (plaintiff, defendant, judge of any round) with what it may or must do now: respond before the deadline, commit or cast a vote, reveal it, add evidence, appeal, and the permissionless actions on its cases (draw, default, resolve, settle); and in `jobs`, the actions due on its ERC-8183 jobs (fund, submit, dispute in the challenge window, finalize). Each case names its court; each action names the tool to call, its HTTP route, whether it is required and its deadline in chain time. Cases come due-soonest first (required actions first, by deadline; then optional ones; then cases with nothing to do, newest first), over all the address's open cases: `actionsNow` and `requiredNow` count them all, not the page; walk `nextOffset` until it is null. Answered from docket's index (503 INDEX_UNAVAILABLE without it). A stranger's inbox is empty: court-wide keeper actions are in list_keeper_actions. Subscribe to the MCP resource docket://agents/{address}/inbox, or stream GET /events?address=…, to be told when it changes.",
  kind: "read",
  // The chain (its time, fresh draws) and the index it answers from.
  errors: [...chainErrors("read"), "INDEX_UNAVAILABLE"] as ErrorCode[],
  toolset: "agents",
  http: { method: "GET", path: "/agent/:address/inbox" },
  input: z.object({
    address: address("The agent, judge or party whose inbox to read"),
    ...scanPagination("Cases per page, 1 to 100 (default 100); jobs too"),
    jobsCursor: keysetPagination("").cursor.describe(
      "The next page of `jobs`: the jobsNextCursor of the page before, as it came (none: the first)",
    ),
  }),
  output: z.object({
    address: z.string(),
    chainTime: z.number().int().describe("Unix seconds of the block the inbox was read at"),
    total: z.number().int().describe("Open cases the address takes part in"),
    offset: z.number().int(),
    limit: z.number().int(),
    nextOffset: z.number().int().nullable().describe("Where the next page starts; null on the last page"),
    actionsNow: z.number().int().describe("Actions available now on all the address's open cases (not the page)"),
    requiredNow: z.number().int().describe("Of which required (missing them costs the address)"),
    cases: z.array(caseActionsSchema),
    jobs: z
      .array(jobActionSchema)
      .describe(
        "Actions due on the address's ERC-8183 jobs (every job, from the index), the job due soonest first, a page of `limit` jobs: fund (client), submit (provider), dispute in the window (client), finalize (anyone); a disputed job's case is in `cases`",
      ),
    jobsTotal: z.number().int().describe("The address's jobs with an action now, in all (not the page)"),
    jobsNextCursor: z
      .string()
      .nullable()
      .describe("Pass as `jobsCursor` for the next page of jobs; null on the last page"),
  }),
  cache: { key: (i) => keyOf.inbox(i.address, i.offset, i.limit, i.jobsCursor) },
  handler: async ({ address: who, limit, offset, jobsCursor }, ctx) => {
    const [chainTime, courts] = await Promise.all([readChainTime(ctx.chain), courtsOf(ctx)]);
    const now = chainTime;
    const mine = who.toLowerCase();
    const [rows, jobPage, jobsNext] = await readIndex(ctx, (index) =>
      Promise.all([
        openCasesOf(index.db, who),
        inboxJobs(index.db, mine, Number(now), limit, jobsCursor),
        nextJobChangeAt(index.db, Number(now), mine),
      ]),
    );
    // Every open case of the address (few beside the court's), its actions at chain time, most urgent
    // first; the sort is stable, so cases that rank alike stay newest first: the order is the same
    // on every page of one chain time, and an offset walks it.
    const all = (await withFreshDraws(ctx.chain, rows))
      .map((r) => caseActionsFor(r.status, who, now, courts))
      .sort((a, b) => rank(a) - rank(b));
    const cases = all.slice(offset, offset + limit);
    const jobs = jobActionsFor(jobPage.rows.map(dueJobOf), who, now);
    // The counts are the cases' (all of them); job actions are listed apart, in `jobs`.
    const actions = all.flatMap((c) => c.actions);
    const end = offset + cases.length;
    const body = {
      address: who,
      chainTime: Number(now),
      total: all.length,
      offset,
      limit,
      nextOffset: end < all.length ? end : null,
      actionsNow: actions.length,
      requiredNow: actions.filter((a) => a.required).length,
      cases,
      jobs,
      jobsTotal: jobPage.total,
      jobsNextCursor: jobPage.nextCursor,
    };
    const ttl = ttlUntilNextChange([...all.map((c) => c.nextChangeAt), jobsNext], now);
    return new Answer(body, { ttl });
  },
});

/** Required first (soonest deadline first), then optional, then nothing to do. */
function rank(c: { actions: { required: boolean; deadline: number | null }[] }): number {
  const first = c.actions[0];
  if (!first) return Number.MAX_SAFE_INTEGER;
  return (first.required ? 0 : 2 ** 40) + (first.deadline ?? 2 ** 39);
}
