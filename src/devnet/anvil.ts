import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(import.meta.url);

/** The standard test mnemonic; its keys are public and must never hold real value. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";
export const DEV_CHAIN_ID = 31337;
export const DEV_ACCOUNT_COUNT = 22;

export interface AnvilProcess {
  rpcUrl: string;
  port: number;
  /** The directory anvil keeps older blocks' states in (ours, removed when it stops). */
  cachePath: string;
  stop(): Promise<void>;
}

function anvilBinary(): string {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  const exe = process.platform === "win32" ? "anvil.exe" : "anvil";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    throw new Error(`no anvil binary for ${process.platform}-${process.arch} (${pkg} is not installed)`);
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Each running anvil and the state cache directory it was given. */
const live = new Map<ChildProcess, string>();
let exitHookInstalled = false;

/** Removes an anvil's state cache; best effort (anvil may still be going down). */
function removeCache(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // Nothing to do: the OS's temp dir is cleaned in time.
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' runs on normal exit, process.exit() and after an uncaught exception.
  process.on("exit", () => {
    for (const [child, cache] of live) {
      killGroup(child);
      removeCache(cache);
    }
  });
}

/**
 * Starts anvil on a free loopback port. anvil runs under a tiny shell watchdog that reads our
 * stdin pipe: if docket dies in any way, even SIGKILL, the pipe closes and anvil is killed.
 *
 * anvil keeps the states of older blocks on disk (past its in-memory history, up to 3,600 of
 * them; a seeded chain's are about 0.3 MB each), and removes them only when it shuts down
 * cleanly. By default they go to a directory of its own under ~/.foundry/anvil/tmp, which a
 * killed anvil leaves behind: a test run left about a gigabyte there per chain that mined a few
 * thousand blocks. So each anvil gets its state cache in a temporary directory of ours
 * (`--cache-path`), removed when it is stopped, when this process exits, and by the watchdog when
 * this process is killed.
 */
export async function startAnvil(
  opts: {
    port?: number;
    accounts?: number /** Another chain id than the dev chain's (tests of a wrong chain). */;
    chainId?: number;
    /** The genesis block's timestamp, in seconds (tests of a chain behind the wall clock). */
    timestamp?: number;
  } = {},
): Promise<AnvilProcess> {
  const port = opts.port ?? (await freePort());
  const cache = mkdtempSync(join(tmpdir(), "docket-anvil-"));
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--chain-id",
    String(opts.chainId ?? DEV_CHAIN_ID),
    "--mnemonic",
    DEV_MNEMONIC,
    "--accounts",
    String(opts.accounts ?? DEV_ACCOUNT_COUNT),
    "--balance",
    "10000",
    "--hardfork",
    "cancun",
    "--quiet",
    "--cache-path",
    cache,
    ...(opts.timestamp === undefined ? [] : ["--timestamp", String(opts.timestamp)]),
  ];
  const watchdog =
    '"$0" "$@" & pid=$!; read -r _ || true; kill "$pid" 2>/dev/null; wait "$pid"; rm -rf "$DOCKET_ANVIL_CACHE"';
  const child = spawn("sh", ["-c", watchdog, anvilBinary(), ...args], {
    stdio: ["pipe", "ignore", "pipe"],
    detached: true,
    env: { ...process.env, DOCKET_ANVIL_CACHE: cache },
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  live.set(child, cache);
  installExitHook();
  child.once("exit", () => {
    live.delete(child);
    removeCache(cache);
  });
  // The watchdog must not keep the event loop alive on its own.
  child.unref();
  (child.stdin as unknown as { unref?: () => void })?.unref?.();
  (child.stderr as unknown as { unref?: () => void })?.unref?.();

  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    // Keep the event loop alive until it is gone (the child is unref'd while it runs).
    child.ref();
    killGroup(child);
    await exited;
  };

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited early: ${stderr.trim() || `code ${child.exitCode}`}`);
    try {
      const res = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil did not answer on ${rpcUrl} within 15 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return { rpcUrl, port, cachePath: cache, stop };
}
