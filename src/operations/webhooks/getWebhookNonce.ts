import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { z } from "zod";
import { DocketError } from "../../errors/errors.js";
import { readIndex } from "../../index/access.js";
import { issueNonce, noncesExpiringAfter } from "../../index/queries/webhooks.js";
import { defineOperation } from "../kernel/operation.js";
import { address } from "../kernel/schemas.js";
import { NONCE_TTL_SECONDS, SIGN_IN_STATEMENT, signInDomain } from "./signIn.js";

export const getWebhookNonce = defineOperation({
  name: "get_webhook_nonce",
  title: "A nonce to sign webhook requests with",
  description: `Step one of every webhook request (create_webhook, list_webhooks, update_webhook, verify_webhook, delete_webhook): a fresh nonce for \`address\`, good once and for ${NONCE_TTL_SECONDS / 60} minutes, and \`message\`, the EIP-4361 (Sign-In with Ethereum) message that carries it for this docket's domain and chain. Sign \`message\` with the address's wallet (personal_sign; a contract wallet signs by EIP-1271) and send it with the signature. Nothing is kept of the caller but the nonce. At most WEBHOOKS_SIGNINS_PER_HOUR (default 30) per address per hour (429 RATE_LIMITED).`,
  kind: "read",
  toolset: "agents",
  http: { method: "GET", path: "/webhooks/nonce" },
  input: z.object({ address: address("The address the webhooks are (to be) owned by: the one that signs") }),
  output: z.object({
    address: z.string(),
    nonce: z.string().describe("Good once, until expiresAt"),
    expiresAt: z.string().describe("ISO 8601; the message expires with it"),
    domain: z.string().describe("The EIP-4361 domain the message must name"),
    chainId: z.number().int(),
    message: z.string().describe("The EIP-4361 message to sign, as it is"),
  }),
  okDescription: "A nonce and the message that carries it, to sign",
  errors: ["RATE_LIMITED", "INDEX_UNAVAILABLE"],
  example: { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
  handler: async (i, ctx, req) => {
    const domain = signInDomain(ctx, req);
    const nonce = generateSiweNonce();
    const issuedAt = new Date();
    const expiresAt = new Date(issuedAt.getTime() + NONCE_TTL_SECONDS * 1000);
    const perHour = ctx.webhooks?.signInsPerHour ?? 30;
    await readIndex(ctx, async (index) => {
      const who = i.address.toLowerCase();
      // Issued within the hour: their expiry is after an hour ago plus their lifetime.
      const since = new Date(expiresAt.getTime() - 3_600_000);
      if ((await noncesExpiringAfter(index.db, who, since)) >= perHour) {
        throw new DocketError(
          "RATE_LIMITED",
          `${i.address} took ${perHour} webhook sign-ins within the hour; try again later`,
          { limitPerHour: perHour },
        );
      }
      await issueNonce(index.db, { nonce, address: who, domain, expiresAt });
    });
    const scheme = req.resourceUrl ? new URL(req.resourceUrl).protocol.replace(":", "") : undefined;
    const message = createSiweMessage({
      address: i.address,
      chainId: ctx.chain.chainId,
      domain,
      nonce,
      uri: `${scheme ?? "https"}://${domain}/webhooks`,
      version: "1",
      statement: SIGN_IN_STATEMENT,
      issuedAt,
      expirationTime: expiresAt,
    });
    return {
      address: i.address,
      nonce,
      expiresAt: expiresAt.toISOString(),
      domain,
      chainId: ctx.chain.chainId,
      message,
    };
  },
});
