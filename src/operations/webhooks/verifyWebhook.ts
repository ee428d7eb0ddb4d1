import { z } from "zod";
import { DocketError } from "../../errors/errors.js";
import { readIndex } from "../../index/access.js";
import { activateWebhook } from "../../index/queries/webhooks.js";
import { sendChallenge } from "../../webhooks/challenge.js";
import { defineOperation } from "../kernel/operation.js";
import { signedBy, signedExample, signedFields } from "./signIn.js";
import { ownedWebhook, webhookBody, webhookId, webhookOutput } from "./webhook.js";

export const verifyWebhook = defineOperation({
  name: "verify_webhook",
  title: "Verify a webhook's endpoint",
  description:
    "Proves the endpoint wants docket's deliveries, so docket cannot be pointed at someone else's server: docket POSTs it a `webhook.verify` delivery, signed with the webhook's secret (Standard Webhooks headers), whose `data.challenge` is a fresh string; the webhook turns active only when the endpoint answers 2xx with exactly that string as its body, within 5 s (no redirect followed). An endpoint whose name resolves to a private address now is refused (422 WEBHOOK_URL_REFUSED) and never contacted. Call it once the endpoint is up and knows its secret; again after a failure. Signed as create_webhook is. Answers the webhook and what came of the challenge.",
  kind: "write",
  toolset: "agents",
  http: { method: "POST", path: "/webhooks/:id/verify" },
  input: z.object({ id: webhookId, ...signedFields }),
  output: webhookOutput.extend({
    verification: z
      .object({
        passed: z.boolean(),
        status: z.number().int().nullable().describe("The endpoint's HTTP status, when it answered"),
        error: z.string().nullable().describe("Why it did not pass"),
      })
      .describe("What came of the challenge"),
  }),
  okDescription: "The challenge was sent: the webhook, active if the endpoint echoed it",
  errors: [
    "SIGNATURE_INVALID",
    "NONCE_INVALID",
    "NOT_OWNER",
    "WEBHOOK_NOT_FOUND",
    "WEBHOOK_URL_REFUSED",
    "INDEX_UNAVAILABLE",
  ],
  example: { id: "wh_0123456789abcdef01234567", ...signedExample },
  handler: async (i, ctx, req) => {
    const owner = (await signedBy(ctx, req, i)).toLowerCase();
    const found = await readIndex(ctx, (index) => ownedWebhook(index.db, i.id, owner));
    if (found.status === "active") {
      return { ...webhookBody(found), verification: { passed: true, status: null, error: null } };
    }
    const outcome = await sendChallenge(
      { allowPrivate: ctx.webhooks?.allowPrivate ?? false, dnsServers: ctx.webhooks?.dnsServers },
      found,
    );
    if (outcome.refused) {
      throw new DocketError("WEBHOOK_URL_REFUSED", `docket will not deliver to ${found.url}: ${outcome.error}`, {
        url: found.url,
      });
    }
    const now = outcome.passed ? await readIndex(ctx, (index) => activateWebhook(index.db, i.id)) : found;
    return {
      ...webhookBody(now),
      verification: { passed: outcome.passed, status: outcome.status, error: outcome.error },
    };
  },
});
