import { type Address, getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MULTICALL3_ADDRESS } from "../../src/chain/client.js";
import { devPublicParams } from "../../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import { encodePaymentHeader } from "../../src/payments/x402.js";
import type { Docket } from "../../src/server.js";
import { everyReadPath, request, rpc, signAndSend, startBehind } from "../support/index.js";

/**
 * A chain without Multicall3 at its canonical address, and a contract that is not there. The chain is
 * the dev chain with Multicall3's code removed (anvil_setCode: anvil's own method, used by the test,
 * never by docket); docket finds out once, at start, and reads call by call.
 */
describe("a chain without Multicall3", () => {
  let devnet: Devnet;
  let d: Docket;
  const poll = () => (d.follower as NonNullable<Docket["follower"]>).poll();

  beforeAll(async () => {
    devnet = await startDevnet({ params: devPublicParams });
    await rpc(devnet.rpcUrl, "anvil_setCode", [MULTICALL3_ADDRESS, "0x"]);
    d = await startBehind(devnet.rpcUrl, devnet, { CACHE_HOLD_SECONDS: "0" });
  });
  afterAll(async () => {
    await d?.close();
    await devnet?.stop();
  });

  it("is detected once, and the chain is named by the config, not by its id", async () => {
    expect(d.ctx.chain.hasMulticall3).toBe(false);
    expect(d.ctx.chain.definition.name).toBe("chain 31337");
    const named = await startBehind(devnet.rpcUrl, devnet, { CHAIN_NAME: "a private test chain", EVENT_POLL_MS: "0" });
    try {
      expect(named.ctx.chain.definition.name).toBe("a private test chain");
    } finally {
      await named.close();
    }
  });

  it("every read route answers 200", async () => {
    for (const path of await everyReadPath(d, devnet)) {
      const r = await request(d, path);
      expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
    }
  });

  it("a paid filing (the native fee path), signed and sent, is read back; the follower hands on its events", async () => {
    const accounts = devnet.accounts as { address: Address }[];
    const [plaintiff, defendant] = [accounts[15]?.address, accounts[16]?.address];
    const body = {
      plaintiff,
      defendant,
      claimDescription: `no multicall ${Date.now()}`,
      evidenceIpfsHash: "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
    };
    await poll();
    const before = (await request(d, "/cases?limit=1")).body.total;
    const asked = await request(d, "/cases", body);
    expect(asked.status, JSON.stringify(asked.body)).toBe(402);
    const fee = asked.body.accepts[0].extra.unsigned_tx;
    const feeHash = (await signAndSend(devnet.rpcUrl, 15, fee)).transactionHash;
    const res = await fetch(`${d.url}/cases`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-PAYMENT": encodePaymentHeader(feeHash, 31337) },
      body: JSON.stringify(body),
    });
    const built = (await res.json()) as {
      unsigned_tx: { to: Address; value: string; data: `0x${string}`; chainId: number };
    };
    expect(res.status, JSON.stringify(built)).toBe(200);
    await signAndSend(devnet.rpcUrl, 15, built.unsigned_tx);
    const seen: string[] = [];
    const unsubscribe = d.events.subscribe((e) => {
      seen.push(e.type);
    });
    try {
      await poll();
    } finally {
      unsubscribe();
    }
    expect(seen).toContain("case.filed");
    const after = await request(d, `/cases?limit=1&offset=${before}`);
    expect(after.body.total).toBe(before + 1);
    const filed = await request(d, `/cases/${after.body.cases[0]}`);
    expect(filed.status).toBe(200);
    expect(getAddress(filed.body.case.plaintiff)).toBe(getAddress(plaintiff as Address));
  });

  it("a contract that is not there is reported as such, not as a node failure", async () => {
    const nowhere = "0x000000000000000000000000000000000000dEaD";
    const bad = await startBehind(devnet.rpcUrl, devnet, { FACTORY_ADDRESS: nowhere, EVENT_POLL_MS: "0" });
    try {
      const r = await request(bad, "/cases/0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
      expect(r.status).toBe(500);
      expect(r.body.error.code).toBe("RPC_ERROR");
      expect(r.body.error.details).toMatchObject({ reason: "NoContract", address: nowhere });
      expect(r.body.error.message).toMatch(/no contract answers at 0x000000000000000000000000000000000000dEaD/);
      expect(r.body.error.message).not.toMatch(/could not be read/);
    } finally {
      await bad.close();
    }
  });
});
