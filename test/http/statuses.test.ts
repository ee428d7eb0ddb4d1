import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { rawCid } from "../../src/evidence/cid.js";
import { ADDRESS_PATTERN, AMOUNT_PATTERN, EVIDENCE_REF_PATTERN, TX_HASH_PATTERN } from "../../src/formats.js";
import { type InputField, inputFields } from "../../src/http/operationErrors.js";
import type { Operation } from "../../src/operations/kernel/operation.js";
import { operations } from "../../src/operations/registry.js";
import { MAX_WEBHOOKS_PER_OWNER } from "../../src/operations/webhooks/createWebhook.js";
import { type Docket, startServer } from "../../src/server.js";
import { filing, payAsTold, xPayment } from "../payments/helpers.js";
import { arbitrationEnv, externalChainEnv, TEST_INDEX, TestDocket } from "../support/index.js";

/**
 * The statuses the OpenAPI document declares are the statuses docket answers with. Every operation
 * gets the same battery of real requests (valid input aimed at nothing, a malformed path parameter,
 * bad JSON, a court that does not exist, every field of the wrong type, an oversized and a non-JSON body; a dead chain node; a
 * node on another chain; a client over its rate limit; the payments of filing). Each answer's status
 * must be declared for that operation, and its error code listed for that status; and every status
 * an operation declares must have been answered at least once (200s here or in routes.test.ts).
 */

type Json = Record<string, unknown>;
interface Declared {
  statuses: Set<string>;
  /** The error codes each declared status lists. */
  codes: Map<string, string[]>;
}

const hex = (bytes: number) => `0x${randomBytes(bytes).toString("hex")}`;

/** A value the field's schema accepts (fresh addresses and hashes: they name nothing on chain). */
function sample(schema: Json): unknown {
  if (schema.pattern === ADDRESS_PATTERN) return hex(20);
  if (schema.pattern === TX_HASH_PATTERN) return hex(32);
  if (schema.pattern === AMOUNT_PATTERN) return "1000";
  // A well-formed CID of content nobody published.
  if (schema.pattern === EVIDENCE_REF_PATTERN) return rawCid(randomBytes(8)).toString();
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case "boolean":
      return true;
    case "integer":
    case "number":
      return schema.default ?? schema.minimum ?? 1;
    case "array":
      return Array.from({ length: Number(schema.minItems ?? 1) }, () => sample(schema.items as Json));
    default:
      return "x".repeat(Math.max(1, Number(schema.minLength ?? 1)));
  }
}

interface Call {
  /** Values by field name; a field not given is sampled. */
  values?: Record<string, unknown>;
  body?: string;
  headers?: Record<string, string>;
}

/** Sends `op` to `base` with sampled input (overridden by `call`); the status and the parsed body. */
async function send(base: string, op: Operation, call: Call = {}): Promise<{ status: number; body: Json }> {
  const fields = inputFields(op);
  const value = (f: InputField) => (f.name in (call.values ?? {}) ? call.values?.[f.name] : sample(f.schema));
  // A keyset cursor (cursor, jobsCursor) is only valid as a list gave it: left out unless the call names one.
  const skip = (f: InputField) => /cursor$/i.test(f.name) && !(f.name in (call.values ?? {}));
  let path = op.http.path;
  const query = new URLSearchParams();
  const body: Json = {};
  for (const f of fields) {
    if (skip(f)) continue;
    const v = value(f);
    if (f.place === "path") path = path.replace(`:${f.name}`, encodeURIComponent(String(v)));
    else if (f.place === "query") for (const x of [v].flat()) query.append(f.name, String(x));
    else body[f.name] = v;
  }
  const url = `${base}${path}${query.size ? `?${query}` : ""}`;
  const res =
    op.http.method === "GET"
      ? await fetch(url, { headers: call.headers })
      : await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...call.headers },
          body: call.body ?? JSON.stringify(body),
        });
  return { status: res.status, body: (await res.json()) as Json };
}

describe("every operation answers only the statuses its OpenAPI entry declares, and each of them", () => {
  let t: TestDocket;
  let deadNode: Docket;
  let wrongChain: Docket;
  /** A docket on a chain where it was told of no arbitration contracts (docs/arbitration.md). */
  let noArbitration: Docket;
  const declared = new Map<string, Declared>();
  const seen = new Map<string, Set<string>>();

  /** Records an answer of `op`, and checks its status and code are declared. */
  function record(op: Operation, what: string, r: { status: number; body: Json }) {
    const d = declared.get(op.name) as Declared;
    const status = String(r.status);
    const label = `${op.name}, ${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`;
    expect(d.statuses.has(status), label).toBe(true);
    // A 402 is x402 v1's body: docket's envelope is in docketError, beside the string `error`.
    const envelope = (r.status === 402 ? r.body.docketError : r.body.error) as { code?: string } | undefined;
    const code = envelope?.code;
    if (r.status >= 400 && !(op.answers && status in op.answers)) {
      expect(d.codes.get(status), label).toContain(code);
    }
    seen.get(op.name)?.add(status);
  }

  beforeAll(async () => {
    t = await TestDocket.shared();
    const doc = (await t.get("/openapi.json")).body as { paths: Record<string, Record<string, Json>> };
    for (const op of operations) {
      const entry = doc.paths[op.http.path.replace(/:([A-Za-z_]+)/g, "{$1}")]?.[op.http.method.toLowerCase()] as Json;
      const responses = entry.responses as Record<string, { content: Record<string, { schema: Json }> }>;
      const codes = new Map<string, string[]>();
      for (const [status, r] of Object.entries(responses)) {
        // A raw answer (GET /evidence/{cid}'s 200) has no JSON schema; a 402 keeps its code in docketError.
        const schema = r.content["application/json"]?.schema as { properties?: Json } | undefined;
        const error = (schema?.properties?.docketError ?? schema?.properties?.error) as
          | { properties?: { code?: { enum?: string[] } } }
          | undefined;
        codes.set(status, error?.properties?.code?.enum ?? []);
      }
      declared.set(op.name, { statuses: new Set(Object.keys(responses).filter((s) => s !== "default")), codes });
      seen.set(op.name, new Set());
    }
    // One client per operation (X-Forwarded-For, trusted): its second request is over the limit.
    deadNode = await startServer(
      loadConfig({
        ...TEST_INDEX,
        PORT: "0",
        LOG_LEVEL: "silent",
        RPC_URL: "http://127.0.0.1:9",
        CHAIN_ID: "31337",
        FACTORY_ADDRESS: t.chain.factory,
        REGISTRY_ADDRESS: t.chain.registry,
        RATE_LIMIT_PER_MINUTE: "1",
        TRUST_PROXY: "1",
        // Nothing listens there: the first refusal is the answer (retrying within a budget is
        // test/quality/resilience/rpcFaults.test.ts's subject), not five seconds of retries a request.
        RPC_RETRY_BUDGET_MS: "0",
        ...arbitrationEnv(t.devnet),
      }),
    );
    wrongChain = await startServer(
      loadConfig(externalChainEnv(t.devnet, { CHAIN_ID: "1", RATE_LIMIT_PER_MINUTE: "0" })),
    );
    const bare = externalChainEnv(t.devnet, { RATE_LIMIT_PER_MINUTE: "0" });
    for (const k of Object.keys(arbitrationEnv(t.devnet))) delete bare[k];
    noArbitration = await startServer(loadConfig(bare));
  });
  afterAll(async () => {
    await Promise.all([t?.close(), deadNode?.close(), wrongChain?.close(), noArbitration?.close()]);
  });

  for (const [i, op] of operations.entries()) {
    it(`${op.http.method} ${op.http.path} (${op.name})`, async () => {
      const fields = inputFields(op);
      const pathFields = fields.filter((f) => f.place === "path");
      // Valid input naming accounts, cases and payments that do not exist.
      record(op, "valid input", await send(t.url, op));
      if (pathFields.length > 0) {
        const values = Object.fromEntries(pathFields.map((f) => [f.name, "nope"]));
        record(op, "malformed path parameter", await send(t.url, op, { values }));
      }
      // A well-formed court id that names no court (the dev world has two): 404 where a court is looked up.
      const courtFields = fields.filter((f) => f.name === "court" || (op.name === "get_court" && f.name === "id"));
      if (courtFields.length > 0) {
        const values = Object.fromEntries(courtFields.map((f) => [f.name, 64]));
        record(op, "unknown court", await send(t.url, op, { values }));
      }
      // A keyset cursor that is not of a cursor's shape: 400 where a list pages by one.
      if (fields.some((f) => f.name === "cursor")) {
        record(op, "a cursor of another shape", await send(t.url, op, { values: { cursor: "x" } }));
      }
      const rest = fields.filter((f) => f.place !== "path");
      if (rest.length > 0) {
        const values = Object.fromEntries(rest.map((f) => [f.name, 12345]));
        record(op, "every field of the wrong type", await send(t.url, op, { values }));
      }
      if (op.http.method === "POST") {
        record(op, "bad JSON", await send(t.url, op, { body: "{" }));
        record(op, "body over 64 kB", await send(t.url, op, { body: JSON.stringify({ pad: "x".repeat(70_000) }) }));
        const text = { "content-type": "text/plain" };
        record(op, "not JSON", await send(t.url, op, { body: "hello", headers: text }));
      }
      // A node that cannot be reached, then the same client again, over its limit of one a minute.
      const client = { "X-Forwarded-For": `127.1.0.${i + 1}` };
      record(op, "dead chain node", await send(deadNode.url, op, { headers: client }));
      record(op, "over the rate limit", await send(deadNode.url, op, { headers: client }));
      record(op, "node on another chain", await send(wrongChain.url, op));
      if (op.toolset === "jobs") record(op, "no arbitration contracts", await send(noArbitration.url, op));
    });
  }

  // The probes above send every optional field, so list_cases always takes its filtered path (the
  // index): its unfiltered path (the chain) is probed here, a dead node and a limit out of range.
  it("list_cases without filters: a dead chain node, a limit out of range", async () => {
    const listCases = operations.find((o) => o.name === "list_cases") as Operation;
    const unfiltered = async (base: string, query: string) => {
      const res = await fetch(`${base}/cases?${query}`);
      return { status: res.status, body: (await res.json()) as Json };
    };
    const dead = await unfiltered(deadNode.url, "limit=20&offset=0");
    expect(dead.status).toBe(500);
    record(listCases, "dead chain node, no filter", dead);
    const tooMany = await unfiltered(t.url, "limit=100000&offset=0");
    expect([400, 422]).toContain(tooMany.status);
    record(listCases, "a limit out of range", tooMany);
  });

  it("file_case: 402 without a proof, 200 with it, 409 when the paid fee has filed a case", async () => {
    const fileCase = operations.find((o) => o.name === "file_case") as Operation;
    const body = filing(t, 15, 19);
    const r402 = await t.post("/cases", body);
    record(fileCase, "no proof", r402);
    const proof = await payAsTold(t, r402, 15);
    const r200 = await t.post("/cases", body, xPayment(proof));
    record(fileCase, "a proof", r200);
    await t.actor(15).send(r200.body.unsigned_tx);
    record(fileCase, "a used proof", await t.post("/cases", body, xPayment(proof)));
  });

  it("the job operations: a state list_jobs does not know (422); writes with consistent input on a node that cannot be reached (500)", async () => {
    const listJobs = operations.find((o) => o.name === "list_jobs") as Operation;
    const r = await fetch(`${t.url}/jobs?state=Lost`);
    record(listJobs, "unknown state", { status: r.status, body: (await r.json()) as Json });
    // Unfiltered, list_jobs is the chain's page (the probes above filter it: the index).
    const dead = await fetch(`${deadNode.url}/jobs?limit=20&offset=0`, { headers: { "X-Forwarded-For": "127.9.0.1" } });
    expect(dead.status).toBe(500);
    record(listJobs, "dead chain node, no filter", { status: dead.status, body: (await dead.json()) as Json });
    const from = hex(20);
    const calls: [string, Record<string, unknown>][] = [
      ["create_job", { from, provider: hex(20), description: "x", court: 1 }],
      ["submit_job", { id: 1, from, deliverable: hex(32) }],
      ["dispute_job", { id: 1, from, statement: "x" }],
    ];
    for (const [i, [name, body]] of calls.entries()) {
      const op = operations.find((o) => o.name === name) as Operation;
      const path = op.http.path.replace(":id", "1");
      const { id: _, ...rest } = body;
      const res = await fetch(`${deadNode.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Forwarded-For": `127.2.0.${i + 1}` },
        body: JSON.stringify(rest),
      });
      record(op, "dead chain node, consistent input", { status: res.status, body: (await res.json()) as Json });
    }
  });

  it("publish_evidence: 415 for a media type docket does not take, 413 past EVIDENCE_MAX_BYTES (10 MiB)", async () => {
    const publish = operations.find((o) => o.name === "publish_evidence") as Operation;
    const upload = async (body: Uint8Array | string, type: string) => {
      const res = await fetch(`${t.url}/evidence`, { method: "POST", headers: { "content-type": type }, body });
      return { status: res.status, body: (await res.json()) as Json };
    };
    record(publish, "HTML", await upload("<script>alert(1)</script>", "text/html"));
    record(publish, "over the limit", await upload(new Uint8Array(10 * 1024 * 1024 + 1), "application/pdf"));
  });

  it("the webhook operations: 403 for another address's nonce or webhook, 404 for no webhook, 409 past the cap, 422 for a URL refused", async () => {
    const op = (name: string) => operations.find((o) => o.name === name) as Operation;
    const alice = devAccount(11).account;
    const bob = devAccount(12).account;
    /** A message on a nonce issued to `to`, naming `signer` and signed by it. */
    const signed = async (signer = alice, to = signer) => {
      const issued = (await t.get(`/webhooks/nonce?address=${to.address}`)).body.message as string;
      const message = issued.replace(to.address, signer.address);
      return { message, signature: await signer.signMessage({ message }) };
    };
    const url = "https://hooks.example/statuses";
    // An address given twice is a list where one is expected: 422.
    const twice = await fetch(`${t.url}/webhooks/nonce?address=${alice.address}&address=${bob.address}`);
    record(op("get_webhook_nonce"), "two addresses", { status: twice.status, body: (await twice.json()) as Json });
    record(op("create_webhook"), "another's nonce", await t.post("/webhooks", { ...(await signed(bob, alice)), url }));
    record(op("list_webhooks"), "another's nonce", await t.post("/webhooks/list", await signed(bob, alice)));
    record(
      op("create_webhook"),
      "a private URL",
      await t.post("/webhooks", { ...(await signed()), url: "http://10.1.2.3/" }),
    );
    const none = `wh_${"0".repeat(24)}`;
    // Well-formed input but no sign-in message (401); the same on a node that serves another chain (503).
    const unsigned = { message: "x", signature: "0x00" };
    const requests: [string, string, Json][] = [
      ["create_webhook", "/webhooks", { ...unsigned, url }],
      ["list_webhooks", "/webhooks/list", unsigned],
      ["delete_webhook", `/webhooks/${none}/delete`, unsigned],
      ["verify_webhook", `/webhooks/${none}/verify`, unsigned],
      ["update_webhook", `/webhooks/${none}/update`, unsigned],
    ];
    for (const [name, path, body] of requests) {
      for (const [what, base] of [
        ["not a sign-in message", t.url],
        ["node on another chain, consistent input", wrongChain.url],
      ] as const) {
        const res = await fetch(`${base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        record(op(name), what, { status: res.status, body: (await res.json()) as Json });
      }
    }
    record(op("delete_webhook"), "no such webhook", await t.post(`/webhooks/${none}/delete`, await signed()));
    record(op("verify_webhook"), "no such webhook", await t.post(`/webhooks/${none}/verify`, await signed()));
    record(op("update_webhook"), "no such webhook", await t.post(`/webhooks/${none}/update`, await signed()));
    let id = "";
    for (let i = 0; i < MAX_WEBHOOKS_PER_OWNER; i++) {
      id = (await t.post("/webhooks", { ...(await signed()), url })).body.id;
    }
    record(op("create_webhook"), "past the cap", await t.post("/webhooks", { ...(await signed()), url }));
    record(op("delete_webhook"), "another's webhook", await t.post(`/webhooks/${id}/delete`, await signed(bob)));
    record(op("verify_webhook"), "another's webhook", await t.post(`/webhooks/${id}/verify`, await signed(bob)));
    record(op("update_webhook"), "another's webhook", await t.post(`/webhooks/${id}/update`, await signed(bob)));
    record(
      op("update_webhook"),
      "a private URL",
      await t.post(`/webhooks/${id}/update`, { ...(await signed()), url: "https://169.254.169.254/latest" }),
    );
    // Sign-ins are limited per address per hour (WEBHOOKS_SIGNINS_PER_HOUR, 30 by default): the next is 429.
    const carol = devAccount(13).account;
    let nonce = await t.get(`/webhooks/nonce?address=${carol.address}`);
    for (let i = 1; i < 30 && nonce.status === 200; i++)
      nonce = await t.get(`/webhooks/nonce?address=${carol.address}`);
    expect(nonce.status).toBe(200);
    record(
      op("get_webhook_nonce"),
      "past the hour's sign-ins",
      await t.get(`/webhooks/nonce?address=${carol.address}`),
    );
  });

  it("every declared status was answered (200: here or in routes.test.ts); all but health declare a 4xx", () => {
    for (const op of operations) {
      const missing = [...(declared.get(op.name)?.statuses ?? [])].filter(
        (s) => s !== "200" && !seen.get(op.name)?.has(s),
      );
      expect(missing, `${op.name} declares statuses never answered`).toEqual([]);
      const clientErrors = [...(declared.get(op.name)?.statuses ?? [])].filter((s) => s.startsWith("4"));
      expect(clientErrors.length > 0, op.name).toBe(op.name !== "get_health");
    }
  });
});
