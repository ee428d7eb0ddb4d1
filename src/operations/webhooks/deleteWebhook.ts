import { z } from "zod";
import { readIndex } from "../../index/access.js";
import { deleteWebhook as deleteOwned } from "../../index/queries/webhooks.js";
import { defineOperation } from "../kernel/operation.js";
import { signedBy, signedExample, signedFields } from "./signIn.js";
import { ownedWebhook, webhookId } from "./webhook.js";

export const deleteWebhook = defineOperation({
  name: "delete_webhook",
  title: "Delete a webhook",
  description:
    "Deletes one of the signer's webhooks: nothing more is delivered to it, and its pending deliveries are dropped. Signed as create_webhook is (get_webhook_nonce, sign its `message`, send both). Another address's webhook is refused (403 NOT_OWNER).",
  kind: "write",
  toolset: "agents",
  http: { method: "POST", path: "/webhooks/:id/delete" },
  input: z.object({
    id: webhookId,
    ...signedFields,
  }),
  output: z.object({ id: z.string(), deleted: z.literal(true) }),
  okDescription: "Deleted",
  errors: ["SIGNATURE_INVALID", "NONCE_INVALID", "NOT_OWNER", "WEBHOOK_NOT_FOUND", "INDEX_UNAVAILABLE"],
  example: { id: "wh_0123456789abcdef01234567", ...signedExample },
  handler: async (i, ctx, req) => {
    const owner = (await signedBy(ctx, req, i)).toLowerCase();
    await readIndex(ctx, async (index) => {
      await ownedWebhook(index.db, i.id, owner);
      await deleteOwned(index.db, i.id, owner);
    });
    return { id: i.id, deleted: true as const };
  },
});
