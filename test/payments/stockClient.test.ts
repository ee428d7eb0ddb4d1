/**
 * x402 v2 with clients nobody here wrote: the stock `@x402/fetch` (with `@x402/evm`'s "exact" EVM
 * scheme and a viem account of a dev key, configured as its README says) signs the filing fee in the
 * dev chain's EIP-3009 test stablecoin; docket checks it (and asks the dev facilitator's `/verify`,
 * the x402 project's own code, a process of its own) and answers the unsigned
 * fileCaseWithAuthorization carrying it, which is signed, mined and read back: the fee moves in the
 * filing itself. Then the same over MCP through the x402 binding (`_meta["x402/payment"]`), with the
 * official MCP client and x402's own payload builder; the refusals, each with its code; and a court
 * whose fee token behaves like USDC, with the race where someone submits the authorization first.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm";
import { wrapFetchWithPaymentFromConfig } from "@x402/fetch";
import { type Address, getAddress, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { caseFactoryAbi, testUSDAbi, usdcLikeAbi, usdcLikeBytecode } from "../../src/chain/abi/generated.js";
import { DEV_TOKEN_FILING_FEE } from "../../src/deploy/terms.js";
import { TestDocket } from "../support/index.js";
import { filing, transferArgs } from "./helpers.js";

const DEFENDANT = 2;
let t: TestDocket;
let token: Address;

/** What x402's README says a client configures: its scheme, and (a token outside x402's defaults) the asset it may pay. */
function stockFetch(signer: number) {
  return wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network: "eip155:*", client: new ExactEvmScheme(t.devnet.accounts[signer]?.account as never) }],
    spendControls: { allowedAssets: [{ network: "eip155:31337", asset: token }] },
  });
}

/** x402's own client, to make PaymentPayloads from (possibly doctored) requirements. */
function payloadFor(signer: number, required: PaymentRequired): Promise<PaymentPayload> {
  const client = x402Client.fromConfig({
    schemes: [{ network: "eip155:*", client: new ExactEvmScheme(t.devnet.accounts[signer]?.account as never) }],
    spendControls: false,
  });
  return client.createPaymentPayload(required);
}

async function sign(body: { unsigned_tx: { to: Address; value: string; data: Hex } }, signer: number) {
  const receipt = await t.actor(signer).send(body.unsigned_tx);
  const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
  if (!filed) throw new Error("no CaseFiled");
  const moves = parseEventLogs({ abi: testUSDAbi, eventName: "Transfer", logs: receipt.logs }).map((l) => l.args);
  return { ...filed.args, moves };
}

function tokenBalance(who: Address, asset: Address = token) {
  return t.chain.reader.readContract({ address: asset, abi: testUSDAbi, functionName: "balanceOf", args: [who] });
}

/** The fee recipient's token moves of a filing: the plaintiff to the factory, the factory to the recipient. */
function feeMoves(plaintiff: number, amount: bigint) {
  return [
    { from: t.address(plaintiff), to: t.chain.factory, value: amount },
    { from: t.chain.factory, to: t.address(0), value: amount },
  ];
}

/** The 402's v2 requirements, from its PAYMENT-REQUIRED header. */
async function required402(plaintiff: number): Promise<{ body: Record<string, unknown>; required: PaymentRequired }> {
  const body = filing(t, plaintiff, DEFENDANT);
  const r = await t.post("/cases", body);
  expect(r.status).toBe(402);
  return { body, required: decodePaymentRequiredHeader(r.headers.get("PAYMENT-REQUIRED") as string) };
}

function paymentSignature(p: PaymentPayload): Record<string, string> {
  return { "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(p)).toString("base64") };
}

beforeAll(async () => {
  t = await TestDocket.shared({ DEV_FACILITATOR: "on" });
  token = t.devnet.deployment.feeToken as Address;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("x402 v2: a stock client pays the filing fee", () => {
  it("402 carries PAYMENT-REQUIRED: v2, a resource, exact with the EIP-3009 token first, native-tx second", async () => {
    const { required } = await required402(15);
    expect(required).toMatchObject({
      x402Version: 2,
      error: "PAYMENT_REQUIRED",
      resource: { url: `${t.url}/cases`, mimeType: "application/json" },
    });
    expect(required.accepts).toMatchObject([
      {
        scheme: "exact",
        network: "eip155:31337",
        asset: token,
        amount: DEV_TOKEN_FILING_FEE.toString(),
        payTo: t.chain.factory,
        extra: { name: "Docket Test USD", version: "1" },
      },
      { scheme: "native-tx", network: "eip155:31337", asset: "0x0000000000000000000000000000000000000000" },
    ]);
  });

  it("@x402/fetch pays, docket answers the unsigned fileCase, signed and mined it is a Summoned case", async () => {
    const plaintiff = 15;
    const before = await tokenBalance(t.address(plaintiff));
    const res = await stockFetch(plaintiff)(`${t.url}/cases`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(filing(t, plaintiff, DEFENDANT)),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the answer is checked field by field
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    const settlement = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE") as string);
    // Accepted, and settled by the filing itself: nothing moved yet, no facilitator settled it.
    expect(settlement).toMatchObject({
      success: true,
      network: "eip155:31337",
      payer: t.address(plaintiff),
      transaction: "",
      amount: DEV_TOKEN_FILING_FEE.toString(),
      extra: { settlement: "in-filing-transaction", function: "fileCaseWithAuthorization" },
    });
    expect(body.payment).toMatchObject({ asset: token, amount: DEV_TOKEN_FILING_FEE.toString() });
    expect(await tokenBalance(t.address(plaintiff))).toBe(before);

    const filed = await sign(body, plaintiff);
    expect(filed.paymentRef).toBe(body.payment.paymentRef);
    expect(filed.moves).toEqual(feeMoves(plaintiff, DEV_TOKEN_FILING_FEE));
    const c = await t.get(`/cases/${filed.caseAddr}`);
    expect(c.body.case).toMatchObject({ state: "Summoned", plaintiff: t.address(plaintiff) });
    expect(await tokenBalance(t.address(plaintiff))).toBe(before - DEV_TOKEN_FILING_FEE);
    expect(await tokenBalance(t.chain.factory)).toBe(0n);
  });

  it("refusals: wrong amount, wrong payTo, someone else's payment, a forged signature, a replay", async () => {
    const plaintiff = 16;
    const { body, required } = await required402(plaintiff);
    const exact = required.accepts[0] as PaymentRequired["accepts"][number];
    const doctored = (changes: Partial<typeof exact>) => ({ ...required, accepts: [{ ...exact, ...changes }] });
    const refused = async (p: PaymentPayload, forBody = body) => {
      const r = await t.post("/cases", forBody, paymentSignature(p));
      const settlement = r.headers.get("PAYMENT-RESPONSE");
      return {
        status: r.status,
        // A 402: x402 v1's string `error`, docket's envelope beside it.
        code: r.body.docketError?.code,
        settlement: settlement && decodePaymentResponseHeader(settlement),
      };
    };

    const short = await refused(
      await payloadFor(plaintiff, doctored({ amount: (DEV_TOKEN_FILING_FEE - 1n).toString() })),
    );
    expect(short).toMatchObject({ status: 402, code: "PAYMENT_INSUFFICIENT", settlement: { success: false } });
    const elsewhere = await refused(await payloadFor(plaintiff, doctored({ payTo: t.address(3) })));
    expect(elsewhere).toMatchObject({ status: 402, code: "PAYMENT_WRONG_RECIPIENT" });
    // Account 17 signs; the filing names 16 as the plaintiff.
    const others = await refused(await payloadFor(17, required));
    expect(others).toMatchObject({ status: 402, code: "PAYMENT_WRONG_PAYER" });
    const good = await payloadFor(plaintiff, required);
    const forged = {
      ...good,
      payload: { ...good.payload, signature: (await payloadFor(17, required)).payload.signature },
    };
    expect(await refused(forged)).toMatchObject({ status: 402, code: "PAYMENT_INVALID" });
    // More than the payer holds: the token would refuse it, so docket does first.
    const rich = await refused(
      await payloadFor(plaintiff, doctored({ amount: (DEV_TOKEN_FILING_FEE * 10n ** 9n).toString() })),
    );
    expect(rich).toMatchObject({ status: 402, code: "PAYMENT_INVALID" });
    // Nothing moved for any of them.
    const balance = await tokenBalance(t.address(plaintiff));

    const paid = await t.post("/cases", body, paymentSignature(good));
    expect(paid.status).toBe(200);
    // A retry before the filing is mined: the same answer.
    const retry = await t.post("/cases", body, paymentSignature(good));
    expect(retry.status).toBe(200);
    expect(retry.body.unsigned_tx.data).toBe(paid.body.unsigned_tx.data);
    expect(await tokenBalance(t.address(plaintiff))).toBe(balance);
    const filed = await sign(paid.body, plaintiff);
    expect(await tokenBalance(t.address(plaintiff))).toBe(balance - DEV_TOKEN_FILING_FEE);
    // Once it filed a case, it files no other.
    const replay = await t.post("/cases", body, paymentSignature(good));
    expect(replay.status).toBe(409);
    expect(replay.body.error).toMatchObject({ code: "PAYMENT_ALREADY_USED", details: { usedBy: filed.caseAddr } });
  });

  it("a malformed PAYMENT-SIGNATURE is 400 PAYMENT_MALFORMED", async () => {
    const body = filing(t, 16, DEFENDANT);
    for (const header of ["not base64!", Buffer.from("{}").toString("base64")]) {
      const r = await t.post("/cases", body, { "PAYMENT-SIGNATURE": header });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("PAYMENT_MALFORMED");
    }
  });
});

describe("x402 over MCP (the transport binding)", () => {
  it("file_case: isError with the PaymentRequired, pay in _meta['x402/payment'], receipt in _meta['x402/payment-response']", async () => {
    const plaintiff = 18;
    const client = new Client({ name: "x402-mcp-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
    try {
      const args = filing(t, plaintiff, DEFENDANT);
      const first = (await client.callTool({ name: "file_case", arguments: args })) as CallToolResult;
      expect(first.isError).toBe(true);
      const required = first.structuredContent as unknown as PaymentRequired;
      const text = first.content.find((c) => c.type === "text");
      expect(text?.type === "text" && JSON.parse(text.text)).toEqual(required);
      expect(required).toMatchObject({ x402Version: 2, error: "PAYMENT_REQUIRED", accepts: [{ scheme: "exact" }, {}] });

      const payment = await payloadFor(plaintiff, required);
      const paid = (await client.callTool({
        name: "file_case",
        arguments: args,
        _meta: { "x402/payment": payment },
      })) as CallToolResult;
      expect(paid.isError, JSON.stringify(paid.structuredContent)).toBeFalsy();
      expect(paid._meta?.["x402/payment-response"]).toMatchObject({ success: true, payer: t.address(plaintiff) });
      const filed = await sign(paid.structuredContent as never, plaintiff);
      const c = await t.get(`/cases/${filed.caseAddr}`);
      expect(c.body.case).toMatchObject({ state: "Summoned", plaintiff: t.address(plaintiff) });

      // The binding's refusal: the same payment again is the error envelope's PAYMENT_ALREADY_USED.
      const again = (await client.callTool({
        name: "file_case",
        arguments: args,
        _meta: { "x402/payment": payment },
      })) as CallToolResult;
      expect(again.isError).toBe(true);
      expect(again.structuredContent).toMatchObject({ error: { code: "PAYMENT_ALREADY_USED" } });
    } finally {
      await client.close();
    }
  });
});

describe("a court whose fee token behaves like USDC (no TestUSD)", () => {
  let usdc: Address;
  const owner = () => t.actor(0);

  beforeAll(async () => {
    const deployed = await owner().mined(
      await owner().wallet.deployContract({ abi: usdcLikeAbi, bytecode: usdcLikeBytecode, args: [] }),
    );
    usdc = getAddress(deployed.contractAddress as Address);
    for (const i of [11, 12]) {
      await owner().write({ address: usdc, abi: usdcLikeAbi, functionName: "mint", args: [t.address(i), 10_000_000n] });
    }
    await owner().write({
      address: t.chain.factory,
      abi: caseFactoryAbi,
      functionName: "setTokenFee",
      args: [usdc, DEV_TOKEN_FILING_FEE],
    });
    // The follower hears TokenFeeChanged and drops the cached court parameters.
    await vi.waitFor(
      async () => {
        const r = await t.post("/cases", filing(t, 11, DEFENDANT));
        if (decodePaymentRequiredHeader(r.headers.get("PAYMENT-REQUIRED") as string).accepts[0]?.asset !== usdc) {
          throw new Error("the 402 still quotes the old fee token");
        }
      },
      { timeout: 10_000, interval: 200 },
    );
  }, 60_000);

  /** The stock client over a fetch that keeps the PAYMENT-SIGNATURE it sent, to replay it. */
  function usdcFetch(signer: number, sent: string[]) {
    const keep: typeof fetch = (input, init) => {
      const header = new Headers(input instanceof Request ? input.headers : init?.headers).get("PAYMENT-SIGNATURE");
      if (header) sent.push(header);
      return fetch(input, init);
    };
    return wrapFetchWithPaymentFromConfig(keep, {
      schemes: [{ network: "eip155:*", client: new ExactEvmScheme(t.devnet.accounts[signer]?.account as never) }],
      spendControls: { allowedAssets: [{ network: "eip155:31337", asset: usdc }] },
    });
  }

  it("the stock client files paying USDC; the fee lands at the fee recipient in the filing; the same authorization files no second case", async () => {
    const plaintiff = 11;
    const { required } = await required402(plaintiff);
    expect(required.accepts[0]).toMatchObject({
      scheme: "exact",
      asset: usdc,
      extra: { name: "USD Coin", version: "2" },
    });
    const recipientBefore = await tokenBalance(t.address(0), usdc);
    const body = filing(t, plaintiff, DEFENDANT);
    const sent: string[] = [];
    const res = await usdcFetch(plaintiff, sent)(`${t.url}/cases`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the answer is checked field by field
    const answer = (await res.json()) as any;
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.payment).toMatchObject({ asset: usdc, amount: DEV_TOKEN_FILING_FEE.toString() });
    const filed = await sign(answer, plaintiff);
    expect(filed.moves).toEqual(feeMoves(plaintiff, DEV_TOKEN_FILING_FEE));
    expect(await tokenBalance(t.address(0), usdc)).toBe(recipientBefore + DEV_TOKEN_FILING_FEE);
    expect(await tokenBalance(t.chain.factory, usdc)).toBe(0n);

    // The same authorization again, over HTTP and straight to the chain: refused.
    expect(sent).toHaveLength(1);
    const again = await t.post("/cases", body, { "PAYMENT-SIGNATURE": sent[0] as string });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "PAYMENT_ALREADY_USED", details: { usedBy: filed.caseAddr } });
    await expect(t.actor(plaintiff).send(answer.unsigned_tx)).rejects.toThrow();
  });

  it("the race: someone submits the authorization to the token first; the fee that arrived still files the case, once", async () => {
    const plaintiff = 12;
    const { body, required } = await required402(plaintiff);
    const payment = await payloadFor(plaintiff, required);
    const paid = await t.post("/cases", body, paymentSignature(payment));
    expect(paid.status).toBe(200);
    const start = await tokenBalance(t.address(plaintiff), usdc);

    // A front-runner (or a facilitator that settles first) hands the signed authorization to the token.
    await t.actor(19).write({
      address: usdc,
      abi: usdcLikeAbi,
      functionName: "transferWithAuthorization",
      args: transferArgs(payment.payload),
    });
    expect(await tokenBalance(t.chain.factory, usdc)).toBe(DEV_TOKEN_FILING_FEE);

    // Asked again before filing, docket still answers the filing (the fee is in the factory)...
    const again = await t.post("/cases", body, paymentSignature(payment));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    // ...and the filing docket answered goes through with the fee that arrived (issue #31, item 5).
    const filed = await sign(paid.body, plaintiff);
    expect(await tokenBalance(t.chain.factory, usdc)).toBe(0n);
    expect(await tokenBalance(t.address(plaintiff), usdc)).toBe(start - DEV_TOKEN_FILING_FEE);
    const late = await t.post("/cases", body, paymentSignature(payment));
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "PAYMENT_ALREADY_USED", details: { usedBy: filed.caseAddr } });
  });
});
