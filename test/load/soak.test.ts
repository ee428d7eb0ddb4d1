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
    d = await spawnDocket();
  });
  afterAll(async () => {
    await d?.stop();
  });

  it("answers every request with a 2xx, and its memory stays flat", async () => {
    const r = await soak({ url: d.url, pid: d.pid, durationSeconds: 12, connections: 200 });
    expect(r.requests).toBeGreaterThan(1000);
    expect(r.errorKinds, JSON.stringify({ ...r, rssMb: undefined })).toEqual({});
    expect(r.errors).toBe(0);
    expect(r.timeouts).toBe(0);
    expect(r.non2xx).toBe(0);
    expect(r.rssGrowth, `RSS samples ${r.rssMb.join(" ")}`).toBeLessThan(1.5);
    const health = await fetch(`${d.url}/health`);
    expect(health.status).toBe(200);
  }, 120_000);
});
