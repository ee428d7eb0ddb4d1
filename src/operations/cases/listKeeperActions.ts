import { z } from "zod";
import { readCaseStatuses } from "../../chain/reads/cases.js";
import { keyOf } from "../../freshness/keys.js";
import { courtId, courtRef, courtsOf, refOf } from "../courts/court.js";
import {
  jobActionSchema,
  keeperJobActions,
  nextJobChange,
  readJobActionInputsOf,
  rulingAction,
} from "../jobs/jobActions.js";
import { Answer, defineOperation } from "../kernel/operation.js";
import { scanPagination } from "../kernel/schemas.js";
import { actionSchema, keeperActions, nextChange, ttlUntilNextChange } from "./actions.js";

export const listKeeperActions = defineOperation({
  name: "list_keeper_actions",
  title: "Keeper actions executable now",
  description:
    "The permissionless actions any agent may execute now across the court, so cases never stall: draw a panel whose randomness is in (assign_judges_random), end an unanswered case (trigger_default), resolve a case past its deliberation deadline (resolve_after_deadline), pay out a verdict whose appeal window closed (settle_case), deliver a ruling whose callback failed (deliver_ruling) and, in `jobs`, finalize an ERC-8183 job whose challenge window closed undisputed (finalize_job). Scans a page of open cases (100 by default) per call; walk `nextOffset` until it is null (`court` keeps the actions on one court's cases; the page and total still count every open case). Each action names the tool and HTTP route; call it (with `from` to have it simulated), sign and broadcast. Keepers earn nothing but progress.",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/keeper/actions" },
  input: z.object({
    ...scanPagination("Open cases scanned per page, 1 to 100 (default 100)"),
    court: courtId(
      "Optional: only the actions on cases whose current round sits in this court (list_courts)",
    ).optional(),
  }),
  output: z.object({
    chainTime: z.number().int().describe("Unix seconds of the block the page was read at"),
    total: z.number().int().describe("Open cases in all"),
    offset: z.number().int(),
    limit: z.number().int(),
    nextOffset: z.number().int().nullable().describe("Where the next page starts; null on the last page"),
    actions: z.array(
      actionSchema.extend({
        case: z.string().describe("Case contract address"),
        court: courtRef.describe("The court whose pool seats the case's current round"),
      }),
    ),
    jobs: z
      .array(jobActionSchema)
      .describe(
        "ERC-8183 jobs (of the newest 200) whose challenge window closed undisputed: finalize_job pays the provider",
      ),
  }),
  cache: { key: (i) => keyOf.keeper(i.offset, i.limit, i.court) },
  handler: async ({ limit, offset, court }, ctx) => {
    const [page, courts, jobRead] = await Promise.all([
      readCaseStatuses(ctx.chain, offset, limit),
      courtsOf(ctx),
      readJobActionInputsOf(ctx.chain),
    ]);
    const now = BigInt(page.chainTime);
    const actions = page.cases
      .filter((s) => court === undefined || Number(s.courtId) === court)
      .flatMap((s) => keeperActions(s, now).map((a) => ({ case: s.addr, court: refOf(courts, s.courtId), ...a })));
    // Rulings whose delivery failed (any page: they are few), then the jobs to finalize; on the first page only.
    const first = offset === 0;
    if (first) {
      for (const d of jobRead.due) {
        if (court !== undefined && Number(d.courtId) !== court) continue;
        actions.push({ case: d.caseAddr, court: refOf(courts, d.courtId), ...rulingAction(d.caseAddr, d.id) });
      }
    }
    const jobs = first && court === undefined ? keeperJobActions(jobRead.jobs, jobRead.evaluations, now) : [];
    const end = offset + page.cases.length;
    const body = {
      chainTime: page.chainTime,
      total: page.total,
      offset,
      limit,
      nextOffset: end < page.total ? end : null,
      actions,
      jobs,
    };
    const next = [...page.cases.map((s) => nextChange(s, now)), nextJobChange(jobRead.jobs, jobRead.evaluations, now)];
    return new Answer(body, { ttl: ttlUntilNextChange(next, now) });
  },
});
