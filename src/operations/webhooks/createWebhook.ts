import { randomBytes } from "node:crypto";
import { z } from "zod";
import { DocketError } from "../../errors/errors.js";
import { readIndex } from "../../index/access.js";
import { countWebhooks, insertWebhook } from "../../index/queries/webhooks.js";
import { defineOperation } from "../kernel/operation.js";
import { signedBy, signedExample, signedFields } from "./signIn.js";
import {
  checkWebhookUrl,
  DEFAULT_REMINDERS,
  filterInput,
  remindersInput,
  storedFilter,
  storedReminders,
  urlInput,
  webhookBody,
  webhookOutput,
} from "./webhook.js";

/** Webhooks per owner at most. */
export const MAX_WEBHOOKS_PER_OWNER = 10;

export const createWebhook = defineOperation({
  name: "create_webhook",
  title: "Create a webhook",
  description: `Registers a URL that docket delivers an address's court events (and reminders before its deadlines) to, signed to the Standard Webhooks spec, so an agent that is not connected learns it was drawn or that a vote is due. Proven by the address's signature: first get_webhook_nonce, sign its \`message\`, send both here with the url. Answers the webhook's id and its signing \`secret\` (whsec_..., the Standard Webhooks secret a receiver verifies deliveries with) ONCE: keep it. The webhook starts as pending_verification: docket sends it a webhook.verify delivery whose data carries a \`challenge\`, and it turns active only when the endpoint answers 2xx with exactly that string. At most ${MAX_WEBHOOKS_PER_OWNER} per address.`,
  kind: "write",
  toolset: "agents",
  http: { method: "POST", path: "/webhooks" },
  input: z.object({
    ...signedFields,
    url: urlInput,
    filter: filterInput.optional(),
    reminders: remindersInput.optional(),
  }),
  output: webhookOutput.extend({
    secret: z
      .string()
      .describe("The Standard Webhooks signing secret (whsec_...): shown this once, verify every delivery with it"),
  }),
  okDescription: "Created, pending verification: its id and its secret (answered this once)",
  errors: [
    "SIGNATURE_INVALID",
    "NONCE_INVALID",
    "NOT_OWNER",
    "WEBHOOK_URL_REFUSED",
    "WEBHOOK_LIMIT_REACHED",
    "INDEX_UNAVAILABLE",
  ],
  example: {
    ...signedExample,
    url: "https://agent.example/hooks/docket",
    reminders: [3600],
  },
  handler: async (i, ctx, req) => {
    const url = await checkWebhookUrl(ctx, i.url);
    const owner = await signedBy(ctx, req, i);
    const created = await readIndex(ctx, async (index) => {
      if ((await countWebhooks(index.db, owner.toLowerCase())) >= MAX_WEBHOOKS_PER_OWNER) {
        throw new DocketError(
          "WEBHOOK_LIMIT_REACHED",
          `${owner} has ${MAX_WEBHOOKS_PER_OWNER} webhooks already: delete one first`,
          {
            limit: MAX_WEBHOOKS_PER_OWNER,
          },
        );
      }
      const secret = `whsec_${randomBytes(32).toString("base64")}`;
      const row = await insertWebhook(index.db, {
        id: `wh_${randomBytes(12).toString("hex")}`,
        owner: owner.toLowerCase(),
        url,
        filter: storedFilter(i.filter, owner),
        reminders: storedReminders(i.reminders ?? DEFAULT_REMINDERS),
        secret,
      });
      return { row, secret };
    });
    return { ...webhookBody(created.row), secret: created.secret };
  },
});
