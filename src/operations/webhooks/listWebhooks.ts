import { getAddress } from "viem";
import { z } from "zod";
import { readIndex } from "../../index/access.js";
import { listWebhooks as listOwned } from "../../index/queries/webhooks.js";
import { defineOperation } from "../kernel/operation.js";
import { signedBy, signedFields } from "./signIn.js";
import { webhookBody, webhookOutput } from "./webhook.js";

export const listWebhooks = defineOperation({
  name: "list_webhooks",
  title: "An address's webhooks",
  description:
    "The webhooks an address owns, with each one's status (pending_verification, active, disabled and why), filter and reminders; never their secrets. Signed as create_webhook is: get_webhook_nonce, sign its `message`, send both (a POST, since it carries a signature; the nonce is spent).",
  kind: "write",
  toolset: "agents",
  http: { method: "POST", path: "/webhooks/list" },
  input: z.object(signedFields),
  output: z.object({
    owner: z.string(),
    webhooks: z.array(webhookOutput).describe("Oldest first"),
  }),
  okDescription: "The signer's webhooks",
  errors: ["SIGNATURE_INVALID", "NONCE_INVALID", "NOT_OWNER", "INDEX_UNAVAILABLE"],
  example: { message: "(get_webhook_nonce's message)", signature: "0x..." },
  handler: async (i, ctx, req) => {
    const owner = await signedBy(ctx, req, i);
    const rows = await readIndex(ctx, (index) => listOwned(index.db, owner.toLowerCase()));
    return { owner: getAddress(owner), webhooks: rows.map(webhookBody) };
  },
});
