import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeChain, makePublicClient } from "../../src/chain/client.js";
import { loadConfig } from "../../src/config.js";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { selectOperations } from "../../src/doors/select.js";
import { rawCid } from "../../src/evidence/cid.js";
import { toolError } from "../../src/mcp/errors.js";
import { buildServer } from "../../src/mcp/server.js";
import type { Operation } from "../../src/operations/kernel/operation.js";
import { jsonSchemaOf } from "../../src/operations/kernel/schemas.js";
import { operations } from "../../src/operations/registry.js";
import { type Docket, startServer } from "../../src/server.js";
import { signAndSend, TestDocket } from "../support/index.js";
import { call, connect, type Json, ok } from "./helpers.js";

/**
 * The MCP catalogue, over the official SDK client and an in-memory transport, against a docket on
 * its own seeded dev chain: every operation as a tool, the same answers and error codes as HTTP,
 * resources, the prompt, and cache invalidation by MCP writes.
 */
describe("MCP catalogue (in-memory transport)", () => {
  let docket: Docket;
  let client: Client;
  const seeded = (state: string) => docket.dev?.devnet.seed?.cases.find((c) => c.state === state)?.address as Address;
  const stranger = devAccount(19).address;
  /** The address with the case of its first letter flipped: well-formed hex, wrong EIP-55 checksum. */
  const badChecksum = (a: string) =>
    a.replace(/[a-fA-F]/, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

  /** A server offering the tools DOCKET_TOOLS would select (`tools`; all when unset). */
  async function inMemory(opts: { tools?: string } = {}): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildServer(docket.ctx, { operations, tools: selectOperations(operations, opts.tools) }).connect(serverSide);
    return connect(clientSide);
  }

  /** The same input over HTTP: path parameters into the path, the rest as query (GET) or body (POST). */
  async function http(
    op: Operation,
    args: Record<string, unknown>,
  ): Promise<{ status: number; body: Json; headers: Headers }> {
    const rest = { ...args };
    const path = op.http.path.replace(/:([A-Za-z_]+)/g, (_, k: string) => {
      const v = String(rest[k]);
      delete rest[k];
      return encodeURIComponent(v);
    });
    const query = new URLSearchParams(
      Object.entries(rest).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const res =
      op.http.method === "GET"
        ? await fetch(`${docket.url}${path}${query ? `?${query}` : ""}`)
        : await fetch(`${docket.url}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(rest),
          });
    return { status: res.status, body: await res.json(), headers: res.headers };
  }

  const byName = (name: string) => operations.find((op) => op.name === name) as Operation;

  beforeAll(async () => {
    const t = await TestDocket.shared();
    docket = t.docket;
    // The index's reads (get_case_timeline, list_cases with a filter) answer once it holds the seeded world.
    await t.indexed();
    client = await inMemory();
  });
  afterAll(async () => {
    await client?.close();
    await docket?.close();
  });

  describe("tools/list", () => {
    it("lists one tool per registry operation: name, title, description", async () => {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(operations.length);
      for (const op of operations) {
        const tool = tools.find((t) => t.name === op.name);
        expect(tool, op.name).toMatchObject({ name: op.name, title: op.title, description: op.description });
        expect(op.name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      }
    });

    it("input schemas are the routes' own zod schemas as JSON Schema, closed, optional ones nullable; output schemas admit the body and the error envelope", async () => {
      const { tools } = await client.listTools();
      const ajv = new AjvJsonSchemaValidator();
      for (const op of operations) {
        const tool = tools.find((t) => t.name === op.name);
        if (!tool) throw new Error(`${op.name} is not listed`);
        // zod's schema as docket writes it (jsonSchemaOf), closed, an optional property also taking null.
        const zodInput = jsonSchemaOf(op.input, "input") as Json;
        /** An object closed, its optional properties nullable, at any depth (create_webhook's filter). */
        const closed = (o: Json): Json => {
          const optional = Object.keys(o.properties).filter((k) => !(o.required ?? []).includes(k));
          const properties = Object.fromEntries(
            Object.entries(o.properties as Record<string, Json>).map(([k, raw]) => {
              const v = raw.type === "object" && raw.properties ? closed(raw) : raw;
              // An optional enum (list_jobs' state) takes null among its values too.
              return [
                k,
                optional.includes(k)
                  ? { ...v, type: [v.type, "null"], ...(v.enum ? { enum: [...v.enum, null] } : {}) }
                  : v,
              ];
            }),
          );
          return { ...o, properties, additionalProperties: false };
        };
        expect(tool.inputSchema, op.name).toEqual(closed(zodInput));
        expect(tool.inputSchema.type).toBe("object");
        expect(tool.outputSchema?.type).toBe("object");
        const success = jsonSchemaOf(op.output, "output");
        expect((tool.outputSchema as Json).anyOf[0], op.name).toEqual(success);
        // Both compile, as every client must do with them.
        ajv.getValidator(tool.inputSchema);
        const output = ajv.getValidator(tool.outputSchema as Record<string, unknown>);
        expect(output({ error: { code: "CASE_NOT_FOUND", message: "no case" } }).valid).toBe(true);
        expect(output({ error: { code: "NOT_A_CODE", message: "x" } }).valid).toBe(false);
      }
      const vote = tools.find((t) => t.name === "vote_on_case");
      expect(vote?.inputSchema.required).toEqual(["address", "plaintiff_wins"]);
      expect(vote?.inputSchema.properties?.address).toMatchObject({ type: "string", pattern: "^0x[0-9a-fA-F]{40}$" });
      expect(vote?.inputSchema.properties?.from).toMatchObject({
        type: ["string", "null"],
        pattern: "^0x[0-9a-fA-F]{40}$",
      });
    });

    it("annotations are honest: reads are read-only and idempotent; writes are not read-only, not destructive, open-world", async () => {
      const { tools } = await client.listTools();
      for (const op of operations) {
        const a = tools.find((t) => t.name === op.name)?.annotations;
        if (op.kind === "read") {
          expect(a, op.name).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: true });
        } else {
          expect(a, op.name).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
        }
      }
    });

    it("a write tool signs nothing: calling one leaves the chain as it was", async () => {
      // Not the Deliberating case: the write holds its cache entries, which the last test watches.
      const target = seeded("Appealed");
      const before = await docket.ctx.chain.reader.getBlockNumber();
      // A hidden vote's commitment binds the judge: `from` is needed (not simulated here: no panel yet).
      const built = await ok(client, "settle_case", { address: target });
      expect(built.unsigned_tx).toMatchObject({ to: target, value: "0", chainId: 31337 });
      expect(built.unsigned_tx.data).toMatch(/^0x[0-9a-f]+$/);
      expect(await docket.ctx.chain.reader.getBlockNumber()).toBe(before);
    });
  });

  describe("tools/call answers as HTTP does", () => {
    const reads: [string, () => Record<string, unknown>][] = [
      ["list_cases", () => ({ limit: 5, offset: 1 })],
      ["get_case", () => ({ address: seeded("Deliberating") })],
      ["get_case_evidence", () => ({ address: seeded("Active") })],
      ["get_case_timeline", () => ({ address: seeded("Resolved") })],
      ["list_pending_cases", () => ({})],
      ["get_validator_stats", () => ({ address: devAccount(7).address })],
      ["get_stats_overview", () => ({})],
      ["discover_agents", () => ({ limit: 3 })],
      ["get_agent", () => ({ address: devAccount(1).address })],
      ["get_agent_history", () => ({ address: devAccount(1).address })],
      ["get_judge_pool", () => ({})],
      ["get_judge_stake", () => ({ address: devAccount(8).address })],
      ["get_judge_history", () => ({ address: devAccount(8).address })],
      ["list_courts", () => ({})],
      ["get_court", () => ({ id: 2 })],
      ["get_arbitration_cost", () => ({ court: 2, jurors: 3 })],
      ["list_jobs", () => ({ limit: 3, state: "Funded" })],
      ["get_job", () => ({ id: docket.dev?.devnet.seed?.jobs[0]?.id })],
      ["get_inbox", () => ({ address: devAccount(1).address })],
      ["list_keeper_actions", () => ({})],
    ];
    /**
     * Reads compared by a test of their own: health below (its uptime moves), evidence's content (not
     * JSON), verify_transaction in test/payments/verifyTransaction.test.ts (it needs a mined payment),
     * get_webhook_nonce in test/webhooks/signIn.test.ts (a nonce is new on every call).
     */
    const comparedOtherwise = ["get_health", "get_evidence", "verify_transaction", "get_webhook_nonce"];

    it("compares every read operation (a new read is added to the list above)", () => {
      const listed = [...reads.map(([name]) => name), ...comparedOtherwise];
      const missing = operations.filter((o) => o.kind === "read" && !listed.includes(o.name)).map((o) => o.name);
      expect(missing).toEqual([]);
    });

    it.each(reads)("%s: structuredContent is the HTTP JSON body", async (name, args) => {
      const mcp = await call(client, name, args());
      const web = await http(byName(name), args());
      expect(web.status).toBe(200);
      expect(mcp).toEqual({ isError: false, body: web.body });
    });

    it("get_health: the same body (uptime aside)", async () => {
      const mcp = await ok(client, "get_health");
      const web = await http(byName("get_health"), {});
      expect({ ...mcp, uptimeSeconds: 0 }).toEqual({ ...web.body, uptimeSeconds: 0 });
    });

    it("a write: the same unsigned transaction", async () => {
      const args = { address: devAccount(16).address, name: "same-both-ways", metadataURI: "https://x.example/a.json" };
      const mcp = await ok(client, "self_register_agent", args);
      const web = await http(byName("self_register_agent"), args);
      expect(mcp).toEqual(web.body);
    });

    it("null for an optional argument is the argument left out (OpenAI strict mode's way to omit one); HTTP still refuses it", async () => {
      const page = await ok(client, "list_cases", { limit: null, offset: null });
      expect(page).toEqual(await ok(client, "list_cases", {}));
      expect(page).toMatchObject({ limit: 20, offset: 0 });
      const args = { address: devAccount(15).address, name: "nulls-are-absent" };
      const built = await ok(client, "self_register_agent", { ...args, metadataURI: null });
      expect(built).toEqual(await ok(client, "self_register_agent", args));
      // `from: null` asks for no simulation: built, where the stranger's simulation is refused.
      const unsimulated = await call(client, "trigger_default", { address: seeded("Active"), from: null });
      expect(unsimulated.isError).toBe(false);
      expect(unsimulated.body.unsigned_tx.to).toBe(seeded("Active"));
      const simulated = await call(client, "trigger_default", { address: seeded("Active"), from: stranger });
      expect(simulated.body.error.code).toBe("CONTRACT_REVERT");
      // A null where a value is required is still refused, with the code HTTP gives.
      const required = await call(client, "vote_on_case", { address: seeded("Active"), plaintiff_wins: null });
      expect(required).toMatchObject({ isError: true, body: { error: { code: "VALIDATION_ERROR" } } });
      // Over HTTP nothing changed: null is not a wei amount, nor an address.
      const web = await http(byName("list_cases"), {});
      expect(web.status).toBe(200);
      const posted = await http(byName("self_register_agent"), { ...args, metadataURI: null });
      expect(posted.status).toBe(422);
      expect(posted.body.error.code).toBe("VALIDATION_ERROR");
    });
  });

  describe("file_case: the x402 handshake over MCP", () => {
    const plaintiff = devAccount(17).address;
    const args = {
      plaintiff,
      defendant: devAccount(18).address,
      claimDescription: "Filed over MCP: API credits never delivered.",
      evidenceIpfsHash: rawCid("mcp filed case").toString(),
    };

    it("without proof: an isError result with the x402 v2 PaymentRequired (the MCP binding); a refused proof is an error; pay, prove, sign: a new case", async () => {
      const asked = await call(client, "file_case", args);
      expect(asked.isError).toBe(true);
      expect(asked.body).toMatchObject({ x402Version: 2, error: "PAYMENT_REQUIRED" });
      const web = await http(byName("file_case"), args);
      expect(web.status).toBe(402);
      // The same v2 requirements as HTTP's PAYMENT-REQUIRED, but for the resource each front end was
      // asked at (and declared to x402's Bazaar as that door's: a tool, a route); each 402 carries a
      // fresh payment reference (in extra and in the fee transaction's data).
      const header = JSON.parse(Buffer.from(web.headers.get("PAYMENT-REQUIRED") ?? "", "base64").toString("utf8"));
      expect(asked.body.extensions.bazaar.info.input).toMatchObject({ type: "mcp", toolName: "file_case" });
      expect(header.extensions.bazaar.info.input).toMatchObject({ type: "http", method: "POST" });
      const resourceless = (b: Json) => ({
        ...b,
        resource: { ...b.resource, url: "" },
        extensions: undefined,
        accepts: b.accepts.map((a: Json) => ({
          ...a,
          extra: { ...a.extra, paymentRef: "", unsigned_tx: { ...a.extra.unsigned_tx, data: "" } },
        })),
      });
      expect(resourceless(asked.body)).toEqual(resourceless(header));

      const bogus = await call(client, "file_case", { ...args, payment_tx_hash: `0x${"ab".repeat(32)}` });
      expect(bogus.isError).toBe(true);
      expect(bogus.body.error).toBe("PAYMENT_NOT_FOUND");

      const rpcUrl = docket.ctx.chain.publicRpcUrl as string;
      const { total } = await ok(client, "list_cases", { limit: 100 });
      const native = asked.body.accepts.find((a: Json) => a.scheme === "native-tx");
      const paid = await signAndSend(rpcUrl, plaintiff, native.extra.unsigned_tx);
      const filing = await ok(client, "file_case", { ...args, payment_tx_hash: paid.transactionHash });
      expect(filing.unsigned_tx.to).toBe(docket.ctx.chain.factory);
      await signAndSend(rpcUrl, plaintiff, filing.unsigned_tx);
      expect((await ok(client, "list_cases", { limit: 100 })).total).toBe(total + 1);
    });
  });

  describe("errors: isError results with the HTTP envelope and code", () => {
    const cases: [string, string, () => Record<string, unknown>][] = [
      ["CASE_NOT_FOUND", "get_case", () => ({ address: stranger })],
      ["INVALID_ADDRESS", "get_case", () => ({ address: "0x1234" })],
      ["INVALID_ADDRESS", "get_agent", () => ({ address: stranger.toLowerCase().replace(/^0x/, "0X") })],
      ["INVALID_ADDRESS", "get_judge_stake", () => ({ address: badChecksum(stranger) })],
      ["MISSING_FIELD", "vote_on_case", () => ({ address: seeded("Deliberating") })],
      ["MISSING_FIELD", "self_register_agent", () => ({ address: stranger })],
      ["VALIDATION_ERROR", "vote_on_case", () => ({ address: seeded("Deliberating"), plaintiff_wins: "yes" })],
      ["VALIDATION_ERROR", "list_cases", () => ({ limit: 1000 })],
      ["INVALID_INPUT", "stake_as_judge", () => ({ address: stranger, amount: "1.5 ETH" })],
      ["STAKE_BELOW_MINIMUM", "stake_as_judge", () => ({ address: stranger, amount: "1" })],
      ["AGENT_NOT_REGISTERED", "get_agent", () => ({ address: stranger })],
      [
        "CONTRACT_REVERT",
        "vote_on_case",
        () => ({ address: seeded("Deliberating"), plaintiff_wins: true, from: stranger }),
      ],
      ["CONTRACT_REVERT", "trigger_default", () => ({ address: seeded("Active"), from: stranger })],
    ];
    it.each(cases)("%s from %s", async (code, name, args) => {
      const mcp = await call(client, name, args());
      const web = await http(byName(name), args());
      expect(web.body.error.code).toBe(code);
      expect(mcp).toEqual({ isError: true, body: web.body });
      if (code === "CONTRACT_REVERT") expect(mcp.body.error.details.reason).toEqual(expect.any(String));
    });

    it("RPC_ERROR when the chain node is down, as over HTTP; a degraded health report is an answer, not an error", async () => {
      const dead = makePublicClient(makeChain(31337, "http://127.0.0.1:9"), { timeoutMs: 1000 });
      const down = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent" }), {
        chain: { ...docket.ctx.chain, reader: dead, close: async () => {} },
      });
      try {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await buildServer(down.ctx, { operations }).connect(serverSide);
        const c = await connect(clientSide);
        const address = seeded("Active");
        const mcp = await call(c, "get_case", { address });
        const web = await fetch(`${down.url}/cases/${address}`);
        expect(web.status).toBe(500);
        expect(mcp).toEqual({ isError: true, body: await web.json() });
        expect(mcp.body.error.code).toBe("RPC_ERROR");
        const health = await call(c, "get_health");
        expect((await fetch(`${down.url}/health`)).status).toBe(503);
        expect(health).toMatchObject({ isError: false, body: { status: "degraded" } });
        await c.close();
      } finally {
        await down.close();
      }
    });

    it("INTERNAL_ERROR for the unexpected, without its details", () => {
      const r = toolError(new Error("secret stack detail"));
      expect(r).toMatchObject({ isError: true, structuredContent: { error: { code: "INTERNAL_ERROR" } } });
      expect(JSON.stringify(r)).not.toContain("secret");
    });

    it("the official client hands back the error result (its output validator does not throw on it)", async () => {
      const fresh = await inMemory();
      const r = await fresh.callTool({ name: "get_case", arguments: { address: stranger } });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ error: { code: "CASE_NOT_FOUND", details: { address: stranger } } });
      await fresh.close();
    });

    it("why the output schemas admit the envelope: with the success shape alone, this client throws on error results", async () => {
      // SDK 1.32 checks structuredContent against outputSchema even when isError is set (SDK issue
      // #1943). Should this test fail after an upgrade, the fix has landed and the union may go.
      const server = new Server({ name: "probe", version: "1" }, { capabilities: { tools: {} } });
      const outputSchema = { type: "object" as const, properties: { x: { type: "string" } }, required: ["x"] };
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [{ name: "probe", inputSchema: { type: "object" as const }, outputSchema }],
      }));
      server.setRequestHandler(CallToolRequestSchema, () => ({
        isError: true,
        content: [{ type: "text" as const, text: "{}" }],
        structuredContent: { error: { code: "CASE_NOT_FOUND", message: "no case" } },
      }));
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(b);
      const probe = await connect(a);
      await expect(probe.callTool({ name: "probe", arguments: {} })).rejects.toThrow(/does not match/);
      await probe.close();
    });

    it("an unknown tool is a protocol error, as the MCP spec asks", async () => {
      await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toBeInstanceOf(McpError);
    });
  });

  describe("DOCKET_TOOLS", () => {
    const readNames = operations.filter((op) => op.kind === "read").map((op) => op.name);

    it("read: only the read tools, and a write is not callable", async () => {
      const c = await inMemory({ tools: "read" });
      const { tools } = await c.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...readNames].sort());
      await expect(c.callTool({ name: "vote_on_case", arguments: {} })).rejects.toThrow(/unknown tool/);
      // The prompt votes, so it goes with vote_on_case; the case resources stay.
      expect(c.getServerCapabilities()?.prompts).toBeUndefined();
      expect((await c.listResources()).resources.length).toBeGreaterThan(0);
      await c.close();
    });

    it("toolsets and tool names combine", async () => {
      const c = await inMemory({ tools: " judges, get_case " });
      const { tools } = await c.listTools();
      const expected = operations
        .filter((op) => op.toolset === "judges" || op.name === "get_case")
        .map((op) => op.name);
      expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
      await c.close();
    });

    it("read narrows a toolset to its reads; an unknown word fails with one clear line", async () => {
      const c = await inMemory({ tools: "cases,read" });
      const { tools } = await c.listTools();
      const expected = operations.filter((op) => op.toolset === "cases" && op.kind === "read").map((op) => op.name);
      expect(tools.map((t) => t.name).sort()).toEqual(expected.sort());
      await c.close();
      expect(() => selectOperations(operations, "cases,jduges")).toThrow(
        /^invalid configuration: DOCKET_TOOLS: unknown toolset or tool 'jduges'/,
      );
    });
  });

  describe("resources and prompts", () => {
    it("lists the chain's cases as docket://cases/{address}", async () => {
      const { resources } = await client.listResources();
      const { cases } = await ok(client, "list_cases", { limit: 100 });
      expect(resources.map((r) => r.uri)).toEqual(cases.map((a: string) => `docket://cases/${a}`));
      expect(resources[0]).toMatchObject({ mimeType: "application/json" });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toContainEqual(expect.objectContaining({ uriTemplate: "docket://cases/{address}" }));
    });

    it("reading a case resource answers get_case's JSON; a missing case is resource-not-found", async () => {
      const address = seeded("Appealed");
      const r = await client.readResource({ uri: `docket://cases/${address}` });
      const content = r.contents[0] as { mimeType?: string; text: string };
      expect(content.mimeType).toBe("application/json");
      expect(JSON.parse(content.text)).toEqual(await ok(client, "get_case", { address }));
      const err = await client.readResource({ uri: `docket://cases/${stranger}` }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(McpError);
      // Resource-not-found is -32602 (the 2026-07-28 spelling, which SDK 2.x sends in both eras), naming the URI.
      expect(err).toMatchObject({
        code: -32602,
        data: { uri: `docket://cases/${stranger}`, error: { code: "CASE_NOT_FOUND" } },
      });
    });

    it("judge_case walks a judge through get_case, the judges check, vote_on_case and signing", async () => {
      const { prompts } = await client.listPrompts();
      const prompt = prompts.find((p) => p.name === "judge_case");
      expect(prompt?.arguments).toEqual([
        expect.objectContaining({ name: "case_address", required: true }),
        expect.objectContaining({ name: "judge_address", required: false }),
      ]);
      const address = seeded("Deliberating");
      const judge = devAccount(9).address;
      const r = await client.getPrompt({
        name: "judge_case",
        arguments: { case_address: address, judge_address: judge },
      });
      const text = r.messages.map((m) => (m.content.type === "text" ? m.content.text : "")).join("\n");
      for (const word of ["get_case", "`judges`", "Deliberating", "vote_on_case", "unsigned_tx", address, judge]) {
        expect(text).toContain(word);
      }
      expect(text.indexOf("get_case")).toBeLessThan(text.indexOf("vote_on_case"));
      await expect(client.getPrompt({ name: "judge_case", arguments: { case_address: "nope" } })).rejects.toThrow();
    });
  });

  it("an MCP write invalidates the same cache entries as HTTP: read, vote, sign, read shows it", async () => {
    const target = seeded("Deliberating");
    const before = (await ok(client, "get_case", { address: target })).case;
    // MCP and HTTP share the cache: the MCP read filled the entry HTTP now hits.
    expect((await fetch(`${docket.url}/cases/${target}`)).headers.get("x-cache")).toBe("HIT");
    let sent = false;
    for (const j of before.judges as Address[]) {
      const r = await call(client, "vote_on_case", { address: target, plaintiff_wins: true, from: j });
      if (r.isError) continue;
      // Once the write is built its entries are gone (and held): HTTP goes to the chain.
      expect((await fetch(`${docket.url}/cases/${target}`)).headers.get("x-cache")).toBe("MISS");
      await signAndSend(docket.ctx.chain.publicRpcUrl as string, j, r.body.unsigned_tx);
      sent = true;
      break;
    }
    expect(sent).toBe(true);
    const after = (await ok(client, "get_case", { address: target })).case;
    // The General court votes in the open: counted at once, and with the seed's vote two of three decide.
    expect(before.hiddenVotes).toBe(false);
    expect(after.votesForPlaintiff).toBe(before.votesForPlaintiff + 1);
    expect(after.state).toBe("Resolved");
  });
});
