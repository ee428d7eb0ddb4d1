import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { type FunctionDeclaration, GoogleGenAI, Type } from "@google/genai";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { type FunctionTool, getAllMcpTools, MCPServerStreamableHttp, mcpToFunctionTool } from "@openai/agents";
import { Ajv2020 } from "ajv/dist/2020.js";
import { toStrictJsonSchema } from "openai/lib/transform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../src/operations/registry.js";
import type { Docket } from "../../src/server.js";
import { TestDocket } from "../support/index.js";
import { connect, type Json } from "./helpers.js";

/**
 * The tool list as three LLM providers take it, fetched live through the official MCP client, each
 * tool judged by the provider's published rules, run through the provider's own SDK code where it
 * ships one. Each rule is shown to fail on a schema that breaks it, so a pass means something.
 *
 * - Anthropic (Messages API `tools[].input_schema`): no SDK code checks it, so the API's documented
 *   and observed rules: a name of 1 to 64 of `[a-zA-Z0-9_-]`, a description, an `input_schema` of
 *   `type: "object"` with no `oneOf`/`allOf`/`anyOf` at its top level (a 400 for the whole request
 *   otherwise), and a well-formed JSON Schema 2020-12 (compiled strictly by Ajv).
 * - OpenAI strict mode (`strict: true`: every property required, an optional one nullable, every
 *   object closed): two converters from OpenAI's own packages. `openai`'s `toStrictJsonSchema`
 *   (behind its zod and Standard Schema helpers) must accept every schema and change nothing but
 *   `required` (listing every property): the types, patterns, bounds and descriptions reach the
 *   model as docket wrote them. And the Agents SDK (`@openai/agents`), asked to convert MCP schemas
 *   to strict, must make every tool strict with the schema docket sent (it falls back to a
 *   non-strict tool, with a warning, when it cannot). docket does not list optional arguments as
 *   required itself: clients that check arguments against the schema (LangChain) would then refuse
 *   a call that leaves one out.
 * - Gemini: "accepts" is decided as the Gemini API's function declaration `parameters` (its
 *   OpenAPI-style `Schema`), the narrower of its two fields and the one most clients fill: a
 *   name of 1 to 64 of `[a-zA-Z0-9_.:-]` starting with a letter or `_`, and the schema as
 *   `@google/genai` itself puts it on the wire (its JSON Schema transformer, run by a real
 *   `generateContent` against a local endpoint standing in for the API). The SDK moves a schema
 *   carrying `$schema` to `parametersJsonSchema` instead, and its transformer throws on what it
 *   cannot express; what it sends may use only the fields of the SDK's `Schema` type and its
 *   `Type` values (`additionalProperties` it drops, so it is allowed). The newer
 *   `parametersJsonSchema` (what the SDK's `mcpToTool` sends) takes JSON Schema with
 *   `additionalProperties`, so a schema that passes here passes there.
 */

const require = createRequire(import.meta.url);

/** Tool names: the narrowest of the three providers' rules. */
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true });
// zod's `.meta({ example })`: an annotation (OpenAPI's and Gemini's), unknown to strict Ajv.
ajv.addKeyword({ keyword: "example" });

function anthropicProblems(tool: Tool): string[] {
  const problems: string[] = [];
  const schema = tool.inputSchema as Json;
  if (!ANTHROPIC_NAME.test(tool.name)) problems.push("name");
  if (!tool.description) problems.push("no description");
  if (schema?.type !== "object") problems.push("input_schema is not type object");
  for (const k of ["oneOf", "allOf", "anyOf"]) if (k in (schema ?? {})) problems.push(`${k} at the top level`);
  try {
    ajv.compile(schema);
  } catch (e) {
    problems.push(`not JSON Schema 2020-12: ${(e as Error).message}`);
  }
  return problems;
}

/**
 * A schema as strict mode has it, when nothing but `required` needs converting: every property
 * listed, at every level (a nested object, such as create_webhook's filter, the same way).
 */
function allRequired(schema: Json): Json {
  if (!schema?.properties || ![schema.type].flat().includes("object")) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties as Record<string, Json>).map(([k, v]) => [k, allRequired(v)]),
  );
  return { ...schema, properties, required: Object.keys(properties) };
}

/** A stand-in for the MCP server a converted tool would call; conversion only reads its name. */
const nowhere = { name: "docket" } as unknown as MCPServerStreamableHttp;

function openAiProblems(tool: Tool): string[] {
  const problems: string[] = [];
  if (!OPENAI_NAME.test(tool.name)) problems.push("name");
  try {
    const strict = toStrictJsonSchema(tool.inputSchema as Json);
    if (!isDeepStrictEqual(strict, allRequired(tool.inputSchema)))
      problems.push("openai: rewrote more than `required`");
  } catch (e) {
    problems.push(`openai: ${(e as Error).message}`);
  }
  const converted = mcpToFunctionTool(tool as never, nowhere, true) as { strict: boolean };
  if (!converted.strict) problems.push("agents: fell back to a non-strict tool");
  return problems;
}

/** The field names of `@google/genai`'s `Schema`, read from the package's own declarations. */
function geminiSchemaFields(): Set<string> {
  const dts = readFileSync(
    require.resolve("@google/genai").replace(/node\/index\.cjs$|index\.cjs$/, "genai.d.ts"),
    "utf8",
  );
  const start = dts.indexOf("export declare interface Schema {");
  const body = dts.slice(start, dts.indexOf("\n}", start));
  return new Set([...body.matchAll(/^ {4}(\w+)\?:/gm)].map((m) => m[1] as string));
}
const geminiFields = geminiSchemaFields();
const geminiTypes = new Set<string>(Object.values(Type).filter((t) => t !== Type.TYPE_UNSPECIFIED));

/** What the Gemini API would refuse in a `Schema` as the SDK sends it; [] when nothing. */
function geminiSchemaProblems(s: Json, at: string): string[] {
  const problems = Object.keys(s)
    .filter((k) => !geminiFields.has(k))
    .map((k) => `${at}: ${k}`);
  if (s.type !== undefined && !geminiTypes.has(s.type)) problems.push(`${at}: type ${s.type}`);
  for (const [k, v] of Object.entries(s.properties ?? {}))
    problems.push(...geminiSchemaProblems(v as Json, `${at}.${k}`));
  if (s.items) problems.push(...geminiSchemaProblems(s.items, `${at}[]`));
  for (const [i, b] of (s.anyOf ?? []).entries()) problems.push(...geminiSchemaProblems(b, `${at}|${i}`));
  return problems;
}

describe("tool schemas every LLM provider accepts (live tools/list over Streamable HTTP)", () => {
  let docket: Docket;
  let client: Client;
  let tools: Tool[];
  let gemini: GoogleGenAI;
  let geminiApi: Server;
  /** The last request body the stand-in Gemini endpoint received. */
  let geminiRequest: Json;

  async function geminiProblems(tool: Tool): Promise<string[]> {
    if (!GEMINI_NAME.test(tool.name)) return ["name"];
    geminiRequest = undefined;
    const declaration = {
      name: tool.name,
      description: tool.description,
      // The JSON Schema as is: the SDK's transformer turns it into a Gemini Schema (or refuses it).
      parameters: structuredClone(tool.inputSchema) as unknown as FunctionDeclaration["parameters"],
    };
    try {
      await gemini.models.generateContent({
        model: "gemini-2.5-flash",
        contents: "hello",
        config: { tools: [{ functionDeclarations: [declaration] }] },
      });
    } catch (e) {
      return [`@google/genai refused it: ${(e as Error).message}`];
    }
    const sent = geminiRequest.tools[0].functionDeclarations[0];
    if (!sent.parameters) return [`sent as ${Object.keys(sent).join(", ")}, not as parameters`];
    return geminiSchemaProblems(sent.parameters, "parameters");
  }

  beforeAll(async () => {
    geminiApi = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => {
        body += d.toString();
      });
      req.on("end", () => {
        geminiRequest = JSON.parse(body);
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "ok" }] } }] }));
      });
    });
    await new Promise<void>((resolve) => geminiApi.listen(0, "127.0.0.1", resolve));
    const { port } = geminiApi.address() as AddressInfo;
    gemini = new GoogleGenAI({ apiKey: "offline", httpOptions: { baseUrl: `http://127.0.0.1:${port}` } });

    docket = (await TestDocket.shared()).docket;
    client = await connect(new StreamableHTTPClientTransport(new URL(`${docket.url}/mcp`)));
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client?.close();
    await docket?.close();
    geminiApi?.close();
  });

  it("lists every operation, and no schema declares a dialect ($schema), input or output", () => {
    expect(tools.map((t) => t.name).sort()).toEqual(operations.map((op) => op.name).sort());
    for (const t of tools) expect(JSON.stringify([t.inputSchema, t.outputSchema]), t.name).not.toContain('"$schema"');
  });

  it("Anthropic: every tool's input_schema is a top-level object without combinators, and valid JSON Schema", () => {
    expect(Object.fromEntries(tools.map((t) => [t.name, anthropicProblems(t)]))).toEqual(
      Object.fromEntries(tools.map((t) => [t.name, []])),
    );
  });

  it("OpenAI strict mode: openai's toStrictJsonSchema converts every schema, adding only `required`; the Agents SDK makes every tool strict", async () => {
    expect(Object.fromEntries(tools.map((t) => [t.name, openAiProblems(t)]))).toEqual(
      Object.fromEntries(tools.map((t) => [t.name, []])),
    );
    // And through the Agents SDK's own MCP client, as an agent run lists them.
    const server = new MCPServerStreamableHttp({ url: `${docket.url}/mcp`, name: "docket" });
    await server.connect();
    try {
      const converted = (await getAllMcpTools({
        mcpServers: [server],
        convertSchemasToStrict: true,
      })) as FunctionTool[];
      expect(converted).toHaveLength(tools.length);
      for (const t of converted) {
        expect(t.strict, t.name).toBe(true);
        // docket's schema, every property listed as required: nothing else rewritten.
        expect(t.parameters, t.name).toEqual(allRequired(tools.find((x) => x.name === t.name)?.inputSchema));
      }
    } finally {
      await server.close();
    }
  });

  it("Gemini: every tool goes out as function-declaration parameters with only Schema fields", async () => {
    const found: Record<string, string[]> = {};
    for (const t of tools) found[t.name] = await geminiProblems(t);
    expect(found).toEqual(Object.fromEntries(tools.map((t) => [t.name, []])));
    // Optional arguments arrive as nullable, their constraints and descriptions kept.
    const vote = tools.find((t) => t.name === "vote_on_case") as Tool;
    await geminiProblems(vote);
    expect(geminiRequest.tools[0].functionDeclarations[0].parameters.properties.from).toMatchObject({
      type: "STRING",
      nullable: true,
      pattern: "^0x[0-9a-fA-F]{40}$",
      description: expect.stringContaining("simulates"),
    });
  });

  describe("each rule fails on a schema that breaks it", () => {
    const tool = (inputSchema: Json, name = "probe"): Tool => ({ name, description: "A probe.", inputSchema });
    const fine = {
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
      additionalProperties: false,
    };

    it("a well-formed probe passes all three", async () => {
      expect(anthropicProblems(tool(fine))).toEqual([]);
      expect(openAiProblems(tool(fine))).toEqual([]);
      expect(await geminiProblems(tool(fine))).toEqual([]);
    });

    it("Anthropic: a top-level anyOf, a non-object, a bad name, a malformed schema", () => {
      expect(anthropicProblems(tool({ ...fine, anyOf: [{ required: ["a"] }] }))).toEqual(["anyOf at the top level"]);
      expect(anthropicProblems(tool({ type: "array", items: { type: "string" } }))).toEqual([
        "input_schema is not type object",
      ]);
      expect(anthropicProblems(tool(fine, "get case"))).toEqual(["name"]);
      expect(anthropicProblems(tool({ ...fine, properties: { a: { type: "strnig" } } }))[0]).toMatch(
        /^not JSON Schema/,
      );
    });

    it("OpenAI: an optional property that is not nullable; an object left open (zod's empty input)", () => {
      const optional = { ...fine, properties: { ...fine.properties, b: { type: "string" } } };
      expect(openAiProblems(tool(optional))).toEqual([expect.stringContaining("openai: Schema field")]);
      // Both converters refuse docket's old schema for get_health.
      expect(openAiProblems(tool({ type: "object", properties: {} }))).toEqual([
        "openai: rewrote more than `required`",
        "agents: fell back to a non-strict tool",
      ]);
    });

    it("Gemini: a $schema, a type beside anyOf, a keyword its Schema lacks, a bad name", async () => {
      const dialect = { $schema: "https://json-schema.org/draft/2020-12/schema", ...fine };
      expect(await geminiProblems(tool(dialect))).toEqual([
        "sent as name, description, parametersJsonSchema, not as parameters",
      ]);
      const typed = {
        ...fine,
        properties: { a: { type: "string", anyOf: [{ type: "string" }, { type: "integer" }] } },
      };
      expect((await geminiProblems(tool(typed)))[0]).toMatch(/refused it: type and anyOf/);
      const constant = { ...fine, properties: { a: { type: "string", const: "x" } } };
      expect(await geminiProblems(tool(constant))).toEqual(["parameters.a: const"]);
      expect(await geminiProblems(tool(fine, "1st"))).toEqual(["name"]);
    });
  });
});
