import { fileURLToPath } from "node:url";
import { createMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport as AiSdkStdio } from "@ai-sdk/mcp/mcp-stdio";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import {
  type FunctionTool,
  getAllMcpTools,
  type MCPServer,
  MCPServerStdio,
  MCPServerStreamableHttp,
  RunContext,
} from "@openai/agents";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Devnet } from "../../src/devnet/devnet.js";
import { rawCid } from "../../src/evidence/cid.js";
import { operations } from "../../src/operations/registry.js";
import type { Docket } from "../../src/server.js";
import { externalChainEnv, forSuite, signAndSend, TestDocket } from "../support/index.js";
import type { Json } from "./helpers.js";

/**
 * docket through three stock MCP clients from npm, each over Streamable HTTP (`/mcp`) and over stdio
 * (`node bin/docket.js mcp`, pointed at the same dev chain), driven the way an agent framework
 * drives them after a model picks a tool, with no model: list the tools, read a seeded case, and
 * submit evidence: the unsigned transaction signed by the party's dev key, broadcast, and read back
 * through the same client.
 */

const root = fileURLToPath(new URL("../..", import.meta.url));

/** One stock client, reduced to what the test needs: tool names, and a call answering the tool's JSON body. */
interface Driver {
  names(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<Json>;
  close(): Promise<void>;
}

/** How a client reaches docket: the URL of `/mcp`, or the command line of `docket mcp` and its environment. */
type Target = { url: string } | { command: string; args: string[]; cwd: string; env: Record<string, string> };

/** The JSON body of a tool's answer, from whatever shape a client hands back (a result, its content, or text). */
function bodyOf(result: unknown): Json {
  if (typeof result === "string") return JSON.parse(result);
  if (Array.isArray(result)) {
    const text = result.find((c) => c?.type === "text");
    if (text) return JSON.parse(text.text);
  }
  const r = result as Json;
  if (r?.structuredContent) return r.structuredContent;
  if (r?.content) return bodyOf(r.content);
  if (r?.type === "text") return JSON.parse(r.text);
  throw new Error(`no JSON body in ${JSON.stringify(result)}`);
}

/** Vercel AI SDK: `createMCPClient`, its tools' `execute` as `generateText` would call it. */
async function aiSdk(target: Target): Promise<Driver> {
  const client = await createMCPClient({
    transport: "url" in target ? { type: "http", url: target.url } : new AiSdkStdio(target),
  });
  const tools = await client.tools();
  return {
    names: async () => Object.keys(tools),
    call: async (name, args) => {
      const tool = tools[name];
      if (!tool?.execute) throw new Error(`no tool ${name}`);
      return bodyOf(await tool.execute(args, { toolCallId: "call-1", messages: [] }));
    },
    close: () => client.close(),
  };
}

/** LangChain: `MultiServerMCPClient`, its tools' `invoke` as an agent's tool node would call it. */
async function langChain(target: Target): Promise<Driver> {
  const server =
    "url" in target ? { transport: "http" as const, url: target.url } : { transport: "stdio" as const, ...target };
  const client = new MultiServerMCPClient({ mcpServers: { docket: server }, throwOnLoadError: true });
  const tools = await client.getTools();
  return {
    names: async () => tools.map((t) => t.name),
    call: async (name, args) => {
      const tool = tools.find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      return bodyOf(await tool.invoke(args));
    },
    close: () => client.close(),
  };
}

/**
 * OpenAI Agents SDK: an MCP server object, its tools converted to strict function tools, and each
 * called as a run calls it after a strict-mode model answers: with every argument, null for those
 * left out (docket reads null as absent).
 */
async function openAiAgents(target: Target): Promise<Driver> {
  // The SDK gives each request, the first (which waits for the process to start) among them, 5 s
  // by default: on a loaded two-core machine docket's start alone can take longer.
  const options = { name: "docket", clientSessionTimeoutSeconds: 60 };
  const server: MCPServer =
    "url" in target
      ? new MCPServerStreamableHttp({ url: target.url, ...options })
      : new MCPServerStdio({ ...target, ...options });
  await server.connect();
  const tools = (await getAllMcpTools({ mcpServers: [server], convertSchemasToStrict: true })) as FunctionTool[];
  return {
    names: async () => (await server.listTools()).map((t) => t.name),
    call: async (name, args) => {
      const tool = tools.find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      expect(tool.strict).toBe(true);
      const properties = Object.keys((tool.parameters as Json).properties);
      const full = Object.fromEntries(properties.map((k) => [k, args[k] ?? null]));
      return bodyOf(await tool.invoke(new RunContext(), JSON.stringify(full)));
    },
    close: () => server.close(),
  };
}

const clients = {
  "Vercel AI SDK (@ai-sdk/mcp)": aiSdk,
  "LangChain (@langchain/mcp-adapters)": langChain,
  "OpenAI Agents SDK (@openai/agents)": openAiAgents,
};

describe("stock MCP clients from npm", () => {
  let docket: Docket;
  let devnet: Devnet;
  let activeCase: Address;
  let party: Address;

  beforeAll(async () => {
    docket = (await TestDocket.shared()).docket;
    devnet = docket.dev?.devnet as Devnet;
    activeCase = devnet.seed?.cases.find((c) => c.state === "Active")?.address as Address;
  });
  afterAll(async () => {
    await docket?.close();
  });

  const transports: [string, () => Target][] = [
    ["Streamable HTTP", () => ({ url: `${docket.url}/mcp` })],
    [
      "stdio",
      () => ({
        command: process.execPath,
        args: ["bin/docket.js", "mcp"],
        cwd: root,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...externalChainEnv(devnet) },
      }),
    ],
  ];

  for (const [client, connect] of Object.entries(clients)) {
    describe.each(transports)(`${client} over %s`, (transport, target) => {
      let driver: Driver;
      forSuite(async () => (driver = await connect(target())));

      it("lists every docket tool", async () => {
        expect((await driver.names()).sort()).toEqual(operations.map((op) => op.name).sort());
      });

      it("get_case reads the seeded Active case", async () => {
        const { case: c } = await driver.call("get_case", { address: activeCase });
        expect(c).toMatchObject({ address: activeCase, state: "Active", stateIndex: 2 });
        party = c.plaintiff;
      });

      it("list_cases with no arguments: the first page (the Agents SDK sends null for each, docket reads absent); twice, the second from the cache", async () => {
        const first = await driver.call("list_cases", {});
        expect(first).toMatchObject({ limit: 20, offset: 0, total: expect.any(Number) });
        expect(first.cases).toContain(activeCase);
        expect(await driver.call("list_cases", {})).toEqual(first);
      });

      it("submit_evidence: the unsigned transaction, signed by the plaintiff and broadcast, shows in get_case_evidence", async () => {
        const hash = rawCid(`${client}-${transport}`).toString();
        const built = await driver.call("submit_evidence", {
          address: activeCase,
          evidenceIpfsHash: hash,
          from: party,
        });
        expect(built.unsigned_tx).toMatchObject({ to: activeCase, value: "0", chainId: 31337 });
        const receipt = await signAndSend(devnet.rpcUrl, party, built.unsigned_tx);
        expect(receipt.status).toBe("success");
        const { evidence } = await driver.call("get_case_evidence", { address: activeCase });
        expect(evidence).toContainEqual(expect.objectContaining({ reference: hash, submitter: party }));
      });
    });
  }
});
