import { isIP } from "node:net";
import { getAddress } from "viem";
import { z } from "zod";
import { DocketError } from "../../errors/errors.js";
import type { IndexAccess } from "../../index/access.js";
import { WEBHOOK_EVENT_TYPES, type WebhookRow, webhookWithSecret } from "../../index/queries/webhooks.js";
import { isPrivateAddress, resolveHost } from "../../webhooks/ssrf.js";
import type { Ctx } from "../kernel/operation.js";
import { address } from "../kernel/schemas.js";

/** Shapes and rules the webhook operations share (docs/webhooks.md). */

/** Reminder lead times per webhook at most, and the longest (thirty days). */
const MAX_REMINDERS = 5;
const MAX_LEAD_SECONDS = 30 * 86_400;

const known = new Set(WEBHOOK_EVENT_TYPES);

/** Which events a webhook delivers: the filters `GET /events` takes, every one given must match. */
export const filterInput = z
  .object({
    address: address(
      "Only the events that concern this address (a party or judge of the case, the agent or judge it is about); default: the owner",
    ).optional(),
    case: address("Only the events of this case").optional(),
    types: z
      .array(
        z
          .string()
          .max(40)
          .refine((t) => known.has(t), {
            error: `unknown event type; known: ${WEBHOOK_EVENT_TYPES.join(", ")}`,
            params: { docketCode: "INVALID_INPUT" },
          }),
      )
      .min(1)
      .max(WEBHOOK_EVENT_TYPES.length)
      .optional()
      .describe(`Event types to deliver (default: all): ${WEBHOOK_EVENT_TYPES.join(", ")}`),
  })
  .describe("Which events to deliver, as GET /events filters them; default: the events that concern the owner");

/** Reminders when create_webhook names none: an hour before each deadline. */
export const DEFAULT_REMINDERS = [3_600];

export const remindersInput = z
  .array(z.number().int().min(60).max(MAX_LEAD_SECONDS))
  .max(MAX_REMINDERS)
  .describe(
    `Lead times, in seconds before each deadline of the address's (a vote, a reveal, an answer), to be reminded at (reminder.due); with any, a passed deadline that lets anyone act on its case (a default, a resolution, a settlement) is told too (reminder.overdue). At most ${MAX_REMINDERS}, each 60 s to 30 days; default [${DEFAULT_REMINDERS.join(", ")}]; [] for none`,
  );

export const urlInput = z
  .string()
  .max(2_000)
  // A plain pattern, not z.url(): its JSON Schema `format: uri` is one some model providers refuse.
  .regex(/^https?:\/\/[^\s/?#]+[^\s]*$/i, { error: "must be an absolute http(s) URL" })
  .refine((u) => URL.canParse(u), { error: "must be an absolute http(s) URL" })
  .describe("Where docket delivers: an https URL (http only on the dev chain), public, without credentials");

/**
 * A filter as stored: the owner's events by default (an `address` unless a `case` narrows it),
 * without the fields left out.
 */
export function storedFilter(
  f: z.output<typeof filterInput> | undefined,
  owner: string,
): { address?: string; case?: string; types?: string[] } {
  const filled = { address: f?.address ?? (f?.case ? undefined : owner), ...f };
  return Object.fromEntries(Object.entries(filled).filter(([, v]) => v !== undefined));
}

/** Lead times as stored: each once, longest first. */
export function storedReminders(r: readonly number[]): number[] {
  return [...new Set(r)].sort((a, b) => b - a);
}

/**
 * Webhook `id` with its secret, when `owner` (lower-case) owns it: 404 WEBHOOK_NOT_FOUND when there
 * is none, 403 NOT_OWNER when it is another address's. Every operation on one webhook starts here.
 */
export async function ownedWebhook(
  db: IndexAccess["db"],
  id: string,
  owner: string,
): Promise<WebhookRow & { secret: string }> {
  const found = await webhookWithSecret(db, id);
  if (!found) throw new DocketError("WEBHOOK_NOT_FOUND", `no webhook ${id}`, { id });
  if (found.owner !== owner) throw new DocketError("NOT_OWNER", `webhook ${id} is another address's`, { id });
  return found;
}

/** A webhook's id as an input. */
export const webhookId = z
  .string()
  .max(27)
  .regex(/^wh_[0-9a-f]{24}$/, { error: "must be a webhook id (wh_ and 24 hex digits)" })
  .describe("The webhook's id (create_webhook answered it; list_webhooks lists them)");

/** What docket says of a webhook (never its secret, which is answered once, at creation). */
export const webhookOutput = z.object({
  id: z.string().describe("The webhook's id (delete_webhook takes it)"),
  owner: z.string().describe("The address that signed for it"),
  url: z.string(),
  filter: z.object({
    address: z.string().optional(),
    case: z.string().optional(),
    types: z.array(z.string()).optional(),
  }),
  reminders: z.array(z.number().int()).describe("Reminder lead times, seconds"),
  status: z
    .enum(["pending_verification", "active", "disabled"])
    .describe(
      "pending_verification until the endpoint answers docket's webhook.verify challenge; disabled after failing for days",
    ),
  disabledReason: z.string().nullable().describe("Why it was disabled, when it is"),
  createdAt: z.string().describe("ISO 8601"),
});

export function webhookBody(w: WebhookRow): z.output<typeof webhookOutput> {
  return {
    id: w.id,
    owner: getAddress(w.owner),
    url: w.url,
    filter: w.filter,
    reminders: w.reminders,
    status: w.status,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt.toISOString(),
  };
}

/** The chain ids of local development nodes (anvil and hardhat; geth --dev and ganache). */
const LOCAL_CHAIN_IDS = [31_337, 1_337];

/** Whether webhook URLs may be plain http: on a dev chain only (the embedded one, or a local node's id). */
export function webhooksMayUseHttp(embeddedDevChain: boolean, chainId: number): boolean {
  return embeddedDevChain || LOCAL_CHAIN_IDS.includes(chainId);
}

/**
 * Refuses (422 WEBHOOK_URL_REFUSED) a URL docket will not deliver to, as far as the URL alone says:
 * plain http outside the dev chain, credentials in it, a private or loopback address, literal or
 * as the name resolves now. A name is checked again on every
 * connection, on the address connected to (ssrf.ts): a name rebound to loopback since is refused then.
 */
export async function checkWebhookUrl(ctx: Ctx, raw: string): Promise<string> {
  const url = new URL(raw);
  const refuse = (why: string) => {
    throw new DocketError("WEBHOOK_URL_REFUSED", `docket will not deliver to ${url.origin}: ${why}`, { url: raw });
  };
  if (url.protocol !== "https:" && !ctx.webhooks?.allowHttp) refuse("only https outside the dev chain");
  if (url.username || url.password) refuse("credentials in the URL");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host) !== 0;
  if (!ctx.webhooks?.allowPrivate && ((literal && isPrivateAddress(host)) || /(^|\.)localhost$/i.test(host))) {
    refuse(
      "a loopback, private, link-local or metadata address (WEBHOOKS_ALLOW_PRIVATE=true allows it for development)",
    );
  }
  // A name is resolved now too (the first lookup); every connection resolves it again (ssrf.ts).
  if (!literal && !ctx.webhooks?.allowPrivate) {
    // A name that does not resolve (yet) is taken: the challenge will tell.
    const found = await resolveHost(host, ctx.webhooks?.dnsServers).catch(() => []);
    const inside = found.find((a) => isPrivateAddress(a.address));
    if (inside) refuse(`${host} resolves to ${inside.address}, a private address`);
  }
  url.hash = "";
  return url.toString();
}
