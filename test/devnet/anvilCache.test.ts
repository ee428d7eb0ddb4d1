/**
 * anvil keeps older blocks' states on disk and removes them only on a clean shutdown; docket stops
 * it with SIGKILL (and a killed docket takes it down through the watchdog), so each anvil is given
 * a state cache directory of docket's own, which must be gone however the chain stopped.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type AnvilProcess, startAnvil } from "../../src/devnet/anvil.js";
import { spawnNode } from "../support/index.js";

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(5_000),
  });
  return ((await res.json()) as { result?: unknown }).result;
}

/** Files anvil wrote under its cache directory (it makes one `anvil-state-*` directory in it). */
function cachedStates(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).reduce((n, sub) => n + readdirSync(join(dir, sub)).length, 0);
}

/** Mines past anvil's in-memory history, so older states go to disk; waits until some have. */
async function mineToDisk(a: { rpcUrl: string; cachePath: string }): Promise<number> {
  await rpc(a.rpcUrl, "anvil_mine", ["0x300"]);
  for (let i = 0; i < 100 && cachedStates(a.cachePath) === 0; i++) await new Promise((r) => setTimeout(r, 50));
  return cachedStates(a.cachePath);
}

async function gone(dir: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (existsSync(dir)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe("the dev chain's state cache", () => {
  let running: AnvilProcess | undefined;
  afterAll(async () => {
    await running?.stop();
  });

  it("is a directory of docket's own, which anvil fills and stop() removes", async () => {
    running = await startAnvil();
    const a = running;
    expect(await mineToDisk(a)).toBeGreaterThan(0);
    await a.stop();
    expect(existsSync(a.cachePath)).toBe(false);
    expect(await rpc(a.rpcUrl, "eth_chainId").catch(() => "down")).toBe("down");
  });

  it("is removed by the watchdog when the process that started anvil is killed (SIGKILL)", async () => {
    const owner = await spawnNode(
      [
        "--import",
        "tsx",
        "-e",
        `const { startAnvil } = await import("./src/devnet/anvil.ts");
         const a = await startAnvil();
         console.log("ANVIL " + a.rpcUrl + " " + a.cachePath);
         setInterval(() => {}, 1000);`,
      ],
      { ready: /ANVIL (\S+) (\S+)/, timeoutMs: 30_000 },
    );
    const [, rpcUrl, cachePath] = owner.match as unknown as [string, string, string];
    expect(await mineToDisk({ rpcUrl, cachePath })).toBeGreaterThan(0);
    process.kill(owner.pid, "SIGKILL");
    expect(await gone(cachePath, 10_000), `${cachePath} left behind`).toBe(true);
    expect(await rpc(rpcUrl, "eth_chainId").catch(() => "down")).toBe("down");
    await owner.stop();
  });
});
