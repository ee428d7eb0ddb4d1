import { createServer, type Server } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { Lifecycle } from "../../src/lifecycle.js";
import { startServer } from "../../src/server.js";
import { type ChainLease, externalChainEnv, leaseChain } from "../support/index.js";

/** A lifecycle that writes down each part it closes, in the order it closes them. */
class Recording extends Lifecycle {
  readonly closed: string[] = [];

  override start<T>(name: string, start: () => Promise<T> | T, close?: (part: T) => Promise<void> | void) {
    return super.start(name, start, async (part: T) => {
      this.closed.push(name);
      await close?.(part);
    });
  }
}

/** The parts `docket start` starts on an external chain with a follower, in order (docs/architecture.md). */
const START_PARTS = [
  "evidence store",
  "chain connection",
  "cache",
  "index store",
  "index writer lock",
  "event hub",
  "doors",
  "event follower",
  "webhook deliveries",
  "http server",
];

describe("the lifecycle: parts started in order, closed in reverse", () => {
  it("closes what it started latest first, once, however often it is asked", async () => {
    const life = new Recording();
    await life.start("a", () => 1);
    await life.start("b", async () => 2);
    await life.start("c", () => 3);
    expect(life.parts).toEqual(["a", "b", "c"]);
    await Promise.all([life.close(), life.close()]);
    expect(life.closed).toEqual(["c", "b", "a"]);
    await expect(life.start("d", () => 4)).rejects.toThrow("cannot start d: docket is stopping");
    expect(life.closed).toEqual(["c", "b", "a"]);
  });

  it("a part that fails to start closes every part started before it, and its error goes on", async () => {
    const life = new Recording();
    await life.start("a", () => 1);
    await life.start("b", () => 2);
    await expect(
      life.start("bad", () => {
        throw new Error("the bad part");
      }),
    ).rejects.toThrow("the bad part");
    expect(life.closed).toEqual(["b", "a"]);
  });

  it("a part that fails to close is logged; the parts before it still close", async () => {
    const logs: { msg: string; part?: string }[] = [];
    const log = pino({ level: "info", base: undefined }, { write: (l: string) => void logs.push(JSON.parse(l)) });
    const life = new Lifecycle(log);
    const closed: string[] = [];
    await life.start(
      "a",
      () => 1,
      () => void closed.push("a"),
    );
    await life.start(
      "b",
      () => 2,
      () => Promise.reject(new Error("stuck")),
    );
    await life.start(
      "c",
      () => 3,
      () => void closed.push("c"),
    );
    await life.close();
    expect(closed).toEqual(["c", "a"]);
    expect(logs).toEqual([expect.objectContaining({ msg: "a part failed to close", part: "b" })]);
  });
});

describe("docket's parts, on a real chain", () => {
  /** A server holding a port, for a docket that asks for it. */
  const taken: Server = createServer();
  const takenPort = () => (taken.address() as { port: number }).port;
  let lease: ChainLease;

  beforeAll(async () => {
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
    lease = await leaseChain();
  });
  afterAll(async () => {
    await new Promise((r) => taken.close(r));
    await lease?.release();
  });

  const config = (env: Record<string, string> = {}) =>
    loadConfig(externalChainEnv(lease.devnet, { EVENT_POLL_MS: "60000", HOST: "127.0.0.1", ...env }));

  it("docket start starts its parts in order and closes them in reverse", async () => {
    const life = new Recording();
    const docket = await startServer(config(), { life });
    expect(docket.parts).toEqual(START_PARTS);
    expect((await fetch(`${docket.url}/health`)).status).toBe(200);
    await docket.close();
    expect(life.closed).toEqual([...START_PARTS].reverse());
    await expect(fetch(`${docket.url}/health`)).rejects.toThrow();
  });

  it("a port already taken fails the last part: every part started before it is closed, latest first", async () => {
    const life = new Recording();
    await expect(startServer(config({ PORT: String(takenPort()) }), { life })).rejects.toThrow(/EADDRINUSE/);
    const before = START_PARTS.slice(0, -1);
    expect(life.closed).toEqual([...before].reverse());
    expect(life.parts).toEqual([]);
  });
});
