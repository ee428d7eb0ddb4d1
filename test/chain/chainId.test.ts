import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// One transaction per vote: what is under test is what docket serves after it, not how it is cast.
import { devPublicParams } from "../../src/deploy/terms.js";
import { type AnvilProcess, startAnvil } from "../../src/devnet/anvil.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import { rawCid } from "../../src/evidence/cid.js";
import type { Docket } from "../../src/server.js";
import { type RpcProxy, request, seeded, startBehind, startRpcProxy } from "../support/index.js";

/**
 * The chain id, checked against the node: at start and at every follower poll. A node answering
 * another chain makes health 503 and every operation CHAIN_MISMATCH (no read of that chain, no
 * unsigned transaction for the one docket serves), and it all clears by itself when the node is right.
 */
describe("a node that answers another chain id", () => {
  let devnet: Devnet;
  let other: AnvilProcess;
  let proxy: RpcProxy;
  let d: Docket;
  let deliberating: `0x${string}`;
  const vote = () => request(d, `/cases/${deliberating}/vote`, { plaintiff_wins: true });

  beforeAll(async () => {
    [devnet, other] = await Promise.all([startDevnet({ params: devPublicParams }), startAnvil({ chainId: 1 })]);
    proxy = await startRpcProxy(devnet.rpcUrl);
    // No holds: the read after the write is cached, so the test sees a cached entry refused.
    d = await startBehind(proxy.url, devnet, { CACHE_HOLD_SECONDS: "0" });
    deliberating = seeded(devnet, "deliberating");
  });
  afterAll(async () => {
    await d?.close();
    await proxy?.close();
    await Promise.all([devnet?.stop(), other?.stop()]);
  });

  it("switching chain mid-run stops reads and writes at the next poll; switching back recovers at the next", async () => {
    expect((await vote()).status).toBe(200);
    await request(d, `/cases/${deliberating}`);
    expect((await request(d, `/cases/${deliberating}`)).headers.get("x-cache")).toBe("HIT");

    proxy.setUpstream(other.rpcUrl);
    await d.follower?.poll();
    const health = await request(d, "/health");
    expect(health.status).toBe(503);
    expect(health.body.status).toBe("degraded");
    expect(health.body.error).toMatch(/chain id mismatch: the node answers chain 1 .* docket serves chain 31337/);
    const refused = await vote();
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe("CHAIN_MISMATCH");
    expect(refused.body.error.details).toMatchObject({ expectedChainId: 31337, nodeChainId: 1 });
    expect(refused.body.unsigned_tx).toBeUndefined();
    // Not even the entry cached before the switch: it is served for a chain the node no longer is.
    const read = await request(d, `/cases/${deliberating}`);
    expect(read.status).toBe(503);
    expect(read.body.error.code).toBe("CHAIN_MISMATCH");
    // Payment requirements are refused too.
    const filing = await request(d, "/cases", {
      plaintiff: devnet.accounts[1]?.address,
      defendant: devnet.accounts[2]?.address,
      claimDescription: "x",
      evidenceIpfsHash: rawCid("example").toString(),
    });
    expect(filing.status).toBe(503);
    expect(filing.body.error.code).toBe("CHAIN_MISMATCH");
    // The same over MCP: an error result with the same code.
    const client = new Client({ name: "chain-id-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`)));
    const tool = await client.callTool({ name: "get_case", arguments: { address: deliberating } });
    expect(tool.isError).toBe(true);
    expect(JSON.stringify(tool.content)).toContain("CHAIN_MISMATCH");
    await client.close();

    proxy.setUpstream(devnet.rpcUrl);
    await d.follower?.poll();
    expect((await request(d, "/health")).status).toBe(200);
    const ok = await vote();
    expect(ok.status).toBe(200);
    expect(ok.body.unsigned_tx.chainId).toBe(31337);
    const again = await request(d, `/cases/${deliberating}`);
    expect(again.status).toBe(200);
    expect(again.headers.get("x-cache")).toBe("MISS");
  });

  it("started against the wrong chain with no follower (EVENT_POLL_MS=0): degraded from the start, clears when the node is right", async () => {
    const wrong = await startRpcProxy(other.rpcUrl);
    const e = await startBehind(wrong.url, devnet, { EVENT_POLL_MS: "0" });
    try {
      const health = await request(e, "/health");
      expect(health.status).toBe(503);
      expect(health.body.error).toMatch(/chain id mismatch/);
      const refused = await request(e, `/cases/${deliberating}/vote`, { plaintiff_wins: true });
      expect(refused.body.error.code).toBe("CHAIN_MISMATCH");

      wrong.setUpstream(devnet.rpcUrl);
      // Asked again at most once a second, by the requests it refuses.
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await request(e, "/health")).status).toBe(200);
      wrong.reset();
      const ok = await request(e, `/cases/${deliberating}/vote`, { plaintiff_wins: true });
      expect(ok.status).toBe(200);
      // Once right, the check costs nothing per request.
      expect(wrong.byMethod.eth_chainId).toBeUndefined();
    } finally {
      await e.close();
      await wrong.close();
    }
  });
});
