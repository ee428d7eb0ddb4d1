import { request } from "node:http";
import { gzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCodes } from "../../../src/errors/errors.js";
import { rawCid } from "../../../src/evidence/cid.js";
import { buildServer } from "../../../src/mcp/server.js";
import { fileCase } from "../../../src/operations/cases/fileCase.js";
import { operations } from "../../../src/operations/registry.js";
import { TestDocket } from "../../support/index.js";
import { nestedText } from "./arbitraries.js";

/** Bugs the fuzz tests (fuzz.http.test.ts, fuzz.mcp.test.ts) found, one by one. */
describe("hardening regressions", () => {
  let t: TestDocket;
  let mcp: Client;
  const wrongChecksum = "0x70997970c51812dc3a010c7d01b50e0d17dc79C8";

  /** A raw request: fetch would refuse or normalise these paths. */
  function raw(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer) {
    const u = new URL(t.url);
    return new Promise<{ status: number; body: { error?: { code?: string; message?: string; details?: never } } }>(
      (resolve, reject) => {
        const req = request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
          let text = "";
          res.on("data", (c: Buffer) => {
            text += c.toString();
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on("error", reject);
        req.end(body);
      },
    );
  }

  const expectCode = (r: { status: number; body: { error?: { code?: string } } }, status: number, code: string) => {
    expect(r.body.error?.code).toBe(code);
    expect(r.status).toBe(status);
    expect(errorCodes).toContain(r.body.error?.code);
  };

  beforeAll(async () => {
    t = await TestDocket.shared();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildServer(t.docket.ctx, { operations }).connect(serverSide);
    mcp = new Client({ name: "regressions", version: "1.0.0" });
    await mcp.connect(clientSide);
    await mcp.listTools();
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  it("JSON nested 10,000 levels (or past JSON_MAX_DEPTH) in a REST body is 400 INVALID_INPUT naming the bound; 64 levels pass the door", async () => {
    const json = { "content-type": "application/json" };
    for (const deep of [nestedText(10_000, "array"), nestedText(10_000, "object"), nestedText(65, "mixed")]) {
      const r = await raw("POST", "/cases/verify-tx", json, Buffer.from(`{"txHash":${deep}}`));
      expectCode(r, 400, "INVALID_INPUT");
      expect(r.body.error?.details).toMatchObject({ maxDepth: 64 });
    }
    // At the bound the body is read, and its content refused as any other bad input.
    const atBound = await raw("POST", "/cases/verify-tx", json, Buffer.from(`{"txHash":${nestedText(63, "array")}}`));
    expect(atBound.status).toBe(422);
    expect(atBound.body.error?.code).toBe("VALIDATION_ERROR");
  });

  it("a path parameter that is not valid percent-encoding is 400 INVALID_INPUT, not 500", async () => {
    for (const path of ["/cases/%ZZ", "/agent/%E0%A4%A", "/validate/stats/%", "/cases/0x%ZZ/evidence"]) {
      expectCode(await raw("GET", path), 400, "INVALID_INPUT");
    }
    expectCode(
      await raw("POST", "/cases/%/vote", { "content-type": "application/json" }, Buffer.from("{}")),
      400,
      "INVALID_INPUT",
    );
  });

  it("a body that does not inflate as its Content-Encoding says is 400 INVALID_INPUT, not 500", async () => {
    const json = { "content-type": "application/json" };
    for (const encoding of ["gzip", "deflate", "br"]) {
      const r = await raw("POST", "/judges/unstake", { ...json, "content-encoding": encoding }, Buffer.from("{}"));
      expectCode(r, 400, "INVALID_INPUT");
    }
    // A body that does inflate is read as usual.
    const gz = gzipSync(JSON.stringify({ address: "0x12" }));
    expectCode(
      await raw("POST", "/judges/unstake", { ...json, "content-encoding": "gzip" }, gz),
      400,
      "INVALID_ADDRESS",
    );
  });

  it("file_case with one good and one malformed party is 400 INVALID_ADDRESS, not 500 (HTTP and MCP)", async () => {
    const good = t.address(1);
    const claim = { claimDescription: "x", evidenceIpfsHash: rawCid("y").toString() };
    for (const [plaintiff, defendant] of [
      [good, "0x12"],
      ["0x12", good],
      [good, wrongChecksum],
      [good, `${good}0`],
    ]) {
      expect(() => fileCase.input.safeParse({ plaintiff, defendant, ...claim })).not.toThrow();
      expectCode(await t.post("/cases", { plaintiff, defendant, ...claim }), 400, "INVALID_ADDRESS");
      const r = (await mcp.callTool({
        name: "file_case",
        arguments: { plaintiff, defendant, ...claim },
      })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ error: { code: "INVALID_ADDRESS" } });
    }
    // The cross-field rule still holds for two real addresses.
    expectCode(await t.post("/cases", { plaintiff: good, defendant: good, ...claim }), 422, "VALIDATION_ERROR");
  });

  it("an address or tx hash one digit too long is 400 like one digit short, not 422 VALIDATION_ERROR", async () => {
    const long = `${t.address(1)}0`;
    expectCode(await t.get(`/agent/${long}`), 400, "INVALID_ADDRESS");
    expectCode(await t.get(`/cases/${long.slice(0, 41)}`), 400, "INVALID_ADDRESS");
    expectCode(await t.get(`/cases/${"a".repeat(5_000)}`), 400, "INVALID_ADDRESS");
    expectCode(await t.post("/judges/unstake", { address: long }), 400, "INVALID_ADDRESS");
    expectCode(await t.post("/cases/verify-tx", { txHash: `0x${"ab".repeat(32)}0` }), 400, "INVALID_INPUT");
    expectCode(await t.post("/cases/verify-tx", { txHash: `0x${"ab".repeat(31)}a` }), 400, "INVALID_INPUT");
  });

  it("a write whose signer cannot pay value + gas is 422 VALIDATION_ERROR (InsufficientFunds), not 500 RPC_ERROR", async () => {
    // Dev accounts hold 10,000 ETH; this stakes 10^12 ETH.
    const body = { address: t.address(16), amount: (10n ** 30n).toString() };
    const r = await t.post("/judges/stake", body);
    expectCode(r, 422, "VALIDATION_ERROR");
    expect(r.body.error.details).toMatchObject({ reason: "InsufficientFunds", operation: "stake_as_judge" });
    const m = (await mcp.callTool({ name: "stake_as_judge", arguments: body })) as CallToolResult;
    expect(m.isError).toBe(true);
    expect(m.structuredContent).toMatchObject({
      error: { code: "VALIDATION_ERROR", details: { reason: "InsufficientFunds" } },
    });
  });

  it("MCP tools/call with arguments that are not an object is -32602 (invalid params), not -32603", async () => {
    for (const args of [[], "x", 0, null, true]) {
      const err = await mcp.callTool({ name: "get_health", arguments: args as never }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
    }
    // Unknown tools stay -32602 as well, and good calls still work.
    await expect(mcp.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    const ok = (await mcp.callTool({ name: "list_cases", arguments: { limit: 1 } })) as CallToolResult;
    expect(ok.isError).toBeFalsy();
  });

  it("a cached read's tools/call at /mcp with `arguments: null` is -32602 too (the fast path agreed with {})", async () => {
    const call = (id: number, args: unknown) =>
      fetch(`${t.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "list_cases", arguments: args },
        }),
      })
        .then((r) => r.text())
        // JSON, or (from the SDK's handler) one server-sent event carrying it.
        .then((t) => JSON.parse(t.startsWith("event:") ? (/^data: (.*)$/m.exec(t)?.[1] ?? "") : t))
        .then((b) => b as { result?: { isError?: boolean }; error?: { code: number } });
    // Warm the cache with no arguments, so the fast path would have an answer for {}.
    expect((await call(1, {})).result?.isError).toBeFalsy();
    const bad = await call(2, null);
    expect(bad.error?.code).toBe(ErrorCode.InvalidParams);
  });
});
