import { type Address, getAddress, type Hex } from "viem";
import { parseSiweMessage, validateSiweMessage } from "viem/siwe";
import { z } from "zod";
import { DocketError } from "../../errors/errors.js";
import { readIndex } from "../../index/access.js";
import { consumeNonce, type NonceRefusal } from "../../index/queries/webhooks.js";
import type { Ctx, RequestInfo } from "../kernel/operation.js";

/**
 * Sign-In-With-Ethereum (EIP-4361) for webhooks: the only proof docket takes that a request comes
 * from an address's owner. docket issues the nonce (get_webhook_nonce), the owner's wallet signs the
 * message, and the signature is checked by the chain's node (viem's verifyMessage: an EOA's
 * ecrecover, a contract wallet's EIP-1271, an undeployed one's EIP-6492). The nonce is good once.
 */

/** How long a nonce, and the message that carries it, may wait to be used. */
export const NONCE_TTL_SECONDS = 600;

/** What docket's messages say the owner agrees to (shown by the wallet). */
export const SIGN_IN_STATEMENT = "Manage docket webhooks for this address.";

/** The fields every signed webhook request carries. */
export const signedFields = {
  message: z
    .string()
    .min(1)
    .max(4_000)
    .describe(
      "The EIP-4361 (Sign-In with Ethereum) message get_webhook_nonce answered (`message`), as it was signed: it names the address, this docket's domain and chain, the nonce and an expiry",
    ),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, { error: "must be 0x-prefixed hex" })
    .max(4_096)
    .describe("The address's signature of `message` (personal_sign / EIP-191; EIP-1271 for a contract wallet)"),
};

/** The signed fields as an example shows them (a signature's shape: 65 bytes). */
export const signedExample = {
  message: "(get_webhook_nonce's message)",
  signature: `0x${"5f".repeat(64)}1b`,
};

/** The EIP-4361 domain this docket answers for: WEBHOOKS_DOMAIN, else the host the request names. */
export function signInDomain(ctx: Ctx, req: RequestInfo): string {
  if (ctx.webhooks?.domain) return ctx.webhooks.domain;
  const fromUrl = req.resourceUrl ? new URL(req.resourceUrl).host : undefined;
  return fromUrl ?? req.headers.host ?? "localhost";
}

const NONCE_WORDS: Record<NonceRefusal, string> = {
  unknown: "the message's nonce is not one docket issued",
  used: "the message's nonce was used already: a signed message is good once",
  expired: "the message's nonce expired",
  other_address: "the message's nonce was issued to another address",
  other_domain: "the message's nonce was issued for another domain",
};

const invalid = (message: string, details?: Record<string, unknown>) =>
  new DocketError("SIGNATURE_INVALID", `${message}; ask get_webhook_nonce for a message to sign`, details);

/**
 * The address that signed `message`, once its nonce is taken. Refuses (401 SIGNATURE_INVALID) a message
 * that is not EIP-4361, is for another domain or chain, has no expiry, is expired or not yet valid, or
 * whose signature is not its address's; (401 NONCE_INVALID) a nonce unknown, used or expired; (403
 * NOT_OWNER) a nonce issued to another address.
 */
export async function signedBy(
  ctx: Ctx,
  req: RequestInfo,
  signed: { message: string; signature: string },
): Promise<Address> {
  const fields = parseSiweMessage(signed.message);
  if (!fields.address || !fields.nonce || !fields.domain || fields.chainId === undefined || !fields.version) {
    throw invalid("message is not an EIP-4361 sign-in message");
  }
  const domain = signInDomain(ctx, req);
  if (fields.domain !== domain) throw invalid(`message is for ${fields.domain}, not ${domain}`, { domain });
  if (fields.chainId !== ctx.chain.chainId) {
    throw invalid(`message is for chain ${fields.chainId}, not ${ctx.chain.chainId}`, { chainId: ctx.chain.chainId });
  }
  if (!fields.expirationTime) throw invalid("message has no Expiration Time");
  const now = new Date();
  if (!validateSiweMessage({ message: fields, domain, time: now })) {
    throw invalid("message is expired or not yet valid", {
      expirationTime: fields.expirationTime.toISOString(),
      ...(fields.notBefore ? { notBefore: fields.notBefore.toISOString() } : {}),
    });
  }
  const address = getAddress(fields.address);
  const valid = await ctx.chain.reader.verifyMessage({
    address,
    message: signed.message,
    signature: signed.signature as Hex,
  });
  if (!valid) throw invalid(`signature is not ${address}'s`, { address });
  const nonce = { nonce: fields.nonce, address: address.toLowerCase(), domain, now };
  const refused = await readIndex(ctx, (index) => consumeNonce(index.db, nonce));
  if (refused === "other_address") throw new DocketError("NOT_OWNER", NONCE_WORDS[refused], { address });
  if (refused) throw new DocketError("NONCE_INVALID", `${NONCE_WORDS[refused]}; ask get_webhook_nonce for another`);
  return address;
}
