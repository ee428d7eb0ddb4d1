import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Address } from "viem";
import { expect } from "vitest";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { seedSalt } from "../../src/devnet/seed.js";
import { operations } from "../../src/operations/registry.js";
import { signAndSend, type UnsignedTx } from "../support/index.js";

// biome-ignore lint/suspicious/noExplicitAny: tool results are checked field by field
export type Json = any;

/** Connects the official SDK client over any transport and lists the tools, as real clients do first. */
export async function connect(transport: Transport, name = "docket-test"): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  // Listing caches each tool's output validator: from here on the client checks structuredContent.
  await client.listTools();
  return client;
}

/**
 * The protocol eras the MCP suites run in: `2025-11-25` with SDK 1.x's client (initialize, the
 * era docket spoke before), `2026-07-28` with the official 2.x client pinned to that revision
 * (server/discover, a `_meta` envelope on every request, no session).
 */
export const ERAS = ["2025-11-25", "2026-07-28"] as const;
export type ProtocolEra = (typeof ERAS)[number];

/**
 * The official client of an era, connected over Streamable HTTP to `url` (headers on every
 * request), with its tools listed. Both clients have the same methods for what the suites do
 * (tools, resources, prompts, completions); the 2.x one is typed as the 1.x one here so a suite is
 * written once.
 */
export async function connectHttp(
  era: ProtocolEra,
  url: string,
  headers?: Record<string, string>,
  name = "docket-test",
): Promise<Client> {
  const requestInit = headers ? { headers } : undefined;
  if (era === "2025-11-25") return connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }), name);
  return connectModern(new ModernHttpTransport(new URL(url), { requestInit }), name);
}

/** The official 2.x client pinned to 2026-07-28 over any of its transports, its tools listed. */
export async function connectModern(
  transport: Parameters<ModernClient["connect"]>[0],
  name = "docket-test",
): Promise<Client> {
  const client = new ModernClient({ name, version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe("modern");
  await client.listTools();
  return client as unknown as Client;
}

/** A 2.x client as itself (for what only the 2026-07-28 era has: `listen`). */
export function modern(client: Client): ModernClient {
  return client as unknown as ModernClient;
}

/** Calls a tool; the result's structuredContent, and whether it is an error. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.find((c) => c.type === "text");
  expect(text?.type === "text" && JSON.parse(text.text)).toEqual(r.structuredContent);
  return { isError: r.isError === true, body: r.structuredContent as Json };
}

/** Calls a tool that must succeed. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Json> {
  const r = await call(client, name, args);
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Every registry operation must be listed: the transport carries the whole catalogue. */
export async function expectAllTools(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(operations.map((op) => op.name).sort());
}

/**
 * The judge flow over one transport. On the General court (public votes): find its Deliberating
 * case, vote as one of its judges who has not voted yet (a judge who has gets CONTRACT_REVERT), sign
 * and broadcast, and read the vote back. On a hidden-vote court (Agentic Commerce): commit on the
 * case in its commit phase, then reveal the seed's commitments on the case in its reveal phase
 * until it is decided.
 */
export async function voteFlow(client: Client, rpcUrl: string): Promise<void> {
  const pending = await ok(client, "list_pending_cases");
  const open: Json[] = [];
  for (const p of pending.cases) open.push((await ok(client, "get_case", { address: p.address })).case);
  const target = open.find((c) => c.state === "Deliberating" && !c.hiddenVotes);
  expect(target).toBeDefined();
  const before = (await ok(client, "get_case", { address: target.address })).case;
  let voted: { judge: Address; tx: UnsignedTx } | undefined;
  let refused = 0;
  for (const judge of before.judges as Address[]) {
    const r = await call(client, "vote_on_case", { address: target.address, plaintiff_wins: true, from: judge });
    if (r.isError) {
      // A judge of the seeded case has already voted: the simulation says so, with the reason.
      expect(r.body.error.code).toBe("CONTRACT_REVERT");
      expect(r.body.error.details.reason).toEqual(expect.any(String));
      refused++;
      continue;
    }
    voted = { judge, tx: r.body.unsigned_tx };
    break;
  }
  expect(refused).toBeGreaterThanOrEqual(1);
  if (!voted) throw new Error("no judge of the Deliberating case could vote");
  expect(voted.tx.to.toLowerCase()).toBe(target.address.toLowerCase());
  await signAndSend(rpcUrl, voted.judge, voted.tx);
  const after = (await ok(client, "get_case", { address: target.address })).case;
  expect(after.votesForPlaintiff).toBe(before.votesForPlaintiff + 1);
  // The seed's one vote was for the plaintiff too: two of three decide.
  expect(after.state).toBe("Resolved");
  expect(after.outcome).toBe("PlaintiffWon");
  if (open.some((c) => c.hiddenVotes)) await hiddenVoteFlow(client, rpcUrl, open);
}

async function hiddenVoteFlow(client: Client, rpcUrl: string, open: Json[]): Promise<void> {
  const committing = open.find((c) => c.votingPhase === "commit");
  const revealing = open.find((c) => c.votingPhase === "reveal");
  if (!committing || !revealing) throw new Error("the seed has no case in the commit and the reveal phase");

  // Commit: the first judge who has not committed; the answer carries the salt to keep.
  const judge = committing.votes.find((v: Json) => v.vote === null).judge as Address;
  const commit = await ok(client, "vote_on_case", { address: committing.address, plaintiff_wins: true, from: judge });
  expect(commit.reveal).toMatchObject({
    plaintiff_wins: true,
    round: 1,
    salt: expect.stringMatching(/^0x[0-9a-f]{64}$/),
  });
  await signAndSend(rpcUrl, judge, commit.unsigned_tx);
  const committed = (await ok(client, "get_case", { address: committing.address })).case;
  expect(committed.votesCommitted).toBe(committing.votesCommitted + 1);
  expect(committed.votesForPlaintiff + committed.votesForDefendant).toBe(0);

  // Reveal the seed's commitments (its salts are derived; the vote is found by trying both).
  let c = revealing;
  for (const v of revealing.votes as Json[]) {
    if (v.vote !== "committed" || c.state !== "Deliberating") continue;
    const salt = seedSalt(revealing.address, v.judge);
    let tx: UnsignedTx | undefined;
    for (const plaintiff_wins of [true, false]) {
      const args = { address: revealing.address, plaintiff_wins, salt, justification: "Read over MCP.", from: v.judge };
      const r = await call(client, "reveal_vote", args);
      if (!r.isError) {
        tx = r.body.unsigned_tx;
        break;
      }
      expect(r.body.error.details.reason).toBe("CommitmentMismatch");
    }
    if (!tx) throw new Error(`no reveal matched ${v.judge}'s commitment`);
    await signAndSend(rpcUrl, v.judge, tx);
    const next = (await ok(client, "get_case", { address: revealing.address })).case;
    expect(next.votesForPlaintiff + next.votesForDefendant).toBe(c.votesForPlaintiff + c.votesForDefendant + 1);
    c = next;
  }
  // The seed committed [plaintiff, defendant, plaintiff] and revealed the first: the plaintiff wins.
  expect(c).toMatchObject({ state: "Resolved", outcome: "PlaintiffWon" });
  expect(c.votes.filter((v: Json) => v.justification === "Read over MCP.")).toHaveLength(2);
}

/** Self-registration over one transport: unregistered, register, sign, and the record shows. */
export async function registerFlow(client: Client, rpcUrl: string, index: number): Promise<void> {
  const who = devAccount(index).address;
  const missing = await call(client, "get_agent", { address: who });
  expect(missing.isError).toBe(true);
  expect(missing.body.error.code).toBe("AGENT_NOT_REGISTERED");
  const name = `mcp-agent-${index}`;
  const built = await ok(client, "self_register_agent", { address: who, name });
  await signAndSend(rpcUrl, who, built.unsigned_tx);
  const { agent } = await ok(client, "get_agent", { address: who });
  expect(agent).toMatchObject({ address: who, name, metadataURI: "" });
}

/** A bad argument gets docket's code, not the SDK's generic validation error. */
export async function expectErrorCodes(client: Client): Promise<void> {
  const bad = await call(client, "get_case", { address: "0x1234" });
  expect(bad).toMatchObject({ isError: true, body: { error: { code: "INVALID_ADDRESS" } } });
  const missing = await call(client, "vote_on_case", { address: devAccount(1).address });
  expect(missing).toMatchObject({ isError: true, body: { error: { code: "MISSING_FIELD" } } });
}
