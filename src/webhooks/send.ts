import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { Webhook } from "standardwebhooks";
import { guardedLookup, isPrivateAddress, PrivateAddressError } from "./ssrf.js";

/** How much of an endpoint's answer is read (the rest is dropped): a challenge's echo fits. */
const MAX_ANSWER_BYTES = 1_024;

/** One POST to a webhook endpoint, as docket sends every delivery and challenge. */
export interface Outgoing {
  url: string;
  /** The whsec_ secret the body is signed with. */
  secret: string;
  /** The Standard Webhooks `webhook-id`: the same on every attempt of one delivery. */
  msgId: string;
  /** The JSON body, sent byte for byte as signed. */
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** DNS servers to resolve with (WEBHOOKS_DNS_SERVERS); the system's resolver when absent. */
  dnsServers?: readonly string[];
}

/** What an endpoint answered: its status and (the first KiB of) its body. */
export interface Answered {
  status: number;
  body: string;
}

/**
 * POSTs `o.body` signed to the Standard Webhooks spec (`webhook-id`, `webhook-timestamp` of this
 * attempt, `webhook-signature` over the three). The connection goes through the guarded lookup, so
 * a name resolving to a private address now (DNS rebinding) is refused at connection time; a literal
 * private IP is refused before connecting; no redirect is followed (a 3xx is an answer like any
 * other); the endpoint has `timeoutMs` for the whole exchange. Rejects when no answer came.
 */
export function post(o: Outgoing): Promise<Answered> {
  const url = new URL(o.url);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!o.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
    return Promise.reject(new PrivateAddressError(`${host} is a private address`));
  }
  const sentAt = new Date();
  const headers = {
    "content-type": "application/json",
    "user-agent": "docket-webhooks",
    "webhook-id": o.msgId,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": new Webhook(o.secret).sign(o.msgId, sentAt, o.body),
    "content-length": String(Buffer.byteLength(o.body)),
  };
  const https = url.protocol === "https:";
  const lookup = guardedLookup(o.allowPrivate, o.dnsServers);
  const agent = https ? new HttpsAgent({ lookup, keepAlive: false }) : new HttpAgent({ lookup, keepAlive: false });
  const send = https ? httpsRequest : httpRequest;
  return new Promise<Answered>((resolve, reject) => {
    const req = send(url, { method: "POST", agent, headers }, (res) => {
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
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${o.timeoutMs} ms`)), o.timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("error", reject);
    req.end(o.body);
  }).finally(() => agent.destroy());
}

/** An error's first line, for a delivery's `lastError`. */
export function firstLine(err: unknown): string {
  return ((err as Error)?.message ?? String(err)).split("\n")[0]?.slice(0, 300) || "unreachable";
}
