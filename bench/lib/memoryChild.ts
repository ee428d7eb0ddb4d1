/**
 * Item 5's subject, in a process of its own so that its RSS is docket's alone:
 * `node --expose-gc --import tsx bench/lib/memoryChild.ts`. Starts docket in-process against
 * RPC_URL (default cache bound unless CACHE_MAX_ENTRIES is set), reads CASE_ADDRESS over HTTP for
 * a real body, then caches KEYS distinct case keys through `ctx.cache.wrap`, each a fresh copy of
 * that body with its own address (what KEYS distinct cold reads would store), and prints one line
 * `RESULT <json>` with RSS, heap and the store's size at checkpoints.
 */
import { getAddress, keccak256, toHex } from "viem";
import { loadConfig } from "../../src/config.js";
import { startServer } from "../../src/server.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const keys = Number(process.env.KEYS ?? 100_000);
const caseAddress = process.env.CASE_ADDRESS;
if (!caseAddress) throw new Error("CASE_ADDRESS is required");

const docket = await startServer(
  loadConfig({
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "0",
    EVENT_POLL_MS: "0",
  }),
);
const store = docket.ctx.cache.store as { size?: number };

function snapshot(label: string, filled: number) {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return {
    label,
    keysWritten: filled,
    rssBytes: m.rss,
    heapUsedBytes: m.heapUsed,
    storeEntries: typeof store.size === "number" ? store.size : null,
  };
}

try {
  // Warm the whole request path first, so the baseline includes what any running docket holds.
  let template: unknown;
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${docket.url}/cases/${caseAddress}`);
    if (res.status !== 200) throw new Error(`GET /cases/${caseAddress} answered ${res.status}`);
    template = await res.json();
  }
  const body = template as { case: { address: string } };
  const bodyBytes = Buffer.byteLength(JSON.stringify(body));
  const before = snapshot("before", 0);
  const checkpoints = [];
  const marks = new Set([10_000, 25_000, 50_000, keys]);
  for (let i = 1; i <= keys; i++) {
    const address = getAddress(`0x${keccak256(toHex(`docket-bench-key-${i}`)).slice(-40)}`);
    await docket.ctx.cache.wrap(
      `case:${address}`,
      () => 60,
      async () => ({ case: { ...structuredClone(body.case), address } }),
    );
    if (marks.has(i)) checkpoints.push(snapshot(`after ${i}`, i));
  }
  const after = checkpoints[checkpoints.length - 1] ?? snapshot("after", keys);
  process.stdout.write(
    `RESULT ${JSON.stringify({
      keys,
      bodyBytes,
      cacheMaxEntries: loadConfig(process.env).CACHE_MAX_ENTRIES,
      before,
      after,
      checkpoints,
    })}\n`,
  );
} finally {
  await docket.close();
}
process.exit(0);
