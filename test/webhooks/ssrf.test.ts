import { Agent, createServer, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "../../src/operations/kernel/operation.js";
import { checkWebhookUrl, webhooksMayUseHttp } from "../../src/operations/webhooks/webhook.js";
import { guardedLookup, isPrivateAddress } from "../../src/webhooks/ssrf.js";

/**
 * The address check webhook deliveries connect through (docs/webhooks.md#security): a real HTTP
 * server on loopback, reached by name through an agent whose lookup is guarded.
 */
describe("webhook address guard", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end("reached"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** GET http://localhost:<port>/ through an agent with the guarded lookup: the body, or the error. */
  function fetchVia(allowPrivate: boolean): Promise<string> {
    const agent = new Agent({ lookup: guardedLookup(allowPrivate) });
    return new Promise((resolve, reject) => {
      get(`http://localhost:${port}/`, { agent }, (res) => {
        let body = "";
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve(body));
      }).on("error", reject);
    }).finally(() => agent.destroy()) as Promise<string>;
  }

  it("refuses a name that resolves to loopback at connection time, and connects when private addresses are allowed", async () => {
    await expect(fetchVia(false)).rejects.toThrow(/localhost resolves to (127\.0\.0\.1|::1), a private address/);
    await expect(fetchVia(true)).resolves.toBe("reached");
  });

  it("judges addresses by range: public unicast only", () => {
    for (const ip of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "224.0.0.1",
      "nonsense",
    ]) {
      expect([ip, isPrivateAddress(ip)]).toEqual([ip, true]);
    }
    for (const ip of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect([ip, isPrivateAddress(ip)]).toEqual([ip, false]);
    }
  });
});

describe("https only outside a dev chain", () => {
  const ctxOn = (chainId: number, embedded = false) =>
    ({ webhooks: { allowHttp: webhooksMayUseHttp(embedded, chainId), allowPrivate: false } }) as unknown as Ctx;

  it("plain http is refused on a public chain's docket, taken on the embedded or a local dev chain", async () => {
    const url = "http://93.184.215.14/hooks";
    for (const chainId of [1, 8453, 84532]) {
      await expect(checkWebhookUrl(ctxOn(chainId), url)).rejects.toMatchObject({
        code: "WEBHOOK_URL_REFUSED",
        message: expect.stringContaining("only https outside the dev chain"),
      });
      expect(await checkWebhookUrl(ctxOn(chainId), "https://93.184.215.14/hooks")).toBe("https://93.184.215.14/hooks");
    }
    expect(await checkWebhookUrl(ctxOn(8453, true), url)).toBe(url);
    expect(await checkWebhookUrl(ctxOn(31_337), url)).toBe(url);
  });
});
