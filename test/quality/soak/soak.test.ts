import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DocketProcess, soak, spawnDocket } from "../../support/index.js";

/**
 * A short soak in the suite (the bench runs the 60 s one and records its figures): mixed reads and
 * writes at 200 connections must produce no error and no non-2xx answer, and memory must not grow
 * once the warm-up has brought it to the load's working size.
 * Then a shorter one while the dev chain reorgs under docket. Only counts are asserted, never speed.
 */
describe("soak: mixed reads and writes at 200 connections", () => {
  let d: DocketProcess;
  beforeAll(async () => {
    // The follower polls often enough to see every reorg the second run makes.
    d = await spawnDocket({ EVENT_POLL_MS: "250" });
  });
  afterAll(async () => {
    await d?.stop();
  });

  it("answers every request with a 2xx, and its memory stays flat", async () => {
    const r = await soak({ url: d.url, pid: d.pid, durationSeconds: 12, connections: 200 });
    expect(r.requests).toBeGreaterThan(1000);
    expect(r.errorKinds, JSON.stringify({ ...r, rssMb: undefined, warmupRssMb: undefined })).toEqual({});
    expect(r.errors).toBe(0);
    expect(r.timeouts).toBe(0);
    expect(r.non2xx, `answers by status ${JSON.stringify(r.statusCodes)}`).toBe(0);
    expect(r.rssGrowth, `RSS samples ${r.rssMb.join(" ")} (warm-up ${r.warmupRssMb.join(" ")})`).toBeLessThan(1.5);
    const health = await fetch(`${d.url}/health`);
    expect(health.status).toBe(200);
  }, 120_000);

  it("keeps answering while the chain reorgs under it every 2 s, and reports the reorgs", async () => {
    const { rpcUrl } = (await (await fetch(`${d.url}/health`)).json()) as { rpcUrl: string };
    const r = await soak({
      url: d.url,
      pid: d.pid,
      durationSeconds: 6,
      connections: 100,
      reorgRpcUrl: rpcUrl,
      reorgEveryMs: 2_000,
    });
    expect(r.reorgs).toBeGreaterThan(0);
    expect(r.errors).toBe(0);
    expect(r.timeouts).toBe(0);
    // A read the node fails while it reverts is a 500 RPC_ERROR, as for any node fault; nothing else.
    const failed = Object.entries(r.statusCodes).filter(([code]) => !code.startsWith("2"));
    expect(
      failed.every(([code]) => code === "500"),
      JSON.stringify(r.statusCodes),
    ).toBe(true);
    expect(r.non2xx, JSON.stringify(r.statusCodes)).toBeLessThan(r.requests / 100);
    const health = await fetch(`${d.url}/health`);
    expect(health.status).toBe(200);
    // The follower saw them (each rolls back the blocks it had acted on).
    const seen = ((await health.json()) as { lastChainEvent?: { kind: string; depth: number } }).lastChainEvent;
    expect(seen?.kind).toBe("reorg");
    expect(seen?.depth).toBeGreaterThan(0);
  }, 120_000);
});
