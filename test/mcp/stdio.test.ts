import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawCid } from "../../src/evidence/cid.js";
import { operations } from "../../src/operations/registry.js";
import { signAndSend, TEST_INDEX } from "../support/index.js";
import {
  connect,
  connectModern,
  expectAllTools,
  expectErrorCodes,
  type Json,
  ok,
  registerFlow,
  voteFlow,
} from "./helpers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
// Each process keeps its seeded evidence in a directory of its own.
// Their indexes in memory: each process's dev chain lives as long as it does (and the repo's data/
// is not the suite's).
const env = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  ...TEST_INDEX,
  EVIDENCE_DIR: mkdtempSync(join(tmpdir(), "docket-stdio-evidence-")),
};

/** Whether anything still answers JSON-RPC at the URL. */
async function answers(rpcUrl: string): Promise<boolean> {
  try {
    await fetch(rpcUrl, { method: "POST", body: "{}", signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/**
 * `node bin/docket.js mcp` as a real client runs it: its own process and dev chain, MCP over
 * stdin/stdout. Two processes start side by side: one driven at the byte level, one by the SDK's
 * StdioClientTransport.
 */
describe("MCP over stdio: node bin/docket.js mcp", () => {
  // Started first and awaited later, so the two processes boot their chains side by side.
  let stderr = "";
  const errors: Error[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["bin/docket.js", "mcp"],
    cwd: root,
    env: { ...env, LOG_LEVEL: "info" },
    stderr: "pipe",
  });
  let connecting: Promise<Client>;
  // A third process for the 2026-07-28 client (the 2.x SDK's own stdio transport), booted alongside.
  const modernTransport = new ModernStdioTransport({
    command: process.execPath,
    args: ["bin/docket.js", "mcp"],
    cwd: root,
    env,
    stderr: "ignore",
  });
  let connectingModern: Promise<Client>;
  beforeAll(() => {
    connectingModern = connectModern(modernTransport);
    connectingModern.catch(() => {});
    transport.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    // A line on stdout that is not JSON-RPC would land here as a parse error.
    transport.onerror = (e) => errors.push(e);
    connecting = connect(transport);
    connecting.catch(() => {});
  });

  describe("the process, byte by byte (DOCKET_TOOLS=read, LOG_LEVEL=info)", () => {
    let child: ChildProcess;
    let stdout = "";
    let childStderr = "";
    const replies = new Map<number, Json>();

    function send(message: object): void {
      child.stdin?.write(`${JSON.stringify(message)}\n`);
    }
    async function reply(id: number): Promise<Json> {
      await expect.poll(() => replies.has(id), { timeout: 50_000, interval: 20 }).toBe(true);
      return replies.get(id);
    }

    beforeAll(() => {
      child = spawn(process.execPath, ["bin/docket.js", "mcp"], {
        cwd: root,
        env: { ...env, LOG_LEVEL: "info", DOCKET_TOOLS: "read" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      child.stdout?.on("data", (d: Buffer) => {
        stdout += d.toString();
        for (const line of stdout.split("\n").slice(0, -1)) {
          try {
            const m = JSON.parse(line);
            if (typeof m.id === "number") replies.set(m.id, m);
          } catch {
            // Not JSON: the check on stdout below reports it.
          }
        }
      });
      child.stderr?.on("data", (d: Buffer) => {
        childStderr += d.toString();
      });
    });
    afterAll(() => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });

    it("answers initialize, tools/list and tools/call with JSON-RPC lines on stdout, logs on stderr, and exits with its dev chain when stdin ends", async () => {
      send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bytes", version: "1" } },
      });
      expect((await reply(1)).result.serverInfo).toMatchObject({ name: "docket" });
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_health", arguments: {} } });
      send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "vote_on_case", arguments: {} } });

      const listed = (await reply(2)).result.tools.map((t: Json) => t.name).sort();
      expect(listed).toEqual(
        operations
          .filter((op) => op.kind === "read")
          .map((op) => op.name)
          .sort(),
      );
      const health = (await reply(3)).result.structuredContent;
      expect(health).toMatchObject({ status: "ok", chainId: 31337 });
      // A write is not served under DOCKET_TOOLS=read.
      expect((await reply(4)).error).toMatchObject({
        code: -32602,
        message: expect.stringContaining("unknown tool: vote_on_case"),
      });

      child.stdin?.end();
      expect(await exited(child)).toBe(0);

      // stdout held JSON-RPC 2.0 messages, one a line, and nothing else.
      const lines = stdout.split("\n");
      expect(lines.pop()).toBe("");
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
      expect(lines).toHaveLength(4);
      // The logs went to stderr, as pino JSON.
      expect(childStderr).toContain('"msg":"docket MCP server ready on stdio"');
      expect(childStderr).toContain('"msg":"MCP stdio server stopping"');
      // The embedded dev chain died with it.
      expect(await answers(health.rpcUrl)).toBe(false);
    });
  });

  describe("through the SDK's StdioClientTransport", () => {
    let client: Client;
    let rpcUrl: string;

    beforeAll(async () => {
      client = await connecting;
      rpcUrl = (await ok(client, "get_health")).rpcUrl;
    });
    afterAll(async () => {
      await client?.close();
    });

    it("lists every tool", async () => {
      await expectAllTools(client);
    });

    it("vote_on_case as a judge: sign the unsigned_tx, broadcast, and get_case shows the vote", async () => {
      await voteFlow(client, rpcUrl);
    });

    it("errors carry docket's codes", async () => {
      await expectErrorCodes(client);
    });

    it("serves the case resources and the judge_case prompt", async () => {
      const { resources } = await client.listResources();
      // The seeded cases: the General court's, one in every state (8), Agentic Commerce's, one in
      // each phase of a hidden vote (2), and the three born from seeded jobs' disputes.
      expect(resources).toHaveLength(13);
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toContain("judge_case");
    });

    it("serves the MCP App get_case names (bundled from the build's browser sources)", async () => {
      const view = await client.readResource({ uri: "ui://docket/case" });
      expect(JSON.stringify(view.contents)).toContain("<script");
    });

    it("a judge reads a seeded case's evidence over stdio: get_case_evidence, then each file's resource", async () => {
      // The seeded case with the most evidence (its filing's and what each party added since).
      const { cases } = await ok(client, "list_cases", { limit: 100 });
      const lists = await Promise.all(
        (cases as string[]).map(async (address) => (await ok(client, "get_case_evidence", { address })).evidence),
      );
      const evidence = lists.reduce((a, b) => (b.length > a.length ? b : a));
      expect(evidence.length).toBeGreaterThan(1);
      for (const e of evidence as Json[]) {
        expect(e.available).toBe(true);
        const [content] = (await client.readResource({ uri: e.document.file.resource })).contents as Json[];
        expect(content.mimeType).toBe(e.document.file.mediaType);
      }
    });

    it("a watched case: evidence signed and mined, the process's own follower polls, notifications/resources/updated arrives", async () => {
      expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
      const got: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        got.push(n.params.uri);
      });
      const { cases } = await ok(client, "list_cases", { limit: 100 });
      const all: Json[] = [];
      for (const address of cases) all.push((await ok(client, "get_case", { address })).case);
      const active = all.find((c) => c.state === "Active");
      const other = all.find((c) => c.state === "Summoned");
      const uri = `docket://cases/${active.address.toLowerCase()}`;
      await client.subscribeResource({ uri });
      const args = {
        address: active.address,
        evidenceIpfsHash: rawCid("stdio-evidence").toString(),
        from: active.plaintiff,
      };
      await signAndSend(rpcUrl, active.plaintiff, (await ok(client, "submit_evidence", args)).unsigned_tx);
      // EVENT_POLL_MS is its default (2 s): the next poll finds the evidence.
      await expect.poll(() => got, { timeout: 20_000, interval: 50 }).toContain(uri);
      expect(got).not.toContain(`docket://cases/${other.address}`);
    });

    it("nothing but JSON-RPC reached stdout; logs went to stderr; closing ends the process and its chain", async () => {
      const pid = transport.pid;
      expect(pid).toEqual(expect.any(Number));
      await client.close();
      expect(errors).toEqual([]);
      expect(stderr).toContain("docket MCP server ready on stdio");
      expect(await answers(rpcUrl)).toBe(false);
      expect(() => process.kill(pid as number, 0)).toThrow();
    });
  });

  describe("protocol 2026-07-28 through the 2.x SDK's StdioClientTransport", () => {
    let client: Client;
    let rpcUrl: string;

    beforeAll(async () => {
      client = await connectingModern;
      rpcUrl = (await ok(client, "get_health")).rpcUrl;
    });
    afterAll(async () => {
      await client?.close();
    });

    it("lists every tool, reads, and a signed self-registration reads back; closing ends the process and its chain", async () => {
      await expectAllTools(client);
      expect((await ok(client, "get_health")).chainId).toBe(31337);
      await registerFlow(client, rpcUrl, 17);
      await client.close();
      await expect.poll(() => answers(rpcUrl), { timeout: 20_000 }).toBe(false);
    });
  });
});
