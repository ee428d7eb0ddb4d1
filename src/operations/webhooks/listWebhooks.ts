import { getAddress } from "viem";
import { z } from "zod";
import { readIndex } from "../../index/access.js";
import { type DeliveryReport, deliveryReport } from "../../index/queries/deliveries.js";
import { listWebhooks as listOwned } from "../../index/queries/webhooks.js";
import { defineOperation } from "../kernel/operation.js";
import { signedBy, signedExample, signedFields } from "./signIn.js";
import { webhookBody, webhookOutput } from "./webhook.js";

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const when = (what: string) => z.string().nullable().describe(`${what} (ISO 8601); null: not (yet)`);

const deliveriesOutput = z
  .object({
    pending: z.number().int().describe("Enqueued and not delivered yet (first attempt or retries to come)"),
    delivered: z.number().int(),
    failed: z.number().int().describe("Given up after retrying for WEBHOOKS_RETRY_HOURS (default 72)"),
    failingSince: when("Since when every attempt has failed"),
    lastDeliveredAt: when("The last delivery the endpoint took"),
    recent: z
      .array(
        z.object({
          id: z.string().describe("Its webhook-id header (the same on every attempt)"),
          type: z.string().describe("An event type, reminder.due or reminder.overdue"),
          attempts: z.number().int(),
          lastStatus: z
            .number()
            .int()
            .nullable()
            .describe("The endpoint's status at the last attempt; null: no answer"),
          lastError: z.string().nullable().describe("Why the last attempt failed"),
          lastAttemptAt: when("The last attempt"),
          nextAttemptAt: when("The next attempt"),
          deliveredAt: when("Delivered"),
          gaveUpAt: when("Given up"),
          createdAt: z.string().describe("Enqueued (ISO 8601)"),
        }),
      )
      .describe("The ten newest deliveries, newest first"),
  })
  .describe("What docket delivered to it, what it retries and why");

function reportBody(r: DeliveryReport): z.output<typeof deliveriesOutput> {
  return {
    pending: r.pending,
    delivered: r.delivered,
    failed: r.failed,
    failingSince: iso(r.failingSince),
    lastDeliveredAt: iso(r.lastDeliveredAt),
    recent: r.recent.map((d) => ({
      id: d.id,
      type: d.type,
      attempts: d.attempts,
      lastStatus: d.lastStatus,
      lastError: d.lastError,
      lastAttemptAt: iso(d.lastAttemptAt),
      nextAttemptAt: iso(d.nextAttemptAt),
      deliveredAt: iso(d.deliveredAt),
      gaveUpAt: iso(d.gaveUpAt),
      createdAt: d.createdAt.toISOString(),
    })),
  };
}

export const listWebhooks = defineOperation({
  name: "list_webhooks",
  title: "An address's webhooks",
  description:
    "The webhooks an address owns, with each one's status (pending_verification, active, disabled and why), filter, reminders and deliveries: how many are pending, delivered and given up, since when it has been failing, and its ten newest deliveries with their attempts, last status or error and next try; never their secrets. Signed as create_webhook is: get_webhook_nonce, sign its `message`, send both (a POST, since it carries a signature; the nonce is spent).",
  kind: "write",
  toolset: "agents",
  http: { method: "POST", path: "/webhooks/list" },
  input: z.object(signedFields),
  output: z.object({
    owner: z.string(),
    webhooks: z.array(webhookOutput.extend({ deliveries: deliveriesOutput })).describe("Oldest first"),
  }),
  okDescription: "The signer's webhooks",
  errors: ["SIGNATURE_INVALID", "NONCE_INVALID", "NOT_OWNER", "INDEX_UNAVAILABLE"],
  example: signedExample,
  handler: async (i, ctx, req) => {
    const owner = await signedBy(ctx, req, i);
    const webhooks = await readIndex(ctx, async (index) => {
      const rows = await listOwned(index.db, owner.toLowerCase());
      return Promise.all(
        rows.map(async (w) => ({ ...webhookBody(w), deliveries: reportBody(await deliveryReport(index.db, w.id)) })),
      );
    });
    return { owner: getAddress(owner), webhooks };
  },
});
