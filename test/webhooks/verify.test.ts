import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { TestDocket } from "../support/index.js";

interface Received {
  path: string;
  verified: boolean;
  body: { type: string; data: { webhookId: string; challenge: string } };
}

/**
 * The endpoint's proof (docs/webhooks.md#verifying-the-endpoint): a real receiver on loopback
 * (WEBHOOKS_ALLOW_PRIVATE=true, as on a developer's machine) checks each delivery's signature with
 * the standardwebhooks library and the secret create_webhook answered, and echoes the challenge, or
 * not.
 */
describe("webhook verification (verify_webhook)", () => {
  let t: TestDocket;
  let receiver: Server;
  let base: string;
  const received: Received[] = [];
  /** The secret each path's webhook was given, for the receiver to verify with. */
  const secrets = new Map<string, string>();
  const owner = devAccount(5).account;

  beforeAll(async () => {
    t = await TestDocket.shared({ WEBHOOKS_ALLOW_PRIVATE: "true" });
    receiver = createServer(async (req: IncomingMessage, res) => {
      let raw = "";
      for await (const c of req) raw += c;
      const path = req.url ?? "";
      let verified = false;
      try {
        new Webhook(secrets.get(path) ?? "whsec_AAAA").verify(raw, req.headers as Record<string, string>);
        verified = true;
      } catch {}
      const body = JSON.parse(raw);
      received.push({ path, verified, body });
      if (path === "/echo" && verified) return res.end(body.data.challenge);
      if (path === "/wrong") return res.end("hello");
      if (path === "/redirect") {
        res.writeHead(302, { location: `${base}/echo` });
        return res.end();
      }
      res.writeHead(401).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  async function signed() {
    const message = (await t.get(`/webhooks/nonce?address=${owner.address}`)).body.message as string;
    return { message, signature: await owner.signMessage({ message }) };
  }

  async function create(path: string) {
    const r = await t.post("/webhooks", { ...(await signed()), url: `${base}${path}` });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    secrets.set(path, r.body.secret);
    return r.body as { id: string; status: string };
  }

  it("an endpoint that echoes the signed challenge becomes active", async () => {
    const w = await create("/echo");
    expect(w.status).toBe("pending_verification");
    expect(received.filter((r) => r.path === "/echo")).toEqual([]);
    const r = await t.post(`/webhooks/${w.id}/verify`, await signed());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      id: w.id,
      status: "active",
      verification: { passed: true, status: 200, error: null },
    });
    const got = received.filter((x) => x.path === "/echo");
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ verified: true, body: { type: "webhook.verify", data: { webhookId: w.id } } });
    expect(got[0]?.body.data.challenge.length).toBeGreaterThanOrEqual(24);
    const listed = await t.post("/webhooks/list", await signed());
    expect(listed.body.webhooks.find((x: { id: string }) => x.id === w.id).status).toBe("active");
  });

  it("an endpoint that answers anything else, or redirects, stays pending", async () => {
    for (const [path, error] of [
      ["/wrong", "the endpoint's answer was not the challenge"],
      ["/redirect", "the endpoint answered 302"],
    ] as const) {
      const w = await create(path);
      const r = await t.post(`/webhooks/${w.id}/verify`, await signed());
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: "pending_verification", verification: { passed: false, error } });
    }
    // The redirect was not followed: /echo got no second challenge (its deliveries since are events and reminders).
    expect(received.filter((x) => x.path === "/echo" && x.body.type === "webhook.verify")).toHaveLength(1);
  });
});
