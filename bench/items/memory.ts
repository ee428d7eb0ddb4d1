import { spawnNode } from "../../test/support/index.js";
import { round } from "../lib/stats.js";

/**
 * Item 5: RSS of a docket process after 100,000 distinct cached keys with the default bound
 * (CACHE_MAX_ENTRIES 10,000). The fill runs in a child process (bench/lib/memoryChild.ts) so the
 * RSS is docket's alone, not the bench's.
 */

interface Snapshot {
  label: string;
  keysWritten: number;
  rssBytes: number;
  heapUsedBytes: number;
  storeEntries: number | null;
}

export interface MemoryResult {
  keys: number;
  bodyBytes: number;
  cacheMaxEntries: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  rssGrowthMiB: number;
  heapUsedBeforeMiB: number;
  heapUsedAfterMiB: number;
  storeEntriesAfter: number | null;
  bounded: boolean;
  checkpoints: { keysWritten: number; rssMiB: number; heapUsedMiB: number; storeEntries: number | null }[];
  pass: boolean;
}

const mib = (b: number) => round(b / 2 ** 20, 1);

export async function benchMemory(
  env: Record<string, string>,
  caseAddress: string,
  keys: number,
  log: (line: string) => void,
): Promise<MemoryResult> {
  const child = await spawnNode(["--expose-gc", "--import", "tsx", "bench/lib/memoryChild.ts"], {
    env: { ...env, CASE_ADDRESS: caseAddress, KEYS: String(keys) },
    ready: /RESULT (\{.*\})\n/,
    timeoutMs: 180_000,
  });
  await child.stop();
  const r = JSON.parse(child.match[1] as string) as {
    keys: number;
    bodyBytes: number;
    cacheMaxEntries: number;
    before: Snapshot;
    after: Snapshot;
    checkpoints: Snapshot[];
  };
  const bounded = r.after.storeEntries !== null && r.after.storeEntries <= r.cacheMaxEntries;
  const checkpoints = r.checkpoints.map((c) => ({
    keysWritten: c.keysWritten,
    rssMiB: mib(c.rssBytes),
    heapUsedMiB: mib(c.heapUsedBytes),
    storeEntries: c.storeEntries,
  }));
  for (const c of checkpoints) {
    log(
      `  ${String(c.keysWritten).padStart(7)} keys: RSS ${c.rssMiB} MiB, heap ${c.heapUsedMiB} MiB, store ${c.storeEntries}`,
    );
  }
  return {
    keys: r.keys,
    bodyBytes: r.bodyBytes,
    cacheMaxEntries: r.cacheMaxEntries,
    rssBeforeMiB: mib(r.before.rssBytes),
    rssAfterMiB: mib(r.after.rssBytes),
    rssGrowthMiB: mib(r.after.rssBytes - r.before.rssBytes),
    heapUsedBeforeMiB: mib(r.before.heapUsedBytes),
    heapUsedAfterMiB: mib(r.after.heapUsedBytes),
    storeEntriesAfter: r.after.storeEntries,
    bounded,
    checkpoints,
    pass: bounded,
  };
}
