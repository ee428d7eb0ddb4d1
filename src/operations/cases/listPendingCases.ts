import { z } from "zod";
import { STATE_NAMES } from "../../chain/reads/cases.js";
import type { ErrorCode } from "../../errors/errors.js";
import { keyOf } from "../../freshness/keys.js";
import { readIndex } from "../../index/access.js";
import { decodeCursor, deliberatingPage, encodeCursor } from "../../index/queries/due.js";
import { courtsOf, refOf } from "../courts/court.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { keysetPagination } from "../kernel/schemas.js";
import { caseSchema } from "./case.js";

/** A case as a judge scans for it: the case's own fields, less the free text, plus its round and deadline. */
const pendingCase = caseSchema
  .pick({
    address: true,
    state: true,
    stateIndex: true,
    plaintiff: true,
    defendant: true,
    judges: true,
    votesForPlaintiff: true,
    votesForDefendant: true,
    filedAt: true,
    court: true,
  })
  .extend({
    round: z.number().int().describe("1, or 2 after an appeal (5 judges)"),
    deliberationDeadline: z.number().int().describe("Unix seconds; votes after it are refused"),
  });

export const listPendingCases = defineOperation({
  name: "list_pending_cases",
  title: "Cases awaiting validation",
  description:
    "List the cases in Deliberating, soonest deliberation deadline first (a page, 100 by default, with the total; walk `nextCursor` until it is null): judges are seated and votes are being counted. Each entry has its court, judges and vote counts, so a judge can see at a glance where it is assigned. Answered from docket's index (503 INDEX_UNAVAILABLE without it). Next: get_case for the claim, then vote_on_case (and reveal_vote when the case hides votes).",
  kind: "read",
  // The chain (its time, fresh draws) and the index it answers from.
  errors: [...chainErrors("read"), "INDEX_UNAVAILABLE"] as ErrorCode[],
  toolset: "cases",
  http: { method: "GET", path: "/validate/pending" },
  input: z.object(keysetPagination("Page size, 1 to 100 (default 100)")),
  output: z.object({
    total: z.number().int().describe("Cases in Deliberating in all"),
    limit: z.number().int(),
    nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
    cases: z.array(pendingCase),
  }),
  cache: { key: (i) => keyOf.pending(i.cursor ?? "", i.limit) },
  handler: async ({ limit, cursor }, ctx) => {
    const after = decodeCursor(cursor, 2);
    const [{ total, rows }, courts] = await Promise.all([
      readIndex(ctx, (index) => deliberatingPage(index.db, limit, after)),
      courtsOf(ctx),
    ]);
    const cases = rows.map(({ status: s, round, filed_at }) => {
      const votes = s.votes.map(Number);
      return {
        address: s.addr,
        state: STATE_NAMES[s.state] as (typeof STATE_NAMES)[number],
        stateIndex: s.state,
        plaintiff: s.plaintiff,
        defendant: s.defendant,
        judges: [...s.judges],
        votesForPlaintiff: votes.filter((v) => v === 1).length,
        votesForDefendant: votes.filter((v) => v === 2).length,
        round,
        filedAt: filed_at,
        court: refOf(courts, s.courtId),
        deliberationDeadline: Number(s.deliberationDeadline),
      };
    });
    const last = rows.at(-1);
    const nextCursor =
      last && rows.length === limit
        ? encodeCursor([Number(last.status.deliberationDeadline), last.filed_event_id])
        : null;
    return new Answer({ total, limit, nextCursor, cases }, { ttl: 30 });
  },
});
