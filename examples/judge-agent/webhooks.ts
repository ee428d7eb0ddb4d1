/**
 * The judge agent's webhook mode: instead of holding `GET /events` open, it runs a small HTTP
 * endpoint and has docket deliver its events there (docs/webhooks.md), so it can sleep (a serverless
 * function, a cron job) and still be told it was drawn, that a reveal opened or that a vote is due.
 * The sign-in is its own wallet's signature (EIP-4361): docket keeps no key; the signing secret it
 * answers once verifies every delivery with the `standardwebhooks` library.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import type { LocalAccount } from "viem";

export interface Delivery {
  /** The webhook-id: the same on every attempt of one delivery (drop repeats by it). */
  id: string;
  type: string;
  data: { case?: string; [field: string]: unknown };
}

export interface Subscription {
  url: string;
  /** Deletes the webhook (signed) and stops the endpoint. */
  close(): Promise<void>;
}

/**
 * Listens on `port` (0: any free one) at `host`, subscribes `account` to its events and reminders
 * (lead times `reminders`, seconds) at `publicUrl` (default: the address listened on), answers
 * docket's challenge, and calls `delivered` once per webhook-id with each verified delivery.
 */
export async function subscribe(opts: {
  docket: string;
  account: LocalAccount;
  port: number;
  host: string;
  publicUrl?: string;
  reminders: number[];
  delivered: (d: Delivery) => void;
}): Promise<Subscription> {
  let secret: string | undefined;
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    void read(req).then((raw) => {
      let body: { type: string; data: Delivery["data"] & { challenge?: string } };
      try {
        // A delivery that does not verify is not docket's (or is not for this secret): refused.
        body = new Webhook(secret ?? "whsec_AAAA").verify(raw, req.headers as Record<string, string>) as typeof body;
      } catch {
        res.writeHead(401).end();
        return;
      }
      if (body.type === "webhook.verify") {
        res.end(body.data.challenge);
        return;
      }
      res.end("ok");
      const id = String(req.headers["webhook-id"]);
      if (seen.has(id)) return;
      seen.add(id);
      opts.delivered({ id, type: body.type, data: body.data });
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host, resolve));
  const url = opts.publicUrl ?? `http://${opts.host}:${(server.address() as AddressInfo).port}/docket`;

  /** A fresh sign-in: the nonce's EIP-4361 message, signed by the account. */
  const signed = async () => {
    const res = await fetch(`${opts.docket}/webhooks/nonce?address=${opts.account.address}`);
    const { message } = (await res.json()) as { message: string };
    return { message, signature: await opts.account.signMessage({ message }) };
  };
  const post = async (path: string, body: object) => {
    const res = await fetch(opts.docket + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };

  const made = await post("/webhooks", { ...(await signed()), url, reminders: opts.reminders });
  secret = made.secret as string;
  const id = made.id as string;
  const verified = await post(`/webhooks/${id}/verify`, await signed());
  if (verified.status !== "active") {
    server.close();
    throw new Error(`docket could not verify ${url}: ${JSON.stringify(verified.verification)}`);
  }
  return {
    url,
    close: async () => {
      await post(`/webhooks/${id}/delete`, await signed()).catch(() => {});
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

async function read(req: IncomingMessage): Promise<string> {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return raw;
}
