import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import { Actor } from "../../src/chain/actor.js";
import { type Devnet, startDevnet } from "../../src/chain/devnet.js";
import { loadConfig } from "../../src/config.js";
import { encodePaymentHeader } from "../../src/payments/x402.js";
import { type Docket, startServer } from "../../src/server.js";
import { type RpcProxy, startRpcProxy } from "../support/rpcProxy.js";

/**
 * What file_case and verify_transaction cost in JSON-RPC requests, counted at a proxy between docket
 * and the dev chain. A proof costs 3 whatever the outcome: the transaction, its receipt, and one
 * multicall for the court parameters and the proof's paymentRefUsedBy record.
 */
describe("payments: JSON-RPC requests per HTTP request", () => {
  let devnet: Devnet;
  let proxy: RpcProxy;
  let docket: Docket;
  let actor: Actor;
  let fee: bigint;
  let feeRecipient: Hex;
  const seen: string[] = [];

  async function cost(path: string, body: unknown, headers: Record<string, string> = {}) {
    proxy.reset();
    const res = await fetch(`${docket.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: checked field by field
    const json: any = await res.json();
    return { status: res.status, body: json, rpc: proxy.count, methods: proxy.byMethod };
  }
  function note(what: string, c: { rpc: number; methods: Record<string, number> }) {
    seen.push(`  ${String(c.rpc).padStart(2)}  ${what.padEnd(44)} ${JSON.stringify(c.methods)}`);
  }
  const filing = () => ({
    plaintiff: actor.address,
    defendant: devnet.accounts[19]?.address,
    claimDescription: `claim ${Math.random()}`,
    evidenceIpfsHash: "bafy-budget",
  });

  beforeAll(async () => {
    devnet = await startDevnet({ seed: false });
    proxy = await startRpcProxy(devnet.rpcUrl);
    docket = await startServer(
      loadConfig({
        PORT: "0",
        LOG_LEVEL: "silent",
        RPC_URL: proxy.url,
        CHAIN_ID: String(devnet.chainId),
        FACTORY_ADDRESS: devnet.deployment.factory,
        REGISTRY_ADDRESS: devnet.deployment.registry,
        RATE_LIMIT_PER_MINUTE: "0",
        EVENT_POLL_MS: "0",
      }),
    );
    // The wallet talks to the chain directly: only docket's requests pass the proxy.
    actor = new Actor((devnet.accounts[15] as { account: Actor["account"] }).account, devnet.chain, devnet.reader);
    const p = await devnet.reader.readContract({
      address: devnet.deployment.factory,
      abi: caseFactoryAbi,
      functionName: "getParams",
    });
    fee = p.filingFee;
    feeRecipient = p.feeRecipient;
  });
  afterAll(async () => {
    await docket?.close();
    await proxy?.close();
    await devnet?.stop();
    if (seen.length) console.log(`JSON-RPC requests per payments request:\n${seen.join("\n")}`);
  });

  it("no proof: 1 request cold (court parameters), 0 once they are cached", async () => {
    const cold = await cost("/cases", filing());
    expect(cold.status).toBe(402);
    expect(cold.rpc).toBe(1);
    note("POST /cases, no proof, cold", cold);
    const warm = await cost("/cases", filing());
    expect(warm.status).toBe(402);
    expect(warm.rpc).toBe(0);
    note("POST /cases, no proof, warm", warm);
  });

  it("a valid proof: exactly 3 (transaction, receipt, one multicall); a refused one: 3; a malformed header: 0", async () => {
    const paid = await actor.send({ to: feeRecipient, value: fee });
    const header = { "X-PAYMENT": encodePaymentHeader(paid.transactionHash, devnet.chainId) };
    const ok = await cost("/cases", filing(), header);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.rpc).toBe(3);
    expect(ok.methods).toEqual({ eth_getTransactionByHash: 1, eth_getTransactionReceipt: 1, eth_call: 1 });
    note("POST /cases, valid proof", ok);

    const unknown = await cost("/cases", filing(), {
      "X-PAYMENT": encodePaymentHeader(`0x${"66".repeat(32)}`, devnet.chainId),
    });
    expect(unknown.status).toBe(402);
    expect(unknown.rpc).toBe(3);
    note("POST /cases, unknown proof (402)", unknown);

    const small = await actor.send({ to: feeRecipient, value: fee - 1n });
    const refused = await cost("/cases", filing(), {
      "X-PAYMENT": encodePaymentHeader(small.transactionHash, devnet.chainId),
    });
    expect(refused.body.error.code).toBe("PAYMENT_INSUFFICIENT");
    expect(refused.rpc).toBe(3);
    note("POST /cases, insufficient proof (402)", refused);

    const malformed = await cost("/cases", filing(), { "X-PAYMENT": "not base64!" });
    expect(malformed.status).toBe(400);
    expect(malformed.rpc).toBe(0);
    note("POST /cases, malformed header (400)", malformed);
  });

  it("verify_transaction: 3 (transaction, receipt, block number), found or not", async () => {
    const paid = await actor.send({ to: feeRecipient, value: fee });
    const found = await cost("/cases/verify-tx", { txHash: paid.transactionHash, expectedValue: fee.toString() });
    expect(found.body.allExpectationsMet).toBe(true);
    expect(found.rpc).toBe(3);
    note("POST /cases/verify-tx, mined", found);
    const missing = await cost("/cases/verify-tx", { txHash: `0x${"67".repeat(32)}` });
    expect(missing.body.found).toBe(false);
    expect(missing.rpc).toBe(3);
    note("POST /cases/verify-tx, unknown", missing);
  });
});
