import { randomBytes } from "node:crypto";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { Webhook } from "standardwebhooks";
import type { WebhookSettings } from "../kernel/operation.js";
import { guardedLookup, isPrivateAddress } from "./ssrf.js";

/** How long an endpoint has to answer the challenge, and how much of its answer is read. */
const CHALLENGE_TIMEOUT_MS = 5_000;
const MAX_ANSWER_BYTES = 1_024;

/** What came of a challenge. */
export interface ChallengeOutcome {
  passed: boolean;
  /** The endpoint's HTTP status, when it answered. */
  status: number | null;
  /** Why it did not pass, in words. */
  error: string | null;
}

/**
 * Sends `webhook.verify` to a webhook's endpoint, signed to the Standard Webhooks spec with its
 * secret, its data carrying a fresh `challenge`; passed only on a 2xx whose body is exactly that
 * string. The connection goes through the guarded lookup (no private address unless allowed), no
 * redirect is followed, and the endpoint has five seconds.
 */
export async function sendChallenge(
  settings: Pick<WebhookSettings, "allowPrivate">,
  webhook: { id: string; url: string; secret: string },
): Promise<ChallengeOutcome> {
  const challenge = randomBytes(24).toString("base64url");
  const msgId = `msg_${randomBytes(12).toString("hex")}`;
  const sentAt = new Date();
  const body = JSON.stringify({
    type: "webhook.verify",
    timestamp: sentAt.toISOString(),
    data: { webhookId: webhook.id, challenge },
  });
  const headers = {
    "content-type": "application/json",
    "user-agent": "docket-webhooks",
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": new Webhook(webhook.secret).sign(msgId, sentAt, body),
  };
  const url = new URL(webhook.url);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!settings.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
    return { passed: false, status: null, error: `${host} is a private address` };
  }
  try {
    const answer = await post(url, headers, body, settings.allowPrivate);
    if (answer.status < 200 || answer.status > 299) {
      return { passed: false, status: answer.status, error: `the endpoint answered ${answer.status}` };
    }
    if (answer.body !== challenge) {
      return { passed: false, status: answer.status, error: "the endpoint's answer was not the challenge" };
    }
    return { passed: true, status: answer.status, error: null };
  } catch (err) {
    return { passed: false, status: null, error: (err as Error).message.split("\n")[0] ?? "unreachable" };
  }
}

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  allowPrivate: boolean,
): Promise<{ status: number; body: string }> {
  const https = url.protocol === "https:";
  const lookup = guardedLookup(allowPrivate);
  const agent = https ? new HttpsAgent({ lookup, keepAlive: false }) : new HttpAgent({ lookup, keepAlive: false });
  const send = https ? httpsRequest : httpRequest;
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = send(
      url,
      { method: "POST", agent, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) {
            res.destroy();
            resolve({ status: res.statusCode ?? 0, body: "" });
            return;
          }
          chunks.push(c);
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.setTimeout(CHALLENGE_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${CHALLENGE_TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.end(body);
  }).finally(() => agent.destroy());
}
