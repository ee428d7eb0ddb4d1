import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Address, createWalletClient, type Hex, http, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeChain, makePublicClient } from "../../src/chain/client.js";
import type { Deployment } from "../../src/chain/deployments.js";
import { loadConfig } from "../../src/config.js";
import { deployCourt } from "../../src/deploy/deploy.js";
import { devPublicParams } from "../../src/deploy/terms.js";
import { freePort } from "../../src/devnet/anvil.js";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { encodePaymentHeader } from "../../src/payments/x402.js";
import { type Docket, startServer } from "../../src/server.js";
import { request, rpc, TEST_INDEX } from "../support/index.js";

/**
 * docket on a second EVM implementation: Hardhat 2's network (EDR, from npm, offline, Node 20),
 * served by `hardhat node` as a child process on loopback (test/support/hardhat.config.cjs: the dev
 * chain's id and accounts). It has no Multicall3, so this is also the bare-chain path end to end.
 * The court is deployed with `deployCourt`, as `npm run deploy` deploys it (nothing anvil-only: the
 * seed, anvil_setCode and the time-travel proxy stay in src/devnet/ and are not used here). The
 * reorg uses evm_snapshot/evm_revert, which Hardhat's network supports as anvil does.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

async function startHardhatNode(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "node_modules", "hardhat", "internal", "cli", "bootstrap.js"),
      "node",
      "--config",
      join(ROOT, "test", "support", "hardhat.config.cjs"),
      "--hostname",
      "127.0.0.1",
      "--port",
      String(port),
    ],
    { cwd: ROOT, env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`hardhat node did not start: ${out.slice(0, 500)}`)), 60_000);
    const onData = (c: Buffer) => {
      out += c.toString("utf8");
      if (out.includes("Started HTTP")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`hardhat node exited (${code}): ${out.slice(0, 500)}`)));
  });
  // It logs every request: keep reading so it never blocks on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  return { url: `http://127.0.0.1:${port}`, child };
}

describe("docket on a second EVM node (Hardhat 2 / EDR), no Multicall3", () => {
  let node: { url: string; child: ChildProcess };
  let reader: PublicClient;
  let deployment: Deployment;
  let d: Docket;
  let mcp: Client;
  const chain = () => makeChain(31337, node.url, { multicall3: false, name: "hardhat" });
  const poll = () => (d.follower as NonNullable<Docket["follower"]>).poll();

  /** Signs and sends as dev account `index` on the Hardhat node; the mined hash. */
  async function send(index: number, tx: { to: Address; value: string; data: Hex }): Promise<Hex> {
    const wallet = createWalletClient({
      account: devAccount(index).account,
      chain: chain(),
      transport: http(node.url, { retryCount: 0 }),
    });
    const hash = await wallet.sendTransaction({ to: tx.to, value: BigInt(tx.value), data: tx.data });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") throw new Error(`${hash} reverted`);
    return hash;
  }

  beforeAll(async () => {
    node = await startHardhatNode();
    reader = makePublicClient(chain());
    const wallet = createWalletClient({
      account: devAccount(0).account,
      chain: chain(),
      transport: http(node.url, { retryCount: 0 }),
    });
    deployment = await deployCourt(wallet, reader, devPublicParams);
    d = await startServer(
      loadConfig({
        ...TEST_INDEX,
        PORT: "0",
        LOG_LEVEL: "silent",
        RATE_LIMIT_PER_MINUTE: "0",
        RPC_URL: node.url,
        CHAIN_ID: "31337",
        CHAIN_NAME: "hardhat",
        FACTORY_ADDRESS: deployment.factory,
        REGISTRY_ADDRESS: deployment.registry,
        EVENT_POLL_MS: "3600000",
        CACHE_HOLD_SECONDS: "0",
      }),
    );
    mcp = new Client({ name: "second-node", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`)));
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await d?.close();
    node?.child.kill();
  });

  it("the node is not anvil and has no Multicall3; health is ok", async () => {
    expect(await rpc(node.url, "web3_clientVersion")).toMatch(/HardhatNetwork/);
    expect(d.ctx.chain.hasMulticall3).toBe(false);
    const health = await request(d, "/health");
    expect(health.status, JSON.stringify(health.body)).toBe(200);
    expect(health.body.status).toBe("ok");
  });

  it("a signed write is read back over HTTP and MCP; reads work call by call", async () => {
    for (const [i, name] of [
      [15, "hh-plaintiff"],
      [16, "hh-defendant"],
    ] as const) {
      const built = await request(d, "/agent/self-register", { address: devAccount(i).address, name });
      expect(built.status, JSON.stringify(built.body)).toBe(200);
      await send(i, built.body.unsigned_tx);
    }
    await poll();
    const agent = await request(d, `/agent/${devAccount(15).address}`);
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    expect(JSON.stringify(agent.body)).toContain("hh-plaintiff");
    const overMcp = (await mcp.callTool({
      name: "get_agent",
      arguments: { address: devAccount(16).address },
    })) as CallToolResult;
    expect(overMcp.isError).toBeFalsy();
    expect(JSON.stringify(overMcp.structuredContent)).toContain("hh-defendant");
    for (const path of ["/stats/overview", "/judges/pool", "/agent/discover", "/cases"]) {
      expect((await request(d, path)).status, path).toBe(200);
    }
  });

  it("a paid filing (the native fee path): 402, pay, prove, sign; the follower's event and the case read back", async () => {
    const body = {
      plaintiff: devAccount(15).address,
      defendant: devAccount(16).address,
      claimDescription: `second node ${Date.now()}`,
      evidenceIpfsHash: "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
    };
    const asked = await request(d, "/cases", body);
    expect(asked.status, JSON.stringify(asked.body)).toBe(402);
    const feeHash = await send(15, asked.body.accepts[0].extra.unsigned_tx);
    const res = await fetch(`${d.url}/cases`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-PAYMENT": encodePaymentHeader(feeHash, 31337) },
      body: JSON.stringify(body),
    });
    const built = (await res.json()) as { unsigned_tx: { to: Address; value: string; data: Hex } };
    expect(res.status, JSON.stringify(built)).toBe(200);
    await send(15, built.unsigned_tx);
    const seen: { type: string; case?: string }[] = [];
    const unsubscribe = d.events.subscribe((e) => {
      seen.push(e as { type: string; case?: string });
    });
    try {
      await poll();
    } finally {
      unsubscribe();
    }
    const filed = seen.find((e) => e.type === "case.filed");
    expect(filed?.case).toBeDefined();
    const kase = await request(d, `/cases/${filed?.case}`);
    expect(kase.status).toBe(200);
    expect(kase.body.case.plaintiff).toBe(devAccount(15).address);
    const overMcp = (await mcp.callTool({ name: "get_case", arguments: { address: filed?.case } })) as CallToolResult;
    expect(overMcp.isError).toBeFalsy();
  });

  it("a reorg (evm_snapshot / evm_revert) is noticed: lastChainEvent set, the orphaned write not served", async () => {
    await poll();
    const snapshot = (await rpc(node.url, "evm_snapshot")) as Hex;
    const who = devAccount(17).address;
    const built = await request(d, "/agent/self-register", { address: who, name: "hh-orphaned" });
    await send(17, built.body.unsigned_tx);
    await poll();
    expect((await request(d, `/agent/${who}`)).status).toBe(200);
    expect(await rpc(node.url, "evm_revert", [snapshot])).toBe(true);
    for (let i = 0; i < 3; i++) await rpc(node.url, "evm_mine");
    await poll();
    const health = await request(d, "/health");
    expect(health.body.lastChainEvent).toMatchObject({ kind: "reorg" });
    const gone = await request(d, `/agent/${who}`);
    expect(gone.status).toBe(404);
  });
});
