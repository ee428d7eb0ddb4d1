import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChainLease, chainEnv, leaseChain, type RpcProxy, startRpcProxy, TEST_INDEX } from "../support/index.js";
import { connect, type Json } from "./helpers.js";

/**
 * No request can hang over stdio either (issue 32): `node bin/docket.js mcp` on a seeded chain read
 * through the fault-injecting JSON-RPC proxy. With the node failing, a tool answers an isError
 * result with the envelope, a resource read a JSON-RPC error, the MCP App resource whatever it has
 * (its view, or an error), each within a second; nothing is logged as an unhandled rejection.
 */
const WITHIN_MS = 1_000;
const root = fileURLToPath(new URL("../..", import.meta.url));

describe("MCP over stdio, the chain node failing", () => {
  let lease: ChainLease;
  let proxy: RpcProxy;
  let transport: StdioClientTransport;
  let client: Client;
  let stderr = "";

  beforeAll(async () => {
    lease = await leaseChain();
    proxy = await startRpcProxy(lease.devnet.rpcUrl);
    transport = new StdioClientTransport({
      command: process.execPath,
      args: ["bin/docket.js", "mcp"],
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        ...TEST_INDEX,
        ...chainEnv(lease.devnet, proxy.url),
        EVENT_POLL_MS: "0",
        LOG_LEVEL: "info",
        EVIDENCE_DIR: mkdtempSync(join(tmpdir(), "docket-stdio-faults-")),
      },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    client = await connect(transport);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await lease?.devnet.stop();
  });

  /** `call` answered (resolved or rejected) within WITHIN_MS; its outcome. */
  async function timed<T>(what: string, call: () => Promise<T>): Promise<{ ok?: T; err?: Json }> {
    const t0 = performance.now();
    const out = await call().then(
      (ok) => ({ ok }),
      (err: unknown) => ({ err }),
    );
    const ms = performance.now() - t0;
    expect(ms, `${what} took ${Math.round(ms)} ms`).toBeLessThan(WITHIN_MS);
    return out;
  }

  it("a tool, a resource and the MCP App resource each answer within a second", async () => {
    const address = lease.devnet.seed?.cases.find((c) => c.state === "Summoned")?.address as string;
    await proxy.setFault("error");
    try {
      const tool = await timed("get_case", () => client.callTool({ name: "get_case", arguments: { address } }));
      expect((tool.ok as Json).isError).toBe(true);
      expect((tool.ok as Json).structuredContent).toMatchObject({ error: { code: "RPC_ERROR" } });
      const resource = await timed("resources/read", () => client.readResource({ uri: `docket://cases/${address}` }));
      expect(resource.err?.code).toBe(-32603);
      expect(String(resource.err?.message)).toMatch(/RPC_ERROR/);
      // The view is bundled on first read: answered with it, or with an error, never left waiting.
      const app = await timed("ui://docket/case", () => client.readResource({ uri: "ui://docket/case" }));
      expect(app.ok !== undefined || app.err !== undefined).toBe(true);
    } finally {
      await proxy.setFault("none");
    }
    const back = (await client.callTool({ name: "get_case", arguments: { address } })) as Json;
    expect(back.isError).toBeFalsy();
    expect(stderr).not.toMatch(/unhandled/i);
  });
});
