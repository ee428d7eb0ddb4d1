import { z } from "zod";
import { type CourtView, readCourts } from "../../chain/reads/courts.js";
import { DocketError } from "../../errors/errors.js";
import { isTextType } from "../../evidence/media.js";
import { keyOf } from "../../freshness/keys.js";
import { cachedRead } from "../kernel/cachedRead.js";
import type { Ctx } from "../kernel/operation.js";

/** Shapes and helpers the court operations share. */

/** The General court: the root of the tree and every court-taking operation's default. */
export const GENERAL_COURT = 1;

/** At most this many courts (CourtRegistry.MAX_COURTS): ids run 1 to 64. */
const MAX_COURTS = 64;

/** A court's id as an input (ids start at 1, the General court). */
export const courtId = (description: string) => z.number().int().min(1).max(MAX_COURTS).describe(description);

/** A court's id as an optional input: the General court when left out. */
export const courtInput = (what: string) =>
  courtId(`${what} (a court id from list_courts; default 1, the General court)`).optional();

/** A court named in another record: its id and name. */
export const courtRef = z.object({
  id: z.number().int().describe("Court id (list_courts, get_court)"),
  name: z.string(),
});
export type CourtRef = z.infer<typeof courtRef>;

const wei = (what: string) => z.string().describe(`${what}, wei as a decimal string`);
const seconds = (what: string) => z.number().int().describe(`${what}, seconds`);

/** The parameters a case copies from its court when it is filed (later changes never reach it). */
export const courtParameters = z.object({
  minJudgeStake: wei("A judge's minimum stake in this court"),
  minPartyStake: wei("Each party's minimum stake"),
  appealBond: wei("The appeal bond"),
  courtFeeBps: z.number().int().describe("Court fee on the stakes, basis points"),
  judgeRewardBps: z.number().int().describe("Share of the pot paid to majority judges, basis points"),
  responseWindow: seconds("Time the defendant has to respond"),
  deliberationPeriod: seconds("Time a panel has to decide"),
  appealWindow: seconds("Time the losing party has to appeal"),
  hiddenVotes: z
    .boolean()
    .describe("true: judges commit a hash, then reveal (vote_on_case, reveal_vote); false: public votes"),
  commitPeriod: seconds("With hidden votes: time to commit once the panel is seated"),
  revealPeriod: seconds("With hidden votes: time to reveal after the commit phase"),
  panelSize: z.number().int().describe("Judges drawn for the first round"),
  appealPanelSize: z.number().int().describe("Judges drawn for an appeal"),
  jumpPanelSize: z
    .number()
    .int()
    .describe("An appeal panel of at least this many judges is drawn from the parent court's pool (0: never)"),
});

export const courtSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  parent: courtRef.nullable().describe("The court above this one; null for the General court (the root)"),
  depth: z.number().int().describe("0 for the General court, 1 for a court below it, ..."),
  children: z.array(courtRef).describe("The courts directly below this one"),
  parameters: courtParameters,
  policy: z
    .object({
      cid: z.string().describe("Content id (IPFS CIDv1) of the court's policy: the rules its judges apply"),
      uri: z.string().describe("ipfs://<cid>"),
      text: z
        .string()
        .nullable()
        .describe("The policy document itself, when docket can read it; null otherwise (fetch it by its CID)"),
    })
    .describe("The court's written rules: every judge of the court should read them before voting"),
  judges: z
    .number()
    .int()
    .describe("Judges eligible here now: staked at least the minimum in this court or a court below it"),
  totalStake: wei("The draw pool: every eligible stake in this court and the courts below it"),
});
export type CourtBody = z.infer<typeof courtSchema>;

/** Every court, cached for 60 s (the follower drops it when a court or a stake changes). */
export async function courtsOf(ctx: Ctx): Promise<CourtView[]> {
  return [...(await cachedRead(ctx, keyOf.courtTree(), 60, () => readCourts(ctx.chain)))];
}

/** The court of that id, or 404 COURT_NOT_FOUND. */
export function findCourt(courts: readonly CourtView[], id: number): CourtView {
  const c = courts.find((x) => Number(x.id) === id);
  if (!c) {
    throw new DocketError("COURT_NOT_FOUND", `no court ${id}: list_courts lists them`, {
      court: id,
      courts: courts.map((x) => Number(x.id)),
    });
  }
  return c;
}

/** `{ id, name }` of a court; a court docket cannot find (created since the list was read) keeps its id. */
export function refOf(courts: readonly CourtView[], id: number | bigint): CourtRef {
  const c = courts.find((x) => x.id === BigInt(id) || Number(x.id) === Number(id));
  return { id: Number(id), name: c?.name ?? `court ${id}` };
}

/** One court as list_courts and get_court show it, with its policy text when docket can read it. */
export async function formatCourt(ctx: Ctx, v: CourtView, courts: readonly CourtView[]): Promise<CourtBody> {
  const t = v.config.terms;
  return {
    id: Number(v.id),
    name: v.name,
    parent: v.parent === 0n || Number(v.parent) === 0 ? null : refOf(courts, v.parent),
    depth: Number(v.depth),
    children: v.children.map((c) => refOf(courts, c)),
    parameters: {
      minJudgeStake: v.config.minJudgeStake.toString(),
      minPartyStake: t.minPartyStake.toString(),
      appealBond: t.appealBond.toString(),
      courtFeeBps: Number(t.courtFeeBps),
      judgeRewardBps: Number(t.judgeRewardBps),
      responseWindow: Number(t.responseWindow),
      deliberationPeriod: Number(t.deliberationPeriod),
      appealWindow: Number(t.appealWindow),
      hiddenVotes: t.hiddenVotes,
      commitPeriod: Number(t.commitPeriod),
      revealPeriod: Number(t.revealPeriod),
      panelSize: Number(t.panelSize),
      appealPanelSize: Number(t.appealPanelSize),
      jumpPanelSize: Number(v.config.jumpPanelSize),
    },
    policy: { cid: v.policy, uri: `ipfs://${v.policy}`, text: await policyText(ctx, v.policy) },
    judges: Number(v.judgeCount),
    totalStake: v.totalStake.toString(),
  };
}

/** Policies longer than this are read by link (`GET /evidence/{cid}`), not inline. */
const MAX_POLICY_TEXT = 64 * 1024;

/**
 * A court's policy as text, read like any evidence: from docket's store or its gateways, every byte
 * checked against the CID the court records. Null when it cannot be read (not published where
 * docket looks, not text, or too long to inline).
 */
async function policyText(ctx: Ctx, cid: string): Promise<string | null> {
  try {
    const doc = await ctx.evidence.read(cid);
    if (doc.size > MAX_POLICY_TEXT || !isTextType(doc.mediaType ?? "")) return null;
    return new TextDecoder("utf-8", { fatal: true }).decode(doc.bytes);
  } catch {
    return null;
  }
}
