import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devPublicParams } from "../../src/deploy/terms.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import type { Docket } from "../../src/server.js";
import { followToHead } from "../index/fullScan.js";
import { seeded, stakeOnChain, startBehind, voteOnChain } from "../support/index.js";
import { connect, connectModern, modern } from "./helpers.js";

/**
 * MCP subscriptions resume from a court event id across a restart (docs/mcp.md#resuming-a-subscription):
 * a client of a docket with its index in a directory notes the `_meta.eventId` of an update; docket
 * stops; a panel votes on a case and a judge stakes while it is down; a docket restarted on the same
 * store, asked with `_meta.lastEventId`, sends one update for the case the votes touched (with the
 * id of the last of them), nothing for a resource nothing touched, and the gap for an id it never kept.
 */
describe("MCP subscriptions resume from an event id, after a restart", () => {
  let devnet: Devnet;
  let dir: string;
  let d: Docket;
  const start = () => startBehind(devnet.rpcUrl, devnet, { INDEX: "on", INDEX_DIR: dir });
  const inbox = (i: number) => `docket://agents/${devnet.accounts[i]?.address}/inbox`;
  const caseUri = (a: string) => `docket://cases/${a}`;

  type Update = { uri: string; _meta?: Record<string, unknown> };
  /** A client of `d` over Streamable HTTP with a session, and the updates it receives. */
  async function client(): Promise<{ c: Client; got: Update[] }> {
    const c = await connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp/session`)));
    const got: Update[] = [];
    c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      got.push(n.params as Update);
    });
    return { c, got };
  }

  beforeAll(async () => {
    devnet = await startDevnet({ params: devPublicParams });
    dir = mkdtempSync(join(tmpdir(), "docket-mcp-resume-"));
    d = await start();
    await followToHead(d, devnet.reader);
  }, 120_000);
  afterAll(async () => {
    await d?.close();
    await devnet?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("an update names its event; a restarted docket sends what the events since touched, and the gap for an unknown id", async () => {
    const first = await client();
    await first.c.subscribeResource({ uri: inbox(19) });
    await stakeOnChain(devnet, 19);
    await followToHead(d, devnet.reader);
    await expect.poll(() => first.got.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const seen = first.got[0];
    expect(seen?.uri).toBe(inbox(19));
    const lastEventId = seen?._meta?.eventId as string;
    expect(lastEventId).toMatch(/^\d+-\d+-[0-9a-f]{8}$/);
    await first.c.close();
    await d.close();

    // While docket is down: a panel votes on a case, another judge stakes.
    const kase = seeded(devnet, "deliberating");
    await voteOnChain(devnet, kase);
    await stakeOnChain(devnet, 18);

    d = await start();
    await followToHead(d, devnet.reader);
    const again = await client();
    await again.c.subscribeResource({ uri: caseUri(kase), _meta: { lastEventId } });
    await again.c.subscribeResource({ uri: inbox(17), _meta: { lastEventId } });
    await again.c.subscribeResource({ uri: inbox(16), _meta: { lastEventId: "1-0-deadbeef" } });
    await expect.poll(() => again.got.length, { timeout: 10_000 }).toBe(2);
    const onCase = again.got.find((u) => u.uri === caseUri(kase));
    const id = onCase?._meta?.eventId as string;
    // An event after lastEventId (a later block), as GET /events numbers them.
    expect(Number(id.split("-")[0])).toBeGreaterThan(Number(lastEventId.split("-")[0]));
    const gap = again.got.find((u) => u.uri === inbox(16));
    expect(gap?._meta).toMatchObject({ gap: true, type: "events.gap", lastEventId: "1-0-deadbeef" });
    expect(again.got.some((u) => u.uri === inbox(17))).toBe(false);
    // Live ones follow, each with its id.
    await stakeOnChain(devnet, 17);
    await followToHead(d, devnet.reader);
    await expect.poll(() => again.got.map((u) => u.uri), { timeout: 10_000 }).toContain(inbox(17));
    expect(again.got.find((u) => u.uri === inbox(17))?._meta?.eventId).toMatch(/^\d+-\d+-[0-9a-f]{8}$/);
    await again.c.close();
  });

  it("a 2026-07-28 listen stream with _meta.lastEventId is sent what the events since touched", async () => {
    // The id of an event before the vote: the last stake's (docket's event log, as GET /events gives it).
    const kase = seeded(devnet, "deliberating");
    const first = await client();
    await first.c.subscribeResource({ uri: inbox(14) });
    await stakeOnChain(devnet, 14);
    await followToHead(d, devnet.reader);
    await expect.poll(() => first.got.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const lastEventId = first.got[0]?._meta?.eventId as string;
    await first.c.close();
    // A stake after that id, then a listen stream that resumes from it.
    const other = seeded(devnet, "summoned");
    await stakeOnChain(devnet, 13);
    await followToHead(d, devnet.reader);
    // The official 2.x transport, its listen request given the id in _meta (as a client would add it).
    const transport = new ModernHttpTransport(new URL(`${d.url}/mcp`));
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const m = message as { method?: string; params?: { _meta?: Record<string, unknown> } };
      if (m.method === "subscriptions/listen" && m.params) m.params._meta = { ...m.params._meta, lastEventId };
      return send(message, options);
    };
    const c = await connectModern(transport);
    const got: Update[] = [];
    modern(c).setNotificationHandler("notifications/resources/updated", (n) => {
      got.push(n.params as Update);
    });
    const sub = await modern(c).listen({ resourceSubscriptions: [inbox(13), caseUri(other), caseUri(kase)] });
    // Account 13 staked after the id: its inbox is owed one update; the cases, untouched since, none.
    await expect.poll(() => got.map((u) => u.uri), { timeout: 10_000 }).toContain(inbox(13));
    expect(got.find((u) => u.uri === inbox(13))?._meta?.eventId).toMatch(/^\d+-\d+-[0-9a-f]{8}$/);
    await new Promise((r) => setTimeout(r, 300));
    expect(got.map((u) => u.uri)).toEqual([inbox(13)]);
    await sub.close();
    await c.close();
  });

  it("a lastEventId that cannot be an id is refused (-32602)", async () => {
    const { c } = await client();
    await expect(c.subscribeResource({ uri: inbox(15), _meta: { lastEventId: "no spaces allowed" } })).rejects.toThrow(
      /lastEventId/,
    );
    await c.close();
  });
});
