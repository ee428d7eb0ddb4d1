import { getAddress } from "viem";
import { z } from "zod";
import { STATE_NAMES } from "../../chain/reads/cases.js";
import { DocketError, type ErrorCode } from "../../errors/errors.js";
import { readIndex } from "../../index/access.js";
import { caseTimeline } from "../../index/queries/timeline.js";
import { defineOperation } from "../kernel/operation.js";
import { oneCaseRead } from "./case.js";

const entry = z.object({
  kind: z
    .string()
    .describe(
      "filed, state, answered, evidence, draw_armed, panel, vote, vote_committed, vote_revealed, verdict, appeal, settled, defaulted, dismissed, payment_deferred, withdrawn, judge_rewarded, judge_slashed, dispute_filed, ruling_delivered, ruling_failed (others: the event's name)",
    ),
  event: z.string().describe("The contract event it comes from"),
  block: z.number().int(),
  time: z.number().int().nullable().describe("Chain time of its block, unix seconds"),
  txHash: z.string(),
  logIndex: z.number().int(),
  contract: z.string().describe("The contract that emitted it (the case, the factory, the registry, the arbitrator)"),
  round: z.number().int().nullable().describe("The round it belongs to, when the event names one"),
  side: z.enum(["plaintiff", "defendant"]).nullable().describe("A vote's side (vote, vote_revealed)"),
  outcome: z.string().nullable().describe("A verdict's outcome (PlaintiffWon, DefendantWon, Dismissed)"),
  state: z.string().nullable().describe("The state a `state` entry entered"),
  args: z
    .record(z.string(), z.unknown())
    .describe(
      "The event's arguments as decoded: uint256 as decimal strings (a panel's judges, a vote's justification, a bond, a payout)",
    ),
});

/** The deadlines of the chain's status snapshot, unix seconds, null when unset (0 on chain). */
const DEADLINES = [
  "responseDeadline",
  "deliberationDeadline",
  "commitDeadline",
  "revealDeadline",
  "appealDeadline",
] as const;

export const getCaseTimeline = defineOperation({
  name: "get_case_timeline",
  title: "A case's timeline",
  description:
    "Everything that happened to one case, in chain order, from docket's index: filing, the defendant's answer, evidence, each round's draw and panel, every vote (judge, side, round; hidden votes' commits and reveals with the justification), verdicts, appeals and bonds, settlement, judges' rewards and slashes, and for a case an arbitrable contract opened its dispute and the rulings delivered back. Each entry has its kind, block, chain time and transaction hash. `deadlines` are the chain's as of the last event indexed. Next: get_case for the case as it stands now.",
  kind: "read",
  toolset: "cases",
  http: { method: "GET", path: "/cases/:address/timeline" },
  input: oneCaseRead.input,
  // The index alone answers: no chain read, so no RPC_ERROR.
  errors: [...oneCaseRead.errors.filter((c) => c !== "RPC_ERROR"), "INDEX_UNAVAILABLE"] as ErrorCode[],
  output: z.object({
    address: z.string(),
    court: z.number().int().describe("Court id (list_courts)"),
    state: z.enum(STATE_NAMES).describe("Its state as of the last event indexed"),
    round: z.number().int(),
    open: z.boolean().describe("False once settled, defaulted or dismissed"),
    deadlines: z
      .object(
        Object.fromEntries(DEADLINES.map((d) => [d, z.number().int().nullable()])) as Record<
          (typeof DEADLINES)[number],
          z.ZodNullable<z.ZodNumber>
        >,
      )
      .describe("The current round's deadlines, unix seconds (chain time); null when unset"),
    statusBlock: z.number().int().nullable().describe("The block the deadlines were read at"),
    entries: z.array(entry),
  }),
  example: { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
  handler: async ({ address }, ctx) => {
    const t = await readIndex(ctx, async (index) => {
      const found = await caseTimeline(index.db, address.toLowerCase());
      if (!found) throw new DocketError("CASE_NOT_FOUND", `no case at ${address}`, { address });
      return found;
    });
    const status = t.status ?? {};
    const deadlines = Object.fromEntries(
      DEADLINES.map((d) => [d, status[d] === undefined || Number(status[d]) === 0 ? null : Number(status[d])]),
    ) as Record<(typeof DEADLINES)[number], number | null>;
    return {
      address: getAddress(t.address),
      court: t.court,
      state: t.state as (typeof STATE_NAMES)[number],
      round: t.round,
      open: t.open,
      deadlines,
      statusBlock: t.statusBlock,
      entries: t.entries.map((e) => ({ ...e, contract: getAddress(e.contract) })),
    };
  },
});
