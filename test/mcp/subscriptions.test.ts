import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Address } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { TestDocket } from "../support/docket.js";
import { connect, type Json, ok } from "./helpers.js";

/**
 * MCP pushing work to agents, over the transports that keep a session (Streamable HTTP at
 * /mcp/session, legacy SSE): a client subscribes to case resources, a real change is signed and
 * mined, one poll of the real event follower later `notifications/resources/updated` arrives for
 * what it watches and for nothing else. Also `resources/list` in pages and completions of addresses.
 * stdio's subscriptions are tested in stdio.test.ts, the session bounds in bounds.test.ts.
 */
describe("MCP subscriptions, paged resources, completions", () => {
  let t: TestDocket;
  const seeded = (state: string) => t.devnet.seed?.cases.find((c) => c.state === state)?.address as Address;
  const caseUri = (a: string) => `docket://cases/${a}`;

  beforeAll(async () => {
    // The follower's timer never fires during the run: each test polls it once, after its change.
    // Three cases a page, so the seeded chain lists in several pages.
    t = await TestDocket.start({ EVENT_POLL_MS: "3600000", MCP_RESOURCE_PAGE_SIZE: "3" });
    await t.docket.follower?.poll();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Every client a test opens, closed after it whatever its outcome, so no session outlives its test. */
  const open: Client[] = [];
  async function session(transport: StreamableHTTPClientTransport | SSEClientTransport): Promise<Client> {
    const c = await connect(transport);
    open.push(c);
    return c;
  }
  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((c) => c.close()));
  });

  const transports: [string, () => StreamableHTTPClientTransport | SSEClientTransport][] = [
    [
      "Streamable HTTP sessions (/mcp/session)",
      () => new StreamableHTTPClientTransport(new URL(`${t.url}/mcp/session`)),
    ],
    ["legacy SSE (/sse)", () => new SSEClientTransport(new URL(`${t.url}/sse`))],
  ];

  describe.each(transports)("over %s", (_name, transport) => {
    it("subscribing checks the resource: a bad URI or address is -32602, an unknown case -32002", async () => {
      const client = await session(transport());
      const refused = async (uri: string) => client.subscribeResource({ uri }).catch((e: unknown) => e);
      expect(await refused("docket://judges/0x1234")).toMatchObject({ code: -32602 });
      expect(await refused(caseUri("0x1234"))).toMatchObject({ code: -32602 });
      const unknown = await refused(caseUri(devAccount(19).address));
      expect(unknown).toBeInstanceOf(McpError);
      expect(unknown).toMatchObject({ code: -32002, data: { error: { code: "CASE_NOT_FOUND" } } });
      // Unsubscribing from what is not watched is no error.
      await client.unsubscribeResource({ uri: caseUri(seeded("Active")) });
      await client.close();
    });
  });

  it("a session listens to the event hub only while it watches something, and stops when it closes", async () => {
    const hub = t.docket.events;
    // The SSE sessions of earlier tests end as their streams' close reaches docket.
    await expect.poll(() => t.docket.sseSessions).toBe(0);
    const before = hub.listenerCount;
    const httpSessions = t.docket.httpSessions;
    const sse = await session(new SSEClientTransport(new URL(`${t.url}/sse`)));
    const http = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp/session`));
    const streamable = await session(http);
    expect(hub.listenerCount).toBe(before);
    expect(t.docket.httpSessions).toBe(httpSessions + 1);
    await sse.subscribeResource({ uri: caseUri(seeded("Active")) });
    await sse.subscribeResource({ uri: caseUri(seeded("Summoned")) });
    await streamable.subscribeResource({ uri: caseUri(seeded("Active")) });
    expect(hub.listenerCount).toBe(before + 2);
    // The last unsubscribe stops the listener; closing a session stops the other.
    await streamable.unsubscribeResource({ uri: caseUri(seeded("Active")) });
    expect(hub.listenerCount).toBe(before + 1);
    await streamable.subscribeResource({ uri: caseUri(seeded("Active")) });
    await http.terminateSession();
    await streamable.close();
    expect(hub.listenerCount).toBe(before + 1);
    expect(t.docket.httpSessions).toBe(httpSessions);
    await sse.close();
    await expect.poll(() => hub.listenerCount).toBe(before);
    await expect.poll(() => t.docket.sseSessions).toBe(0);
    expect(t.docket.httpSessions).toBe(httpSessions);
  });

  it("resources/list walks every case in pages with opaque cursors; a bad cursor is -32602", async () => {
    const client = await session(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp/session`)));
    const { cases, total } = await ok(client, "list_cases", { limit: 100 });
    const seen: string[] = [];
    let pages = 0;
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      expect(page.resources.length).toBeLessThanOrEqual(3);
      seen.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(Math.ceil(total / 3));
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(cases.map(caseUri));
    expect(new Set(seen).size).toBe(seen.length);

    for (const bad of ["not-a-cursor", "", Buffer.from("cases:999999").toString("base64url")]) {
      const err = await client.listResources({ cursor: bad }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(McpError);
      expect(err).toMatchObject({ code: -32602 });
    }
    await client.close();
  });

  describe("completion/complete", () => {
    let client: Client;
    beforeAll(async () => {
      client = await connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp/session`)));
    });
    afterAll(async () => {
      await client?.close();
    });

    const complete = (ref: Json, name: string, value: string, context?: Record<string, string>) =>
      client.complete({ ref, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) });
    const caseTemplate = { type: "ref/resource", uri: "docket://cases/{address}" };
    const judgeCase = { type: "ref/prompt", name: "judge_case" };

    it("completes a case address from the chain's cases, by prefix, whatever its case and with or without 0x", async () => {
      const { cases } = await ok(client, "list_cases", { limit: 100 });
      const target = seeded("Appealed");
      for (const typed of [target.slice(0, 5).toLowerCase(), target.slice(2, 6).toUpperCase()]) {
        for (const ref of [caseTemplate, judgeCase]) {
          const argument = ref === caseTemplate ? "address" : "case_address";
          const { completion } = await complete(ref, argument, typed);
          expect(completion.values).toContain(target);
          const expected = (cases as string[]).filter(
            (a) =>
              a.toLowerCase().startsWith(typed.toLowerCase()) ||
              a.slice(2).toLowerCase().startsWith(typed.toLowerCase()),
          );
          expect([...completion.values].sort()).toEqual(expected.sort());
          expect(completion.hasMore).toBe(false);
        }
      }
      // Nothing typed: every case (fewer than MCP's 100), newest first.
      expect((await complete(caseTemplate, "address", "")).completion.values).toEqual([...cases].reverse());
      expect((await complete(caseTemplate, "address", "0xzz")).completion.values).toEqual([]);
    });

    it("completes judge_case's judge_address from the panel of the case chosen", async () => {
      const deliberating = seeded("Deliberating");
      const { judges } = (await ok(client, "get_case", { address: deliberating })).case;
      const { completion } = await complete(judgeCase, "judge_address", "0x", { case_address: deliberating });
      expect(completion.values).toEqual(judges);
      expect((await complete(judgeCase, "judge_address", "0x")).completion.values).toEqual([]);
    });

    it("an unknown prompt or template is -32602", async () => {
      const err = await complete({ type: "ref/prompt", name: "nope" }, "x", "").catch((e: unknown) => e);
      expect(err).toMatchObject({ code: -32602 });
      const tmpl = await complete({ type: "ref/resource", uri: "docket://nope/{x}" }, "x", "").catch((e) => e);
      expect(tmpl).toMatchObject({ code: -32602 });
    });
  });
});
