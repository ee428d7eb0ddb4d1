import { z } from "zod";
import { readChainTime } from "../../chain/reads/core.js";
import type { ErrorCode } from "../../errors/errors.js";
import { keyOf } from "../../freshness/keys.js";
import { readIndex } from "../../index/access.js";
import { decodeCursor, encodeCursor, keeperDuePage } from "../../index/queries/due.js";
import { keeperJobs, nextKeeperJobAt } from "../../index/queries/jobs.js";
import { courtId, courtRef, courtsOf, refOf } from "../courts/court.js";
import { dueJobOf, jobActionSchema, keeperJobActions, readDueRulingsOf, rulingAction } from "../jobs/jobActions.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { keysetPagination } from "../kernel/schemas.js";
import { actionSchema, keeperActions, nextChange, ttlUntilNextChange } from "./actions.js";
import { withFreshDraws } from "./dueFromIndex.js";

export const listKeeperActions = defineOperation({
  name: "list_keeper_actions",
  title: "Keeper actions executable now",
  description:
    "The permissionless actions any agent may execute now across the court, so cases never stall: draw a panel whose randomness is in (assign_judges_random), end an unanswered case (trigger_default), resolve a case past its deliberation deadline (resolve_after_deadline), pay out a verdict whose appeal window closed (settle_case), deliver a ruling whose callback failed (deliver_ruling) and, in `jobs`, finalize an ERC-8183 job whose challenge window closed undisputed (finalize_job). Over every open case, from docket's index (503 INDEX_UNAVAILABLE without it): the cases with a step due by chain time, the longest due first (armed draws first), a page (100 by default) per call; walk `nextCursor` until it is null (`court` keeps the cases whose current round sits in one court; `total` counts the cases due in all). Each action names the tool and HTTP route; call it (with `from` to have it simulated), sign and broadcast. Keepers earn nothing but progress.",
  kind: "read",
  // The chain (its time, fresh draws) and the index it answers from.
  errors: [...chainErrors("read"), "INDEX_UNAVAILABLE"] as ErrorCode[],
  toolset: "cases",
  http: { method: "GET", path: "/keeper/actions" },
  input: z.object({
    ...keysetPagination("Cases due per page, 1 to 100 (default 100)"),
    court: courtId(
      "Optional: only the actions on cases whose current round sits in this court (list_courts)",
    ).optional(),
    jobsCursor: keysetPagination("").cursor.describe(
      "The next page of `jobs`: the jobsNextCursor of the page before, as it came (none: the first)",
    ),
  }),
  output: z.object({
    chainTime: z.number().int().describe("Unix seconds of the block the page was read at"),
    total: z
      .number()
      .int()
      .describe("Open cases with a keeper step due by chainTime, in all (an armed draw counts while it is armed)"),
    limit: z.number().int(),
    nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
    actions: z.array(
      actionSchema.extend({
        case: z.string().describe("Case contract address"),
        court: courtRef.describe("The court whose pool seats the case's current round"),
      }),
    ),
    jobs: z
      .array(jobActionSchema)
      .describe(
        "ERC-8183 jobs (every job, from the index) whose challenge window closed undisputed, the longest due first, a page of `limit` on a first page of cases or with `jobsCursor`: finalize_job pays the provider (none with `court`)",
      ),
    jobsTotal: z.number().int().describe("Jobs anyone may finalize now, in all (not the page)"),
    jobsNextCursor: z
      .string()
      .nullable()
      .describe("Pass as `jobsCursor` for the next page of jobs; null on the last page"),
  }),
  cache: { key: (i) => keyOf.keeper(i.cursor ?? "", i.limit, i.court, i.jobsCursor) },
  handler: async ({ limit, cursor, court, jobsCursor }, ctx) => {
    const after = decodeCursor(cursor, 2);
    const [chainTime, courts, due] = await Promise.all([
      readChainTime(ctx.chain),
      courtsOf(ctx),
      readDueRulingsOf(ctx.chain),
    ]);
    const now = chainTime;
    // The jobs (no court: a job is not in one) come with the first page of cases, or when walked.
    const withJobs = after === undefined || jobsCursor !== undefined;
    const [page, jobPage, jobsNext] = await readIndex(ctx, (index) =>
      Promise.all([
        keeperDuePage(index.db, Number(now), limit, after, court),
        court === undefined ? keeperJobs(index.db, Number(now), limit, jobsCursor) : undefined,
        nextKeeperJobAt(index.db, Number(now)),
      ]),
    );
    const rows = await withFreshDraws(ctx.chain, page.rows);
    const actions = rows.flatMap(({ status: s }) =>
      keeperActions(s, now).map((a) => ({ case: s.addr, court: refOf(courts, s.courtId), ...a })),
    );
    // Rulings whose delivery failed (they are few), then the jobs to finalize; on the first page only.
    const first = after === undefined;
    if (first) {
      for (const d of due) {
        if (court !== undefined && Number(d.courtId) !== court) continue;
        actions.push({ case: d.caseAddr, court: refOf(courts, d.courtId), ...rulingAction(d.caseAddr, d.id) });
      }
    }
    const jobs = jobPage && withJobs ? keeperJobActions(jobPage.rows.map(dueJobOf), now) : [];
    const last = page.rows.at(-1);
    const body = {
      chainTime: Number(now),
      total: page.total,
      limit,
      nextCursor: last && page.rows.length === limit ? encodeCursor([last.keeper_due_at, last.filed_event_id]) : null,
      actions,
      jobs,
      jobsTotal: jobPage?.total ?? 0,
      jobsNextCursor: (withJobs && jobPage?.nextCursor) || null,
    };
    const next = [...rows.map((r) => nextChange(r.status, now)), jobsNext];
    return new Answer(body, { ttl: ttlUntilNextChange(next, now) });
  },
});
