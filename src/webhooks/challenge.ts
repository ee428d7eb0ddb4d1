import { randomBytes } from "node:crypto";
import { firstLine, post } from "./send.js";
import { PrivateAddressError } from "./ssrf.js";

/** How long an endpoint has to answer the challenge. */
const CHALLENGE_TIMEOUT_MS = 5_000;

/** What came of a challenge. */
export interface ChallengeOutcome {
  passed: boolean;
  /** The endpoint's HTTP status, when it answered. */
  status: number | null;
  /** Why it did not pass, in words. */
  error: string | null;
  /** Not sent at all: the endpoint's address (as resolved now) is a private one. */
  refused?: boolean;
}

/**
 * Sends `webhook.verify` to a webhook's endpoint, signed with its secret, its data carrying a fresh
 * `challenge`; passed only on a 2xx whose body is exactly that string. Sent as every delivery is
 * (send.ts: the guarded lookup, no redirect followed), with five seconds to answer.
 */
export async function sendChallenge(
  settings: { allowPrivate: boolean; dnsServers?: readonly string[] },
  webhook: { id: string; url: string; secret: string },
): Promise<ChallengeOutcome> {
  const challenge = randomBytes(24).toString("base64url");
  const body = JSON.stringify({
    type: "webhook.verify",
    timestamp: new Date().toISOString(),
    data: { webhookId: webhook.id, challenge },
  });
  try {
    const answer = await post({
      url: webhook.url,
      secret: webhook.secret,
      msgId: `msg_${randomBytes(12).toString("hex")}`,
      body,
      timeoutMs: CHALLENGE_TIMEOUT_MS,
      allowPrivate: settings.allowPrivate,
      dnsServers: settings.dnsServers,
    });
    if (answer.status < 200 || answer.status > 299) {
      return { passed: false, status: answer.status, error: `the endpoint answered ${answer.status}` };
    }
    if (answer.body !== challenge) {
      return { passed: false, status: answer.status, error: "the endpoint's answer was not the challenge" };
    }
    return { passed: true, status: answer.status, error: null };
  } catch (err) {
    return { passed: false, status: null, error: firstLine(err), refused: err instanceof PrivateAddressError };
  }
}
