import { randomBytes } from "node:crypto";
import { z } from "zod";
import { readIndex } from "../../index/access.js";
import { changeWebhook } from "../../index/queries/webhooks.js";
import { defineOperation } from "../kernel/operation.js";
import { signedBy, signedExample, signedFields } from "./signIn.js";
import {
  checkWebhookUrl,
  filterInput,
  ownedWebhook,
  remindersInput,
  storedFilter,
  storedReminders,
  urlInput,
  webhookBody,
  webhookId,
  webhookOutput,
} from "./webhook.js";

export const updateWebhook = defineOperation({
  name: "update_webhook",
  title: "Change a webhook",
  description:
    "Changes one of the signer's webhooks: its url, filter, reminder lead times, or its secret (`rotateSecret`: a new whsec_ secret, answered this once). A new url or secret must be verified again (verify_webhook) before deliveries resume; what was enqueued meanwhile waits, nothing is lost. Signed as create_webhook is. Another address's webhook is refused (403 NOT_OWNER).",
  kind: "write",
  toolset: "agents",
  http: { method: "POST", path: "/webhooks/:id/update" },
  input: z.object({
    id: webhookId,
    ...signedFields,
    url: urlInput.optional(),
    filter: filterInput.optional(),
    reminders: remindersInput.optional(),
    rotateSecret: z.boolean().optional().describe("true: a new signing secret, answered this once"),
  }),
  output: webhookOutput.extend({
    secret: z
      .string()
      .optional()
      .describe("The new signing secret, when rotateSecret asked for one (answered this once)"),
  }),
  okDescription: "Changed",
  errors: [
    "SIGNATURE_INVALID",
    "NONCE_INVALID",
    "NOT_OWNER",
    "WEBHOOK_NOT_FOUND",
    "WEBHOOK_URL_REFUSED",
    "INDEX_UNAVAILABLE",
  ],
  example: {
    id: "wh_0123456789abcdef01234567",
    ...signedExample,
    reminders: [3600, 600],
  },
  handler: async (i, ctx, req) => {
    const url = i.url === undefined ? undefined : await checkWebhookUrl(ctx, i.url);
    const owner = (await signedBy(ctx, req, i)).toLowerCase();
    const secret = i.rotateSecret ? `whsec_${randomBytes(32).toString("base64")}` : undefined;
    const row = await readIndex(ctx, async (index) => {
      await ownedWebhook(index.db, i.id, owner);
      return changeWebhook(index.db, i.id, {
        url,
        filter: i.filter === undefined ? undefined : storedFilter(i.filter, owner),
        reminders: i.reminders === undefined ? undefined : storedReminders(i.reminders),
        secret,
      });
    });
    return { ...webhookBody(row), ...(secret ? { secret } : {}) };
  },
});
