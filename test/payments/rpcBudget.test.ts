import { encodeFunctionData, type Hex, keccak256, parseEventLogs, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import { loadConfig } from "../../src/config.js";
import { Actor } from "../../src/devnet/actor.js";
import type { Devnet } from "../../src/devnet/devnet.js";
import { rawCid } from "../../src/evidence/cid.js";
import { encodePaymentHeader } from "../../src/payments/x402.js";
import { type Docket, startServer } from "../../src/server.js";
import { leaseChain, type RpcProxy, startRpcProxy } from "../support/index.js";

/**
 * What file_case and verify_transaction cost in JSON-RPC requests, counted at a proxy between docket
 * and the dev chain. A proof costs 3 whatever the outcome: the transaction, its receipt, and one
 * multicall for the court parameters and the feePayment record of the reference its FilingFeePaid
 * log names.
 */
describe("payments: JSON-RPC requests per HTTP request", () => {
  let devnet: Devnet;
  let proxy: RpcProxy;
  let docket: Docket;
  let actor: Actor;
  let stranger: Actor;
  let owner: Actor;
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
  const actorOf = (i: number) =>
    new Actor((devnet.accounts[i] as { account: Actor["account"] }).account, devnet.chain, devnet.reader);
  let refs = 0;
  /** payFilingFee(ref) as `who`, straight to the chain; `gas` broadcasts one bound to revert. */
  async function payFee(who: Actor, value: bigint, gas?: bigint) {
    refs += 1;
    const ref = keccak256(toHex(`budget ref ${refs}`));
    const data = encodeFunctionData({ abi: caseFactoryAbi, functionName: "payFilingFee", args: [ref] });
    const hash = await who.wallet.sendTransaction({
      account: who.account,
      chain: who.chain,
      to: devnet.deployment.factory,
      value,
      data,
      gas,
    });
    return devnet.reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  }
  const proofOf = (hash: Hex) => ({ "X-PAYMENT": encodePaymentHeader(hash, devnet.chainId) });
  const filing = () => ({
    plaintiff: actor.address,
    defendant: devnet.accounts[19]?.address,
    claimDescription: `claim ${Math.random()}`,
    evidenceIpfsHash: rawCid("budget").toString(),
  });

  beforeAll(async () => {
    devnet = (await leaseChain()).devnet;
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
    actor = actorOf(15);
    stranger = actorOf(16);
    owner = actorOf(0);
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

  it("no proof: 3 requests cold (court parameters, the court tree for the court's minimum stake, the fee token's domain with the chain clock), 0 once they are cached", async () => {
    const cold = await cost("/cases", filing());
    expect(cold.status).toBe(402);
    expect(cold.rpc, JSON.stringify(cold.methods)).toBe(3);
    note("POST /cases, no proof, cold", cold);
    const warm = await cost("/cases", filing());
    expect(warm.status).toBe(402);
    expect(warm.rpc).toBe(0);
    note("POST /cases, no proof, warm", warm);
  });

  it("a valid proof: exactly 3 (transaction, receipt, one multicall); a refused one: 3; a malformed header: 0", async () => {
    // Paid as the 402 says, so the proof is the one a client really sends.
    const r402 = await cost("/cases", filing());
    expect(r402.status).toBe(402);
    const paid = await actor.send(r402.body.accepts[0].extra.unsigned_tx);
    const body = filing();
    const ok = await cost("/cases", body, proofOf(paid.transactionHash));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.payment.paymentRef).toBe(r402.body.accepts[0].extra.paymentRef);
    expect(ok.rpc, JSON.stringify(ok.methods)).toBe(3);
    expect(ok.methods).toEqual({ eth_getTransactionByHash: 1, eth_getTransactionReceipt: 1, eth_call: 1 });
    note("POST /cases, valid proof", ok);
    // The filing is signed and docket serves the case.
    const filed = await actor.send(ok.body.unsigned_tx);
    const [event] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: filed.logs });
    const c = (await (await fetch(`${docket.url}/cases/${event?.args.caseAddr}`)).json()) as { case: unknown };
    expect(c.case).toMatchObject({ state: "Summoned", claimDescription: body.claimDescription });

    const refusals: [string, Hex, string, number][] = [
      ["unknown proof", `0x${"66".repeat(32)}`, "PAYMENT_NOT_FOUND", 402],
      ["reverted payment", (await payFee(actor, fee - 1n, 200_000n)).transactionHash, "PAYMENT_FAILED", 402],
      [
        "plain transfer",
        (await actor.send({ to: feeRecipient, value: fee })).transactionHash,
        "PAYMENT_WRONG_RECIPIENT",
        402,
      ],
      ["someone else's payment", (await payFee(stranger, fee)).transactionHash, "PAYMENT_WRONG_PAYER", 402],
      ["used proof", paid.transactionHash, "PAYMENT_ALREADY_USED", 409],
    ];
    for (const [what, hash, code, status] of refusals) {
      const refused = await cost("/cases", filing(), proofOf(hash));
      expect(refused.status, what).toBe(status);
      // A 402 carries docket's envelope beside x402 v1's string `error`; a 409 is the envelope itself.
      expect((refused.body.docketError ?? refused.body.error).code, what).toBe(code);
      expect(refused.rpc, what).toBe(3);
      expect(refused.methods, what).toEqual({ eth_getTransactionByHash: 1, eth_getTransactionReceipt: 1, eth_call: 1 });
      note(`POST /cases, ${what} (${status})`, refused);
    }

    const malformed = await cost("/cases", filing(), { "X-PAYMENT": "not base64!" });
    expect(malformed.status).toBe(400);
    expect(malformed.rpc).toBe(0);
    note("POST /cases, malformed header (400)", malformed);
  });

  it("a payment below a since raised fee: 402 PAYMENT_INSUFFICIENT, still 3", async () => {
    const paid = await payFee(actor, fee);
    const setFee = (value: bigint) =>
      owner.write({
        address: devnet.deployment.factory,
        abi: caseFactoryAbi,
        functionName: "setFiling",
        args: [feeRecipient, value],
      });
    await setFee(fee + 1n);
    try {
      const refused = await cost("/cases", filing(), proofOf(paid.transactionHash));
      expect(refused.body.docketError.code).toBe("PAYMENT_INSUFFICIENT");
      expect(refused.rpc).toBe(3);
      note("POST /cases, insufficient proof (402)", refused);
    } finally {
      await setFee(fee);
    }
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
