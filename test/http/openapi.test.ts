import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { TOOLSETS } from "../../src/operations/kernel/operation.js";
import { type Docket, startServer } from "../../src/server.js";
import { TEST_INDEX } from "../support/index.js";

const run = promisify(execFile);

// No chain is needed to serve the document.
const NO_CHAIN = {
  PORT: "0",
  LOG_LEVEL: "silent",
  RPC_URL: "http://127.0.0.1:9",
  CHAIN_ID: "31337",
  FACTORY_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  REGISTRY_ADDRESS: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
};

// biome-ignore lint/suspicious/noExplicitAny: the document is checked field by field
type Json = Record<string, any>;

async function openapi(base: string, headers: Record<string, string> = {}): Promise<Json> {
  return (await fetch(`${base}/openapi.json`, { headers })).json() as Promise<Json>;
}

/** The served OpenAPI document: lint-clean, its server the address the client used, payments declared. */
describe("/openapi.json", () => {
  let plain: Docket;
  let proxied: Docket;
  let dir: string;

  beforeAll(async () => {
    [plain, proxied] = await Promise.all([
      startServer(loadConfig(NO_CHAIN)),
      startServer(loadConfig({ ...TEST_INDEX, ...NO_CHAIN, TRUST_PROXY: "1" })),
    ]);
    dir = await mkdtemp(join(tmpdir(), "docket-openapi-"));
  });
  afterAll(async () => {
    await Promise.all([plain?.close(), proxied?.close()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("is clean under `redocly lint` (recommended rules, redocly.yaml), offline", async () => {
    const file = join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(await openapi(plain.url)));
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_NOTIFICATIONS: "true" };
    const args = ["lint", file, "--config", "redocly.yaml", "--format", "json"];
    // A problem makes redocly exit non-zero; its report is on stdout all the same.
    const { stdout } = await run("node_modules/.bin/redocly", args, { env }).catch((err: { stdout: string }) => err);
    const report = JSON.parse(stdout) as { totals: Record<string, number>; problems: unknown[] };
    expect(report.problems, JSON.stringify(report.problems, null, 1).slice(0, 2000)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it("shows no number a person would not write: no integer bounded by ±2^53 (Swagger's example for a count or a time)", async () => {
    const doc = JSON.stringify(await openapi(plain.url));
    expect(doc.match(/9007199254740991/g)?.length ?? 0).toBe(0);
  });

  it("/docs/ is laid out for a phone: it carries a viewport tag", async () => {
    const html = await (await fetch(`${plain.url}/docs/`)).text();
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it("names the server the client reached; behind a trusted proxy, the proxy's public address", async () => {
    const forwarded = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "docket.example:8443" };
    expect((await openapi(plain.url)).servers).toEqual([{ url: plain.url }]);
    // Untrusted, the forwarded headers are anyone's to send: ignored.
    expect((await openapi(plain.url, forwarded)).servers).toEqual([{ url: plain.url }]);
    expect((await openapi(proxied.url, forwarded)).servers).toEqual([{ url: "https://docket.example:8443" }]);
  });

  it("file_case takes PAYMENT-SIGNATURE and X-PAYMENT, answers their responses, and its 402 is the x402 body", async () => {
    const op = (await openapi(plain.url)).paths["/cases"].post;
    for (const name of ["PAYMENT-SIGNATURE", "X-PAYMENT"]) {
      expect(op.parameters).toContainEqual(expect.objectContaining({ name, in: "header", required: false }));
    }
    expect(Object.keys(op.responses["200"].headers)).toEqual(["PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"]);
    expect(op.responses["200"].content["application/json"].schema.required).toEqual([
      "unsigned_tx",
      "instructions",
      "payment",
    ]);
    const r402 = op.responses["402"];
    expect(Object.keys(r402.headers)).toEqual(["PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"]);
    const body = r402.content["application/json"].schema;
    expect(body.required).toEqual(["x402Version", "accepts", "docketError"]);
    expect(body.properties.x402Version).toMatchObject({ const: 1 });
    // x402 v1's schema: `error` one of v1's error reasons (absent without a proof); docket's code in its envelope beside it.
    expect(body.properties.error).toMatchObject({ type: "string" });
    expect(body.properties.error.enum).toContain("invalid_transaction_state");
    expect(body.properties.error.enum).not.toContain("PAYMENT_REQUIRED");
    expect(body.properties.docketError.properties.code.enum).toContain("PAYMENT_REQUIRED");
    expect(body.properties.accepts.items.required).toEqual(
      expect.arrayContaining(["scheme", "network", "maxAmountRequired", "payTo", "asset", "resource", "extra"]),
    );
    expect(body.properties.accepts.items.properties.extra.properties.unsigned_tx.required).toEqual([
      "to",
      "value",
      "data",
      "chainId",
    ]);
    expect(op.responses["409"].content["application/json"].schema.properties.error.properties.code.enum).toEqual([
      "PAYMENT_ALREADY_USED",
    ]);
  });

  it("declares every tag an operation carries, one per toolset, each described", async () => {
    const doc = await openapi(plain.url);
    const declared = (doc.tags as { name: string; description: string }[]).filter((t) => t.name !== "events");
    expect(declared.map((t) => t.name)).toEqual([...TOOLSETS]);
    expect(declared.every((t) => t.description.length > 10)).toBe(true);
    const used = new Set<string>();
    for (const item of Object.values(doc.paths as Record<string, Record<string, { tags?: string[] }>>)) {
      for (const op of Object.values(item)) for (const tag of op.tags ?? []) used.add(tag);
    }
    expect([...used].filter((t) => !declared.some((d) => d.name === t) && t !== "events")).toEqual([]);
    expect(used.has("jobs")).toBe(true);
  });

  it("only file_case pays: no other operation declares a payment header, a 402, or a 409 of a payment's", async () => {
    const doc = await openapi(plain.url);
    for (const [path, methods] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(methods as Json)) {
        if (path === "/cases" && method === "post") continue;
        expect(Object.keys(op.responses), op.operationId).not.toContain("402");
        // A 409 elsewhere is no payment's: create_webhook's is an address's webhook limit.
        if (op.responses["409"]) expect(JSON.stringify(op.responses["409"]), op.operationId).not.toMatch(/PAYMENT/);
        // GET /events takes Last-Event-ID, the SSE resume header: not a payment header.
        const headers = op.parameters.filter((p: Json) => p.in === "header" && p.name !== "Last-Event-ID");
        expect(headers, op.operationId).toEqual([]);
      }
    }
  });
});
