import { connect } from "node:net";
import solc from "solc";
import { type Abi, type Address, getAddress, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DocketEvent } from "../../src/events/types.js";
import { rawCid } from "../../src/evidence/cid.js";
import { TestDocket, until } from "../support/index.js";
import { Listener, refusal } from "./helpers.js";

/**
 * `GET /events` against the real dev chain: every event comes from a transaction docket built,
 * signed here with a dev key and mined, and is seen by the follower, which the test polls itself
 * (the interval is an hour), so "within one poll" is exact.
 */
describe("GET /events: court events pushed as they are mined", () => {
  let t: TestDocket;
  const poll = () => (t.docket.follower as NonNullable<typeof t.docket.follower>).poll();
  const seeded = (label: string) => {
    const c = t.devnet.seed?.cases.find((x) => x.label.startsWith(label));
    if (!c) throw new Error(`no seeded case ${label}`);
    return c.address;
  };
  const caseOf = async (addr: Address) => (await t.get(`/cases/${addr}`)).body.case;
  const open: Listener[] = [];
  const listen = async (query = "", lastEventId?: string) => {
    const l = await Listener.open(t.url, query, lastEventId);
    open.push(l);
    return l;
  };
  const closeAll = () => {
    for (const l of open.splice(0)) l.close();
  };
  let evidenceCount = 0;
  /** A party adds evidence through docket: one `evidence.submitted`. */
  const addEvidence = async (caseAddr: Address, party: string) => {
    const hash = rawCid(`events-${++evidenceCount}`).toString();
    const receipt = await t.write(
      `/cases/${caseAddr}/evidence`,
      { evidenceIpfsHash: hash, from: party },
      t.indexOf(party),
    );
    return { hash, receipt };
  };

  beforeAll(async () => {
    t = await TestDocket.shared({
      EVENT_POLL_MS: "3600000",
      EVENTS_BUFFER: "8",
      EVENTS_MAX_STREAMS: "6",
      EVENTS_MAX_QUEUED_BYTES: "65536",
      EVENTS_PING_MS: "200",
    });
  });
  afterEach(async () => {
    closeAll();
    await until("streams closed", () => t.docket.eventStreams === 0).catch(() => {});
  });
  let closed = false;
  afterAll(async () => {
    if (!closed) await t?.close();
  });

  it("a write through the API, signed and mined, is on the stream after one poll, typed and addressed", async () => {
    const active = seeded("active");
    const c = await caseOf(active);
    const l = await listen();
    const { hash, receipt } = await addEvidence(active, c.plaintiff);
    await poll();
    const e = await l.next((x) => x.type === "evidence.submitted");
    const log = receipt.logs.find((x) => getAddress(x.address) === active);
    expect(e.id).toBe(`${receipt.blockNumber}-${log?.logIndex}-${receipt.blockHash.slice(2, 10)}`);
    expect(e.data).toMatchObject({
      id: e.id,
      type: "evidence.submitted",
      block: Number(receipt.blockNumber),
      txHash: receipt.transactionHash,
      case: active,
      data: { submitter: c.plaintiff, evidenceIpfsHash: hash, state: "Active" },
    });
    expect(e.data.addresses).toEqual(expect.arrayContaining([c.plaintiff, c.defendant]));
    // The factory's CaseChanged only moves the cache; it is folded into `state`, not pushed.
    expect(l.types()).toEqual(["evidence.submitted"]);
  });

  it("a respond then a draw: the defendant's stake and the judges drawn reach the parties and the judges", async () => {
    const summoned = seeded("summoned");
    const c = await caseOf(summoned);
    const plaintiffStream = await listen(`address=${c.plaintiff.toLowerCase()}`);
    await t.write(`/cases/${summoned}/respond`, { from: c.defendant }, t.indexOf(c.defendant));
    await poll();
    const responded = await plaintiffStream.next((x) => x.type === "case.responded");
    expect(responded.data.data).toMatchObject({ defendant: c.defendant, state: "Active" });
    expect(typeof responded.data.data.stake).toBe("string");
    expect(BigInt(responded.data.data.stake)).toBeGreaterThan(0n);
    await plaintiffStream.next((x) => x.type === "draw.armed");

    await t.write(`/cases/${summoned}/assign-judges-random`, { from: t.address(0) }, 0);
    await poll();
    const drawn = await plaintiffStream.next((x) => x.type === "judges.assigned");
    const judges = (await caseOf(summoned)).judges as string[];
    expect(judges).toHaveLength(3);
    expect(drawn.data.data).toMatchObject({ round: 1, judges, state: "Deliberating" });
    // A judge that filters by its own address learns it was drawn.
    const judge = judges[0] as string;
    expect(drawn.data.addresses).toEqual(expect.arrayContaining([c.plaintiff, c.defendant, ...judges]));
    const judgeStream = await listen(`address=${judge}`, responded.id);
    await judgeStream.next((x) => x.type === "judges.assigned");
  });

  it("filters by case, address and types; a party sees the verdict on its case", async () => {
    const active = seeded("active");
    const deliberating = seeded("deliberating");
    const d = await caseOf(deliberating);
    const byCase = await listen(`case=${deliberating}`);
    const byParty = await listen(`address=${d.plaintiff}`);
    const byType = await listen("types=vote.cast,case.verdict");
    const all = await listen();
    // First an event of another case, then votes on the deliberating one until its verdict.
    await addEvidence(active, (await caseOf(active)).defendant);
    for (const judge of d.judges as string[]) {
      const now = await caseOf(deliberating);
      if (now.state !== "Deliberating") break;
      const cast = await t.post(`/cases/${deliberating}/vote`, { plaintiff_wins: true, from: judge });
      if (cast.status !== 200) continue;
      await t.write(`/cases/${deliberating}/vote`, { plaintiff_wins: true, from: judge }, t.indexOf(judge));
    }
    await poll();
    const verdict = await byParty.next((x) => x.type === "case.verdict");
    expect(verdict.data.data.outcome).toBe((await caseOf(deliberating)).outcome);
    expect(verdict.data.case).toBe(deliberating);
    await all.next((x) => x.type === "case.verdict");
    await byCase.next((x) => x.type === "case.verdict");
    await byType.next((x) => x.type === "case.verdict");
    // Everything reached `all` in chain order, the evidence first: had it passed a filter, it would be there.
    expect(all.types()[0]).toBe("evidence.submitted");
    expect(byCase.received.every((x) => x.data.case === deliberating)).toBe(true);
    expect(byParty.received.every((x) => x.data.addresses.includes(d.plaintiff))).toBe(true);
    expect(byType.types().every((x) => x === "vote.cast" || x === "case.verdict")).toBe(true);
    expect(byType.types()).toContain("vote.cast");
    // The verdict also paid or slashed judges: those are addressed to the judge, about the case.
    const judged = all.received.filter((x) => x.type.startsWith("judge."));
    for (const j of judged) expect(j.data.case).toBe(deliberating);
  });

  it("refuses a malformed address and an unknown type with 400 in the envelope", async () => {
    const bad = await refusal(t.url, "address=0x1234");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_ADDRESS");
    const badCase = await refusal(t.url, "case=0x70997970c51812dc3a010c7d01b50e0d17dc79C8");
    expect(badCase.status).toBe(400);
    expect(badCase.body.error.code).toBe("INVALID_ADDRESS");
    const unknown = await refusal(t.url, "types=vote.cast,vote.stolen");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "INVALID_INPUT" });
    expect(unknown.body.error.message).toContain("vote.stolen");
    const post = await fetch(`${t.url}/events`, { method: "POST" });
    expect(post.status).toBe(405);
  });

  it("Last-Event-ID resumes with nothing lost within the buffer, and from the index beyond it", async () => {
    const active = seeded("active");
    const c = await caseOf(active);
    const continuous = await listen();
    const reader = await listen();
    await addEvidence(active, c.plaintiff);
    await poll();
    const last = await reader.next((x) => x.type === "evidence.submitted");
    reader.close();
    // Missed while away: three more events (the buffer holds 8).
    for (let i = 0; i < 3; i++) await addEvidence(active, i % 2 ? c.plaintiff : c.defendant);
    await poll();
    await until("three more events", () => continuous.received.length >= 4);
    const resumed = await listen("", last.id);
    await until("the missed events", () => resumed.received.length >= 3);
    expect(resumed.received.map((e) => e.id)).toEqual(continuous.received.slice(1).map((e) => e.id));
    // The same through the query, for clients that cannot set headers.
    const byQuery = await listen(`lastEventId=${encodeURIComponent(last.id)}`);
    await until("the missed events", () => byQuery.received.length >= 3);
    expect(byQuery.received.map((e) => e.id)).toEqual(resumed.received.map((e) => e.id));

    // Nine more: `last` has left the buffer of 8, not the index: the twelve since it come from there, as
    // they came live (same ids, data, case and addresses), in pages of the index's, then the live ones.
    for (let i = 0; i < 9; i++) await addEvidence(active, i % 2 ? c.plaintiff : c.defendant);
    await poll();
    const late = await listen("", last.id);
    await until("the twelve missed events", () => late.received.length >= 12);
    expect(late.received.map((e) => e.type)).not.toContain("events.gap");
    expect(late.received.map((e) => e.data)).toEqual(continuous.received.slice(1).map((e) => e.data));
    await addEvidence(active, c.plaintiff);
    await poll();
    await until("the next live event", () => late.received.length >= 13);
    expect(late.received.map((e) => e.id)).toEqual(continuous.received.slice(1).map((e) => e.id));
    const stranger = await listen("", "not-an-id");
    await stranger.next((x) => x.type === "events.gap");
  });

  it("a forged court event from a foreign contract is not streamed", async () => {
    const forger = await deployForger(t);
    const l = await listen();
    const judge = t.address(7);
    const forged = await t.actor(15).write({ address: forger, abi: forgerAbi, functionName: "forge", args: [judge] });
    // The node does return the forged logs to the follower's one getLogs: same signatures, no address.
    expect(forged.logs.map((x) => getAddress(x.address))).toEqual([forger, forger]);
    const active = seeded("active");
    await addEvidence(active, (await caseOf(active)).plaintiff);
    await poll();
    await l.next((x) => x.type === "evidence.submitted");
    expect(l.received.filter((x) => x.data.txHash === forged.transactionHash)).toEqual([]);
    expect(l.types()).not.toContain("vote.cast");
  });

  it("a reader that stops reading is cut off; another keeps receiving", async () => {
    const normal = await listen();
    const stalled = connect(Number(new URL(t.url).port), "127.0.0.1");
    await new Promise<void>((r) => stalled.once("connect", () => r()));
    stalled.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    stalled.pause();
    await until("both streams open", () => t.docket.eventStreams === 2);
    // Volume the chain would take long to make: large events handed to the hub as the Redis bridge
    // hands other replicas' (a kernel on loopback buffers megabytes before docket's queue grows).
    const big = "x".repeat(64 * 1024);
    for (let i = 0; i < 400 && t.docket.eventStreams === 2; i++) {
      t.docket.events.accept([bulk(`bulk-${i}`, big)]);
      await new Promise((r) => setImmediate(r));
    }
    await until("the stalled stream closed", () => t.docket.eventStreams === 1);
    stalled.destroy();
    const active = seeded("active");
    const { hash } = await addEvidence(active, (await caseOf(active)).plaintiff);
    await poll();
    await normal.next((x) => x.type === "evidence.submitted" && x.data.data.evidenceIpfsHash === hash, 30_000);
    expect(normal.received.filter((x) => x.id.startsWith("bulk-")).length).toBeGreaterThan(0);
  });

  it("EVENTS_MAX_STREAMS: one stream more is 503 in the envelope", async () => {
    for (let i = 0; i < 6; i++) await listen();
    expect(t.docket.eventStreams).toBe(6);
    const full = await refusal(t.url, "");
    expect(full.status).toBe(503);
    expect(full.body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(full.headers.get("retry-after")).toBe("5");
    open.pop()?.close();
    await until("a stream freed", () => t.docket.eventStreams === 5);
    await listen();
  });

  it("a stream says it is alive with pings, and docket's close ends every stream without hanging", async () => {
    const res = await fetch(`${t.url}/events`);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes(": ping")) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/^retry: \d+\n\n/);
    const head = await fetch(`${t.url}/events`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(t.docket.eventStreams).toBe(1);
    closed = true;
    const closing = t.close();
    let done = false;
    while (!done) done = (await reader.read()).done;
    await closing;
    expect(t.docket.eventStreams).toBe(0);
  });
});

/** A synthetic event of the catalogue's shape, carrying `payload` as a vote's justification. */
function bulk(id: string, payload: string): DocketEvent {
  return { id, type: "vote.revealed", block: 0, txHash: null, addresses: [], data: { justification: payload } };
}

const FORGER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
/// Emits logs with the court's event signatures from an address the court never created.
contract Forger {
    event CaseChanged(address indexed caseAddr, uint8 state);
    event VoteCast(address indexed judge, bool plaintiffWins, uint8 round);
    function forge(address judge) external {
        emit CaseChanged(address(this), 3);
        emit VoteCast(judge, true, 1);
    }
}`;

const forgerAbi = [
  {
    type: "function",
    name: "forge",
    stateMutability: "nonpayable",
    inputs: [{ name: "judge", type: "address" }],
    outputs: [],
  },
] as const satisfies Abi;

async function deployForger(t: TestDocket): Promise<Address> {
  const input = {
    language: "Solidity",
    sources: { "Forger.sol": { content: FORGER } },
    settings: { evmVersion: "cancun", outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const bytecode = `0x${out.contracts["Forger.sol"].Forger.evm.bytecode.object}` as Hex;
  const receipt = await t.actor(15).send({ data: bytecode } as { to: Address; data: Hex });
  if (!receipt.contractAddress) throw new Error("Forger not deployed");
  return getAddress(receipt.contractAddress);
}
