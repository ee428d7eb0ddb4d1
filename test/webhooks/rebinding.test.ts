import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { TestDocket } from "../support/index.js";
import { DnsServer } from "./dnsServer.js";
import { Receiver } from "./receiver.js";

/**
 * DNS rebinding (docs/webhooks.md#security): a name that resolves to a public address when the
 * webhook is registered and to loopback on the next lookup, when docket would connect. docket
 * resolves through a DNS server of the test's (WEBHOOKS_DNS_SERVERS), private addresses refused (the
 * default). Registration takes the name; the challenge is refused with 422 and never reaches the
 * receiver listening on loopback; a name resolving to loopback from the first lookup is refused at
 * registration.
 */
describe("webhooks against DNS rebinding", () => {
  let t: TestDocket;
  let rx: Receiver;
  let dns: DnsServer;
  const owner = devAccount(12).account;

  beforeAll(async () => {
    rx = await Receiver.start();
    // rebind.test: public first, loopback after; inside.test: loopback always.
    dns = await DnsServer.start((name, nth) => (name === "rebind.test" && nth === 1 ? "93.184.215.14" : "127.0.0.1"));
    t = await TestDocket.shared({ WEBHOOKS_DNS_SERVERS: dns.server });
  });
  afterAll(async () => {
    await t?.close();
    await rx?.close();
    dns?.close();
  });

  async function signed() {
    const message = (await t.get(`/webhooks/nonce?address=${owner.address}`)).body.message as string;
    return { message, signature: await owner.signMessage({ message }) };
  }
  const at = (host: string) => rx.url.replace("127.0.0.1", host);

  it("a name rebound to loopback after registration is refused when docket would connect, and never reached", async () => {
    const made = await t.post("/webhooks", { ...(await signed()), url: at("rebind.test") });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(dns.asked.filter((n) => n === "rebind.test")).toHaveLength(1);
    rx.secret = made.body.secret;
    const v = await t.post(`/webhooks/${made.body.id}/verify`, await signed());
    expect(v.status, JSON.stringify(v.body)).toBe(422);
    expect(v.body.error.code).toBe("WEBHOOK_URL_REFUSED");
    expect(v.body.error.message).toMatch(/rebind\.test resolves to 127\.0\.0\.1, a private address/);
    expect(dns.asked.filter((n) => n === "rebind.test").length).toBeGreaterThanOrEqual(2);
    expect(rx.seen).toEqual([]);
    const listed = await t.post("/webhooks/list", await signed());
    expect(listed.body.webhooks.find((w: { id: string }) => w.id === made.body.id)?.status).toBe(
      "pending_verification",
    );
  });

  it("a name resolving to loopback is refused at registration", async () => {
    const r = await t.post("/webhooks", { ...(await signed()), url: at("inside.test") });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.error.code).toBe("WEBHOOK_URL_REFUSED");
    expect(r.body.error.message).toMatch(/inside\.test resolves to 127\.0\.0\.1/);
    expect(rx.seen).toEqual([]);
  });
});
