import { randomBytes } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getAddress } from "viem";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { call, connectHttp, ok } from "../mcp/helpers.js";
import { type Api, TestDocket } from "../support/index.js";

/**
 * Webhook requests signed with Sign-In with Ethereum (docs/webhooks.md): the dev accounts' real keys
 * sign the EIP-4361 message docket issues, and docket checks it through the chain's node. Over HTTP
 * and MCP: the owner creates, lists and deletes; another address, a replay and an expired message
 * are refused.
 */
describe("webhook sign-in (get_webhook_nonce, create_webhook, list_webhooks, delete_webhook)", () => {
  let t: TestDocket;
  let mcp: Client;
  const alice = devAccount(1).account;
  const bob = devAccount(2).account;

  beforeAll(async () => {
    t = await TestDocket.shared();
    mcp = await connectHttp("2025-11-25", `${t.url}/mcp`);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  /** docket's message for `address`, signed by `signer` (the owner unless a test says otherwise). */
  async function signed(address: string, signer = address === alice.address ? alice : bob) {
    const n = await t.get(`/webhooks/nonce?address=${address}`);
    expect(n.status).toBe(200);
    const message = n.body.message as string;
    return { message, signature: await signer.signMessage({ message }), nonce: n.body };
  }

  const code = (r: Api) => r.body?.error?.code;

  it("the owner creates a webhook, sees it listed (without its secret) and deletes it", async () => {
    const nonce = await t.get(`/webhooks/nonce?address=${alice.address}`);
    expect(nonce.body).toMatchObject({ address: alice.address, chainId: t.chain.chainId });
    expect(nonce.body.message).toContain(`Nonce: ${nonce.body.nonce}`);
    expect(nonce.body.message).toContain("Expiration Time:");

    const { message, signature } = await signed(alice.address);
    const created = await t.post("/webhooks", {
      message,
      signature,
      url: "https://hooks.example/docket",
      reminders: [600, 3600],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      owner: alice.address,
      url: "https://hooks.example/docket",
      status: "pending_verification",
      filter: { address: alice.address },
      reminders: [3600, 600],
      disabledReason: null,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created.body.id).toMatch(/^wh_[0-9a-f]{24}$/);

    const listed = await t.post("/webhooks/list", await signed(alice.address));
    expect(listed.status).toBe(200);
    expect(listed.body.owner).toBe(alice.address);
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toContain(created.body.id);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    const deleted = await t.post(`/webhooks/${created.body.id}/delete`, await signed(alice.address));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: created.body.id, deleted: true });
    const after = await t.post("/webhooks/list", await signed(alice.address));
    expect(after.body.webhooks.map((w: { id: string }) => w.id)).not.toContain(created.body.id);
  });

  it("a registration signed by another address is refused, and nothing is created", async () => {
    // Alice's message, Bob's signature: the signature is not the address's.
    const forged = await signed(alice.address, bob);
    const r = await t.post("/webhooks", { ...forged, url: "https://hooks.example/forged" });
    expect(r.status).toBe(401);
    expect(code(r)).toBe("SIGNATURE_INVALID");

    // Bob signs a message naming himself, on a nonce docket issued to Alice.
    const aliceNonce = (await t.get(`/webhooks/nonce?address=${alice.address}`)).body.message as string;
    const bobsMessage = aliceNonce.replace(alice.address, bob.address);
    const taken = await t.post("/webhooks", {
      message: bobsMessage,
      signature: await bob.signMessage({ message: bobsMessage }),
      url: "https://hooks.example/forged",
    });
    expect(taken.status).toBe(403);
    expect(code(taken)).toBe("NOT_OWNER");

    const listed = await t.post("/webhooks/list", await signed(alice.address));
    expect(listed.body.webhooks.map((w: { url: string }) => w.url)).not.toContain("https://hooks.example/forged");
  });

  it("a signed message is good once: its replay is refused", async () => {
    const once = await signed(bob.address);
    const first = await t.post("/webhooks", { ...once, url: "https://hooks.example/once" });
    expect(first.status).toBe(200);
    const again = await t.post("/webhooks", { ...once, url: "https://hooks.example/twice" });
    expect(again.status).toBe(401);
    expect(code(again)).toBe("NONCE_INVALID");
    expect(again.body.error.message).toContain("used already");
  });

  it("an expired message is refused, and so is one for another domain or chain", async () => {
    const n = (await t.get(`/webhooks/nonce?address=${alice.address}`)).body;
    const base = {
      address: alice.address,
      chainId: n.chainId,
      domain: n.domain,
      nonce: n.nonce,
      uri: `http://${n.domain}/webhooks`,
      version: "1" as const,
    };
    const sign = async (fields: Parameters<typeof createSiweMessage>[0]) => {
      const message = createSiweMessage(fields);
      return { message, signature: await alice.signMessage({ message }), url: "https://hooks.example/late" };
    };
    const expired = await t.post(
      "/webhooks",
      await sign({ ...base, issuedAt: new Date(Date.now() - 120_000), expirationTime: new Date(Date.now() - 60_000) }),
    );
    expect(expired.status).toBe(401);
    expect(code(expired)).toBe("SIGNATURE_INVALID");
    expect(expired.body.error.message).toContain("expired");

    const later = new Date(Date.now() + 60_000);
    const noExpiry = await t.post("/webhooks", await sign(base));
    expect(code(noExpiry)).toBe("SIGNATURE_INVALID");
    const otherDomain = await t.post(
      "/webhooks",
      await sign({ ...base, domain: "evil.example", expirationTime: later }),
    );
    expect(code(otherDomain)).toBe("SIGNATURE_INVALID");
    const otherChain = await t.post("/webhooks", await sign({ ...base, chainId: 1, expirationTime: later }));
    expect(code(otherChain)).toBe("SIGNATURE_INVALID");
    // None of them spent the nonce: the same nonce, signed properly, still works once.
    const good = await t.post("/webhooks", await sign({ ...base, expirationTime: later }));
    expect(good.status, JSON.stringify(good.body)).toBe(200);
  });

  it("a URL docket will not deliver to is refused with 422", async () => {
    const cases: [string, string][] = [
      ["ftp://hooks.example/x", "VALIDATION_ERROR"],
      ["not a url", "VALIDATION_ERROR"],
      ["https://user:secret@hooks.example/x", "WEBHOOK_URL_REFUSED"],
      ["http://127.0.0.1:9/x", "WEBHOOK_URL_REFUSED"],
      ["http://[::1]:9/x", "WEBHOOK_URL_REFUSED"],
      ["http://169.254.169.254/latest/meta-data", "WEBHOOK_URL_REFUSED"],
      ["http://10.0.0.8/x", "WEBHOOK_URL_REFUSED"],
      ["http://localhost:9/x", "WEBHOOK_URL_REFUSED"],
    ];
    for (const [url, expected] of cases) {
      const r = await t.post("/webhooks", { ...(await signed(alice.address)), url });
      expect([url, r.status, code(r)]).toEqual([url, 422, expected]);
    }
  });

  it("a contract wallet signs by EIP-1271: taken when its isValidSignature says so, refused when not", async () => {
    // Two minimal wallets put on the dev chain: one whose isValidSignature answers the EIP-1271 magic
    // value (0x1626ba7e) for anything, one that answers 0xffffffff.
    const wallet = async (magic: string) => {
      const at = `0x${randomBytes(20).toString("hex")}` as `0x${string}`;
      const code = `0x63${magic}60e01b60005260206000f3`;
      await t.chain.reader.request({ method: "anvil_setCode" as never, params: [at, code] as never });
      return getAddress(at);
    };
    const send = async (owner: string) => {
      const message = (await t.get(`/webhooks/nonce?address=${owner}`)).body.message as string;
      // The wallet's own rule decides; a key's signature stands in for whatever it would check.
      const signature = await alice.signMessage({ message });
      return t.post("/webhooks", { message, signature, url: "https://hooks.example/contract-wallet" });
    };
    const accepting = await wallet("1626ba7e");
    const taken = await send(accepting);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.owner).toBe(accepting);
    const refused = await send(await wallet("ffffffff"));
    expect(refused.status).toBe(401);
    expect(code(refused)).toBe("SIGNATURE_INVALID");
  });

  it("over MCP: the same tools, the same refusals", async () => {
    const nonce = await ok(mcp, "get_webhook_nonce", { address: bob.address });
    const message = nonce.message as string;
    const signature = await bob.signMessage({ message });
    const created = await ok(mcp, "create_webhook", { message, signature, url: "https://hooks.example/mcp" });
    expect(created).toMatchObject({ owner: bob.address, status: "pending_verification" });
    expect(created.secret).toMatch(/^whsec_/);

    const replay = await call(mcp, "create_webhook", { message, signature, url: "https://hooks.example/mcp2" });
    expect(replay.isError).toBe(true);
    expect(replay.body.error.code).toBe("NONCE_INVALID");

    // Alice, signing properly for herself, may not delete Bob's webhook.
    const a = (await ok(mcp, "get_webhook_nonce", { address: alice.address })).message as string;
    const refused = await call(mcp, "delete_webhook", {
      id: created.id,
      message: a,
      signature: await alice.signMessage({ message: a }),
    });
    expect(refused.isError).toBe(true);
    expect(refused.body.error.code).toBe("NOT_OWNER");

    const b = (await ok(mcp, "get_webhook_nonce", { address: bob.address })).message as string;
    const listed = await ok(mcp, "list_webhooks", { message: b, signature: await bob.signMessage({ message: b }) });
    expect(listed.webhooks.map((w: { id: string }) => w.id)).toContain(created.id);
  });
});
