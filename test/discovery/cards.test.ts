import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ClientFactory, DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";

// ajv-formats is CommonJS: its default export is the plugin under ESM interop.
const addFormats = formats as unknown as (ajv: Ajv | Ajv2020) => void;

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGES_META, TOOLS_META } from "../../src/discovery/serverCard.js";
import { operations } from "../../src/operations/registry.js";
import { connect, type Json } from "../mcp/helpers.js";
import { externalChainEnv, TestDocket } from "../support/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));
const serverJson = JSON.parse(readFileSync(new URL("../../server.json", import.meta.url), "utf8"));

/** An operation's HTTP path with its parameters filled from its own example (or a dev value). */
function exampleRequest(route: string): { method: string; path: string } {
  const [method, template] = route.split(" ") as [string, string];
  const op = operations.find((o) => `${o.http.method} ${o.http.path.replace(/:([A-Za-z_]+)/g, "{$1}")}` === route);
  const example = (op?.example ?? {}) as Record<string, unknown>;
  const path = template.replace(/\{([A-Za-z_]+)\}/g, (_, k: string) =>
    encodeURIComponent(String(example[k] ?? "0x0000000000000000000000000000000000000001")),
  );
  return { method, path };
}

/**
 * The discovery documents, read by each ecosystem's own tools against a running docket: the MCP
 * Server Card (its published schema, then the official MCP client over every transport it names),
 * server.json (the MCP Registry's schema), the A2A Agent Card (the official A2A client, which also
 * sends the endpoint a message). Every tool and route they name exists and answers.
 */
describe("discovery: the MCP server card, server.json and the A2A agent card", () => {
  let t: TestDocket;
  let card: Json;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await TestDocket.shared();
    const res = await fetch(`${t.docket.url}/.well-known/mcp/server-card.json`);
    expect(res.status).toBe(200);
    card = await res.json();
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await t?.docket.close();
  });

  it("the server card is valid against the Server Card extension's published schema, at both locations", async () => {
    const schema = fixture("server-card.schema.json");
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema(schema, "card");
    const valid = ajv.validate({ $ref: "card#/$defs/ServerCard" }, card);
    expect(ajv.errors ?? [], JSON.stringify(ajv.errors)).toEqual([]);
    expect(valid).toBe(true);
    expect(card.name).toBe(serverJson.name);
    expect(card.version).toBe(serverJson.version);
    const reserved = await (await fetch(`${t.docket.url}/mcp/server-card`)).json();
    expect(reserved).toEqual(card);
  });

  it("names each remote at the origin the client used", () => {
    expect(card.remotes.map((r: Json) => `${r.type} ${r.url}`)).toEqual([
      `streamable-http ${t.docket.url}/mcp`,
      `streamable-http ${t.docket.url}/mcp/session`,
      `sse ${t.docket.url}/sse`,
    ]);
  });

  it("every transport the card names connects with the official MCP client, and its tools/list is the card's tools", async () => {
    const transports = [
      ...card.remotes.map((r: Json) =>
        r.type === "sse" ? new SSEClientTransport(new URL(r.url)) : new StreamableHTTPClientTransport(new URL(r.url)),
      ),
      ...card._meta[PACKAGES_META].map((p: Json) => {
        expect(p).toMatchObject({ registryType: "npm", identifier: "docket", transport: { type: "stdio" } });
        // `npx docket mcp`: the package's bin with the card's arguments, on the test's chain.
        return new StdioClientTransport({
          command: process.execPath,
          args: ["bin/docket.js", ...p.packageArguments.map((a: Json) => a.value)],
          cwd: root,
          env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...externalChainEnv(chainOf(t)) },
          stderr: "ignore",
        });
      }),
    ];
    expect(transports).toHaveLength(4);
    const cardTools = card._meta[TOOLS_META] as Json[];
    expect(cardTools.map((tool) => tool.name)).toEqual(operations.map((op) => op.name));
    for (const transport of transports) {
      const client = await connect(transport);
      clients.push(client);
      const { tools } = await client.listTools();
      // The same names, the same input schemas (and the rest of each definition), in the same order.
      expect(tools).toEqual(cardTools);
    }
  }, 120_000);

  it("a docket that offers fewer tools (DOCKET_TOOLS=read) lists those in its card, as its tools/list does", async () => {
    const narrow = await TestDocket.shared({ DOCKET_TOOLS: "read" });
    try {
      const narrowCard: Json = await (await fetch(`${narrow.docket.url}/.well-known/mcp/server-card.json`)).json();
      const client = await connect(new StreamableHTTPClientTransport(new URL(`${narrow.docket.url}/mcp`)));
      clients.push(client);
      const { tools } = await client.listTools();
      expect(narrowCard._meta[TOOLS_META]).toEqual(tools);
      expect(tools.length).toBeLessThan(operations.length);
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    } finally {
      await narrow.docket.close();
    }
  });

  it("server.json is valid against the MCP Registry's published schema, and says what the card says", () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(fixture("server.schema.json"));
    expect(validate(serverJson), JSON.stringify(validate.errors)).toBe(true);
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(serverJson.version).toBe(pkg.version);
    expect(serverJson.packages).toEqual(card._meta[PACKAGES_META]);
    expect(serverJson.packages[0]).toMatchObject({
      registryType: "npm",
      identifier: pkg.name,
      version: pkg.version,
      packageArguments: [{ type: "positional", value: "mcp" }],
    });
    expect(pkg.files).toContain("server.json");
    // The remote: the card's Streamable HTTP endpoint, with the docket's URL as its variable.
    const remote = serverJson.remotes[0];
    expect(remote.url.replace("{docket_url}", t.docket.url)).toBe(card.remotes[0].url);
  });

  it("the schema check can fail: a server.json without its version or with a floating package version is refused", () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(fixture("server.schema.json"));
    const { version: _v, ...noVersion } = serverJson;
    expect(validate(noVersion)).toBe(false);
    expect(validate({ ...serverJson, packages: [{ ...serverJson.packages[0], version: "latest" }] })).toBe(false);
  });

  describe("the A2A agent card", () => {
    it("the official A2A client resolves it and makes a client of its JSON-RPC interface, which answers a message", async () => {
      const resolved = (await new DefaultAgentCardResolver().resolve(t.docket.url)) as Json;
      expect(resolved.name).toBe("docket");
      expect(resolved.skills.map((s: Json) => s.id)).toEqual(
        expect.arrayContaining(["file-dispute", "judge-case", "check-counterparty", "arbitrate-escrow"]),
      );
      const client = await new ClientFactory().createFromUrl(t.docket.url);
      const reply = (await client.sendMessage({
        message: {
          messageId: "m1",
          contextId: "",
          taskId: "",
          role: 1,
          parts: [
            {
              content: { $case: "text", value: "I want to judge a case" },
              metadata: undefined,
              filename: "",
              mediaType: "text/plain",
            },
          ],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
      } as Json)) as Json;
      const parts = (reply.parts ?? reply.message?.parts ?? reply.payload?.value?.parts) as Json[];
      const data = parts.find((p) => p.content?.$case === "data")?.content.value;
      expect(data.skills.map((s: Json) => s.skill)).toEqual(["judge-case"]);
      expect(data.skills[0].tools).toContain("vote_on_case");
    });

    it("the A2A request docs/discovery.md shows over curl is answered with the skill's directions", async () => {
      const page = readFileSync(new URL("../../docs/discovery.md", import.meta.url), "utf8");
      const body = /-d '(\{"jsonrpc"[^']*)'/.exec(page)?.[1] as string;
      const res = await fetch(`${t.docket.url}/a2a`, {
        method: "POST",
        headers: { "content-type": "application/json", "A2A-Version": "1.0" },
        body,
      });
      const answer: Json = await res.json();
      expect(answer.error, JSON.stringify(answer)).toBeUndefined();
      expect(JSON.stringify(answer.result)).toContain("vote_on_case");
    });

    it("bad input to /a2a gets a clear JSON-RPC error, never a 500: not JSON, nested too deep, an unknown method", async () => {
      const post = (body: string) =>
        fetch(`${t.docket.url}/a2a`, { method: "POST", headers: { "content-type": "application/json" }, body });
      const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
      for (const body of ["{not json", deep, '{"jsonrpc":"2.0","id":1,"method":"NoSuchMethod","params":{}}']) {
        const res = await post(body);
        expect(res.status, body.slice(0, 20)).toBeLessThan(500);
        const answer: Json = await res.json();
        expect(answer.error?.code ?? answer.error, body.slice(0, 20)).toBeDefined();
      }
    });

    it("every tool a skill names is a tool docket lists, and every route it names answers (never 404 or 405)", async () => {
      const a2aCard: Json = await (await fetch(`${t.docket.url}/.well-known/agent-card.json`)).json();
      const ext = a2aCard.capabilities.extensions[0];
      expect(ext.params.openapi).toBe(`${t.docket.url}/openapi.json`);
      const listed = new Set(card._meta[TOOLS_META].map((tool: Json) => tool.name));
      const openapi: Json = await (await fetch(ext.params.openapi)).json();
      for (const skill of ext.params.skills) {
        expect(a2aCard.skills.map((s: Json) => s.id)).toContain(skill.id);
        for (const tool of skill.tools) expect(listed.has(tool), `${skill.id}: ${tool}`).toBe(true);
        for (const route of skill.routes) {
          const [method, template] = route.split(" ");
          expect(openapi.paths[template]?.[method.toLowerCase()], route).toBeDefined();
          const { path } = exampleRequest(route);
          const res = await fetch(`${t.docket.url}${path}`, {
            method,
            ...(method === "POST" ? { headers: { "content-type": "application/json" }, body: "{}" } : {}),
          });
          // A route that exists answers with its own codes: 200, or a clear 4xx about the input.
          expect(
            [404, 405].includes(res.status) && ((await res.json()) as Json).error?.code === "NOT_FOUND",
            route,
          ).toBe(false);
          expect(res.status, route).toBeLessThan(500);
        }
      }
    }, 60_000);
  });
});

/** The chain a test docket runs on, as another docket is pointed at it. */
function chainOf(t: TestDocket) {
  const d = t.docket.dev?.devnet;
  if (!d) throw new Error("the test docket has no dev chain");
  return { rpcUrl: d.rpcUrl, chainId: d.chainId, deployment: d.deployment };
}
