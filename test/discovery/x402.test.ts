import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type DiscoveredHTTPResource,
  extractDiscoveryInfo,
  extractDiscoveryInfoV1,
  validateAndExtract,
} from "@x402/extensions/bazaar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorReasons, SettleResponseSchema, x402ResponseSchema } from "x402/types";
import { loadConfig } from "../../src/config.js";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import { fileCase } from "../../src/operations/cases/fileCase.js";
import { jsonSchemaOf } from "../../src/operations/kernel/schemas.js";
import { type Docket, startServer } from "../../src/server.js";
import { connect, type Json } from "../mcp/helpers.js";
import { externalChainEnv } from "../support/index.js";

/** Base Sepolia's chain id: a chain x402 v1 names ("base-sepolia"), so its 402 can pass v1's schema whole. */
const BASE_SEPOLIA = 84532;

const plaintiff = devAccount(15).address;
const filing = {
  plaintiff,
  defendant: devAccount(1).address,
  claimDescription: "Paid for a dataset that was never delivered.",
  evidenceIpfsHash: "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e",
};
const decode = (header: string | null): Json => JSON.parse(Buffer.from(header ?? "", "base64").toString("utf8"));

/**
 * x402 as each version's own tools read docket's 402: the v1 body with x402 v1's published
 * `x402ResponseSchema` (on a chain v1 names: the dev chain's eip155:31337 is no v1 network), the v1
 * settlement of a refused proof with v1's `SettleResponseSchema`, and the Bazaar discovery metadata of
 * the paid filing route with `@x402/extensions`' own helpers, over HTTP (v2 and v1) and MCP.
 */
describe("x402: the 402 passes v1's schema and carries Bazaar discovery metadata", () => {
  let devnet: Devnet;
  let docket: Docket;
  const post = (headers: Record<string, string> = {}) =>
    fetch(`${docket.url}/cases`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(filing),
    });

  beforeAll(async () => {
    devnet = await startDevnet({ chainId: BASE_SEPOLIA, seed: false });
    docket = await startServer(loadConfig(externalChainEnv(devnet, { DEV_FACILITATOR: "off" })));
  }, 120_000);
  afterAll(async () => {
    await docket?.close();
    await devnet?.stop();
  });

  it("a 402 without a proof parses with x402 v1's x402ResponseSchema; docket's own code stays in docketError", async () => {
    const res = await post();
    expect(res.status).toBe(402);
    const body: Json = await res.json();
    const parsed = x402ResponseSchema.safeParse(body);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(body.accepts[0].network).toBe("base-sepolia");
    expect(body.docketError.code).toBe("PAYMENT_REQUIRED");
  });

  it("a refused proof's 402 says why in one of v1's error reasons, and its X-PAYMENT-RESPONSE parses with v1's SettleResponseSchema", async () => {
    const proof = {
      x402Version: 1,
      scheme: "exact",
      network: "base-sepolia",
      payload: { txHash: `0x${"ab".repeat(32)}` },
    };
    const res = await post({ "X-PAYMENT": Buffer.from(JSON.stringify(proof)).toString("base64") });
    expect(res.status).toBe(402);
    const body: Json = await res.json();
    expect(x402ResponseSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    expect(ErrorReasons).toContain(body.error);
    expect(body.docketError.code).toBe("PAYMENT_NOT_FOUND");
    const settle = decode(res.headers.get("x-payment-response"));
    expect(SettleResponseSchema.safeParse(settle).error?.issues ?? []).toEqual([]);
    expect(settle).toMatchObject({ success: false, errorReason: body.error });
  });

  it("the v2 PAYMENT-REQUIRED declares the route to Bazaar: a facilitator's extractDiscoveryInfo reads method, body schema and output", async () => {
    const res = await post();
    const required = decode(res.headers.get("payment-required"));
    const ext = required.extensions?.bazaar;
    const checked = validateAndExtract(ext);
    expect(checked.errors ?? []).toEqual([]);
    expect(checked.valid).toBe(true);
    // What a facilitator does with a payment whose client echoed the 402's extensions.
    const payload = {
      x402Version: 2,
      resource: required.resource,
      accepted: required.accepts[0],
      payload: {},
      extensions: required.extensions,
    };
    const found = extractDiscoveryInfo(payload as Json, required.accepts[0]) as DiscoveredHTTPResource;
    expect(found).toMatchObject({ resourceUrl: `${docket.url}/cases`, method: "POST", x402Version: 2 });
    expect(found.discoveryInfo.input).toMatchObject({
      type: "http",
      method: "POST",
      bodyType: "json",
      body: fileCase.example,
    });
    // The body's schema is the operation's own input schema (the one the route validates with).
    expect(ext.schema.properties.input.properties.body).toEqual(jsonSchemaOf(fileCase.input, "input"));
    expect(ext.info.output.example).toHaveProperty("unsigned_tx");
  });

  it("the v1 body declares it too: extractDiscoveryInfoV1 reads accepts[0].outputSchema", async () => {
    const body: Json = await (await post()).json();
    const info = extractDiscoveryInfoV1(body.accepts[0]) as Json;
    expect(info).toMatchObject({ input: { type: "http", method: "POST", bodyType: "json" } });
    expect(Object.keys(info.input.body)).toEqual(
      expect.arrayContaining(["plaintiff", "defendant", "claimDescription"]),
    );
  });

  it("over MCP the 402 result declares the file_case tool to Bazaar", async () => {
    const client = await connect(new StreamableHTTPClientTransport(new URL(`${docket.url}/mcp`)));
    try {
      const r: Json = await client.callTool({ name: "file_case", arguments: filing });
      expect(r.isError).toBe(true);
      const ext = r.structuredContent.extensions?.bazaar;
      const checked = validateAndExtract(ext);
      expect(checked.errors ?? []).toEqual([]);
      const input = checked.info?.input as Json;
      expect(input).toMatchObject({ type: "mcp", toolName: "file_case" });
      expect(input.inputSchema).toEqual(jsonSchemaOf(fileCase.input, "input"));
    } finally {
      await client.close();
    }
  });
});
