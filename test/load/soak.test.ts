import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DocketProcess, soak, spawnDocket } from "../support/soak.js";

/**
 * A short soak in the suite (the bench runs the 60 s one and records its figures): mixed reads and
 * writes at 200 connections must produce no error and no non-2xx answer, and memory must not grow.
 * Only counts are asserted, never speed.
 */
describe("soak: mixed reads and writes at 200 connections", () => {
  let d: DocketProcess;
  beforeAll(async () => {
    // The follower polls often enough to see every reorg the run makes.
    d = await spawnDocket({ EVENT_POLL_MS: "250" });
  });
  afterAll(async () => {
    await d?.stop();
  });

  it("answers every request with a 2xx, and its memory stays flat, while the chain reorgs under it", async () => {
    const { rpcUrl } = (await (await fetch(`${d.url}/health`)).json()) as { rpcUrl: string };
    const r = await soak({
      url: d.url,
      pid: d.pid,
      durationSeconds: 12,
      connections: 200,
      reorgRpcUrl: rpcUrl,
      reorgEveryMs: 2_000,
    });
    expect(r.reorgs).toBeGreaterThan(0);
    expect(r.requests).toBeGreaterThan(1000);
    expect(r.errorKinds, JSON.stringify({ ...r, rssMb: undefined })).toEqual({});
    expect(r.errors).toBe(0);
    expect(r.timeouts).toBe(0);
    expect(r.non2xx).toBe(0);
    expect(r.rssGrowth, `RSS samples ${r.rssMb.join(" ")}`).toBeLessThan(1.5);
    const health = await fetch(`${d.url}/health`);
    expect(health.status).toBe(200);
    // The follower saw them (each rolls back the two blocks it had acted on, unless load delayed a poll).
    const seen = ((await health.json()) as { lastChainEvent?: { kind: string; depth: number } }).lastChainEvent;
    expect(seen?.kind).toBe("reorg");
    expect(seen?.depth).toBeGreaterThan(0);
  }, 120_000);
});
