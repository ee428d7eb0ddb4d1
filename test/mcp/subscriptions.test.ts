import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Address, Hex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { rawCid } from "../../src/evidence/cid.js";
import { operations } from "../../src/operations/registry.js";
import { forSuite, mine, rpc, TestDocket } from "../support/index.js";
import { connect, connectHttp, type Json, modern, ok } from "./helpers.js";

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
  /** A dev account's index, for signing as the party a case names. */

  beforeAll(async () => {
    // The follower's timer never fires during the run: each test polls it once, after its change.
    // Three cases a page, so the seeded chain lists in several pages.
    t = await TestDocket.shared({ EVENT_POLL_MS: "3600000", MCP_RESOURCE_PAGE_SIZE: "3" });
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

  /** Adds evidence to a case as its plaintiff: an unsigned tx from the API, signed and mined. */
  async function addEvidence(address: Address): Promise<void> {
    const { body } = await t.get(`/cases/${address}`);
    const hash = rawCid(`${Date.now()}-${Math.random()}`).toString();
    await t.write(`/cases/${address}/evidence`, { evidenceIpfsHash: hash }, t.indexOf(body.case.plaintiff));
  }

  /** The URIs of the resource updates a client receives, in order. */
  function updates(client: Client): string[] {
    const got: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      got.push(n.params.uri);
    });
    return got;
  }

  const transports: [string, () => StreamableHTTPClientTransport | SSEClientTransport][] = [
    [
      "Streamable HTTP sessions (/mcp/session)",
      () => new StreamableHTTPClientTransport(new URL(`${t.url}/mcp/session`)),
    ],
    ["legacy SSE (/sse)", () => new SSEClientTransport(new URL(`${t.url}/sse`))],
  ];

  describe("protocol 2026-07-28 over /mcp (no sessions)", () => {
    it("subscriptions/listen: a change to a case named in the filter is pushed on the listen stream", async () => {
      const client = await connectHttp("2026-07-28", `${t.url}/mcp`);
      open.push(client);
      expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
      const got: string[] = [];
      const ids: unknown[] = [];
      modern(client).setNotificationHandler("notifications/resources/updated", (n) => {
        got.push(n.params.uri);
        ids.push(n.params._meta?.eventId);
      });
      const active = seeded("Active");
      // Lowercase, as a 2025 session may: docket publishes both spellings.
      const watched = caseUri(active.toLowerCase());
      const sub = await modern(client).listen({ resourceSubscriptions: [watched, caseUri(seeded("Deliberating"))] });
      expect(sub.honoredFilter.resourceSubscriptions).toContain(watched);
      await addEvidence(active);
      await t.docket.follower?.poll();
      await expect.poll(() => got, { timeout: 10_000 }).toContain(watched);
      expect(got.every((u) => u === watched)).toBe(true);
      // Each names the court event that caused it (GET /events' id), to resume from.
      expect(ids.every((id) => typeof id === "string" && /^\d+-\d+-[0-9a-f]{8}$/.test(id))).toBe(true);
      await sub.close();
    });

    it("a real reorg (evm_revert) undoing evidence reaches the listen stream for every docket URI it watches", async () => {
      const client = await connectHttp("2026-07-28", `${t.url}/mcp`);
      open.push(client);
      const got: string[] = [];
      modern(client).setNotificationHandler("notifications/resources/updated", (n) => {
        got.push(n.params.uri);
      });
      const active = seeded("Active");
      // Spelled as the listener wrote them; the Summoned case is untouched by the evidence.
      const watched = [caseUri(active), caseUri(seeded("Summoned").toLowerCase())];
      const sub = await modern(client).listen({ resourceSubscriptions: [...watched, "docket://nothing-of-ours"] });
      const rpcUrl = t.chain.publicRpcUrl as string;
      const snapshot = (await rpc(rpcUrl, "evm_snapshot")) as Hex;
      await addEvidence(active);
      await t.docket.follower?.poll();
      await expect.poll(() => got, { timeout: 10_000 }).toContain(caseUri(active));
      expect(got).not.toContain(watched[1]);
      got.length = 0;

      expect(await rpc(rpcUrl, "evm_revert", [snapshot])).toBe(true);
      await mine(rpcUrl, 3);
      await t.docket.follower?.poll();
      // Every watched case may have changed under a reorg: both are named, the foreign URI is not.
      await expect.poll(() => [...got].sort(), { timeout: 10_000 }).toEqual([...watched].sort());
      expect(t.docket.events.since("not-an-id").events.map((e) => e.type)).toContain("chain.reorg");
      await sub.close();
    });

    it("resources/read carries ttlMs and cacheScope; a missing case is -32602 naming the URI", async () => {
      const client = await connectHttp("2026-07-28", `${t.url}/mcp`);
      open.push(client);
      // A case no test writes to: a write holds its key out of the cache for a while (CACHE_HOLD_SECONDS).
      const uri = caseUri(seeded("Appealed"));
      const read = async () => {
        const raw = await fetch(`${t.url}/mcp`, {
          method: "POST",
          headers: {
            accept: "application/json, text/event-stream",
            "content-type": "application/json",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "resources/read",
            "mcp-name": uri,
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "resources/read",
            params: {
              uri,
              _meta: {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
              },
            },
          }),
        });
        return ((await raw.json()) as Json).result;
      };
      const result = await read();
      expect(result).toMatchObject({ resultType: "complete", cacheScope: "public", ttlMs: expect.any(Number) });
      // The TTL left on the cached answer.
      await expect.poll(async () => (await read()).ttlMs).toBeGreaterThan(0);
      expect(JSON.parse(result.contents[0].text)).toEqual(
        await ok(client, "get_case", { address: seeded("Appealed") }),
      );
      const missing = caseUri(devAccount(19).address);
      const err = await client.readResource({ uri: missing }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: -32602, data: { uri: missing, error: { code: "CASE_NOT_FOUND" } } });
      // Paged list (the 2.x client walks the pages of 3 itself) and completions, as in the 2025 era.
      const all = await client.listResources();
      expect(all.resources.map((r) => r.uri)).toEqual(t.devnet.seed?.cases.map((c) => caseUri(c.address)));
      const done = await client.complete({
        ref: { type: "ref/resource", uri: "docket://cases/{address}" },
        argument: { name: "address", value: seeded("Active").slice(0, 6) },
      });
      expect(done.completion.values).toContain(seeded("Active"));
    });
  });

  describe.each(transports)("over %s", (_name, transport) => {
    it("a change to a watched case sends notifications/resources/updated for it, not for one unwatched", async () => {
      const client = await session(transport());
      expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
      const got = updates(client);
      const active = seeded("Active");
      const deliberating = seeded("Deliberating");
      // Lowercase: events name the case checksummed, and still match.
      const watched = caseUri(active.toLowerCase());
      await client.subscribeResource({ uri: watched });
      await client.subscribeResource({ uri: caseUri(deliberating) });
      await client.unsubscribeResource({ uri: caseUri(deliberating) });

      // Both cases change in the same blocks, read in one poll.
      await addEvidence(active);
      await addEvidence(deliberating);
      expect(got).toEqual([]);
      await t.docket.follower?.poll();
      await expect.poll(() => got, { timeout: 10_000 }).toContain(watched);
      await client.ping();
      // The URI as the client spelled it, once for the poll, and nothing for the case it stopped watching.
      expect(got).toEqual([watched]);
      // What the notification points at has changed: reading it shows the new evidence.
      const evidence = await ok(client, "get_case_evidence", { address: active });
      expect(evidence.evidence.length).toBeGreaterThan(1);
      await client.close();
    });

    it("subscribing checks the resource: a bad URI or address is -32602, an unknown case too (naming it)", async () => {
      const client = await session(transport());
      const refused = async (uri: string) => client.subscribeResource({ uri }).catch((e: unknown) => e);
      expect(await refused("docket://judges/0x1234")).toMatchObject({ code: -32602 });
      expect(await refused(caseUri("0x1234"))).toMatchObject({ code: -32602 });
      const unknown = await refused(caseUri(devAccount(19).address));
      expect(unknown).toBeInstanceOf(McpError);
      expect(unknown).toMatchObject({
        code: -32602,
        data: { uri: caseUri(devAccount(19).address), error: { code: "CASE_NOT_FOUND" } },
      });
      // Unsubscribing from what is not watched is no error.
      await client.unsubscribeResource({ uri: caseUri(seeded("Active")) });
      await client.close();
    });
  });

  it("an inbox (once get_inbox is served): a change concerning the address notifies its inbox, not a stranger's", async () => {
    const client = await session(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp/session`)));
    const { resourceTemplates } = await client.listResourceTemplates();
    const inboxServed = operations.some((op) => op.name === "get_inbox");
    const stranger = `docket://agents/${devAccount(19).address}/inbox`;
    if (!inboxServed) {
      // Until the get_inbox operation lands, inboxes are neither served nor watchable.
      expect(resourceTemplates.map((r) => r.uriTemplate)).not.toContain("docket://agents/{address}/inbox");
      expect(await client.subscribeResource({ uri: stranger }).catch((e: unknown) => e)).toMatchObject({
        code: -32602,
      });
      return;
    }
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain("docket://agents/{address}/inbox");
    const active = seeded("Active");
    const { plaintiff } = (await t.get(`/cases/${active}`)).body.case;
    const mine = `docket://agents/${plaintiff.toLowerCase()}/inbox`;
    const got = updates(client);
    await client.subscribeResource({ uri: mine });
    await client.subscribeResource({ uri: stranger });
    await addEvidence(active);
    await t.docket.follower?.poll();
    await expect.poll(() => got, { timeout: 10_000 }).toContain(mine);
    await client.ping();
    expect(got).toEqual([mine]);
    // Reading the inbox resource answers get_inbox's JSON.
    const read = await client.readResource({ uri: mine });
    const text = (read.contents[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual(await ok(client, "get_inbox", { address: plaintiff }));
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
    forSuite(async () => (client = await connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp/session`)))));

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
