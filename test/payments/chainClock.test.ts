/**
 * The dev chain's clock against a stock x402 client's. anvil mines only on transactions, each one
 * second after the last, so an idle dev chain falls behind the wall clock (a second per idle second).
 * The stock v2 "exact" client (@x402/evm) signs `validAfter: 0` and `validBefore: now +
 * maxTimeoutSeconds` by the wall clock, so a chain behind it (here: started 15 minutes in the past,
 * as if left idle that long) still accepts the payment; a chain ahead is covered by docket widening
 * `maxTimeoutSeconds` (test/payments/stockClient.test.ts).
 */
import { x402Client } from "@x402/core/client";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm";
import { type Address, createWalletClient, type Hex, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testUSDAbi } from "../../src/chain/abi/generated.js";
import { DEV_TOKEN_FILING_FEE } from "../../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import { transferArgs } from "./helpers.js";

const BEHIND_SECONDS = 900;
let devnet: Devnet;
let genesisAt: number;

function wallet(i: number) {
  const account = devnet.accounts[i]?.account;
  if (!account) throw new Error(`no dev account ${i}`);
  return createWalletClient({ account, chain: devnet.chain, transport: http(devnet.rpcUrl, { retryCount: 0 }) });
}

beforeAll(async () => {
  genesisAt = Math.floor(Date.now() / 1000) - BEHIND_SECONDS;
  devnet = await startDevnet({ seed: false, genesisTimestamp: genesisAt });
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

describe("dev chain clock", () => {
  it("the chain stays where its blocks put it: more than 10 minutes behind the wall clock", async () => {
    const latest = await devnet.reader.getBlock();
    expect(Number(latest.timestamp)).toBeLessThan(Math.floor(Date.now() / 1000) - 600);
  });

  it("a stock x402 client's authorization, dated by the wall clock, is accepted by the token", async () => {
    const token = devnet.deployment.feeToken as Address;
    const factory = devnet.deployment.factory;
    const payer = wallet(5);
    const minted = await wallet(0).writeContract({
      address: token,
      abi: testUSDAbi,
      functionName: "mint",
      args: [payer.account.address, DEV_TOKEN_FILING_FEE],
    });
    await devnet.reader.waitForTransactionReceipt({ hash: minted, pollingInterval: 50 });
    const required: PaymentRequired = {
      x402Version: 2,
      resource: { url: "http://docket.test/cases", description: "file a case" },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:31337",
          asset: token,
          amount: DEV_TOKEN_FILING_FEE.toString(),
          payTo: factory,
          maxTimeoutSeconds: 300,
          extra: { name: "Docket Test USD", version: "1" },
        },
      ],
    };
    const client = x402Client.fromConfig({
      schemes: [{ network: "eip155:*", client: new ExactEvmScheme(payer.account as never) }],
      spendControls: false,
    });
    const { payload } = await client.createPaymentPayload(required);
    const a = payload.authorization as Record<string, string>;
    expect(BigInt(a.validBefore as string)).toBeGreaterThan(BigInt(genesisAt + BEHIND_SECONDS)); // the wall clock's
    expect((await devnet.reader.getBlock()).timestamp).toBeLessThan(BigInt(a.validBefore as string) - 600n);
    // Submitted by another account, as a facilitator would.
    const hash = await wallet(19).writeContract({
      address: token,
      abi: testUSDAbi,
      functionName: "transferWithAuthorization",
      args: transferArgs(payload),
    });
    const receipt = await devnet.reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe("success");
    const used = await devnet.reader.readContract({
      address: token,
      abi: testUSDAbi,
      functionName: "authorizationState",
      args: [payer.account.address, a.nonce as Hex],
    });
    expect(used).toBe(true);
    const held = await devnet.reader.readContract({
      address: token,
      abi: testUSDAbi,
      functionName: "balanceOf",
      args: [factory],
    });
    expect(held).toBe(DEV_TOKEN_FILING_FEE);
  });
});
