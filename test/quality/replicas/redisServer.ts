import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A real `redis-server` for tests: its own process on a free loopback port, no persistence
 * configured (`--save "" --appendonly no`), in the foreground so it dies with its handle.
 *
 *   const redis = await startRedis();      // redis.url = redis://127.0.0.1:<port>
 *   await redis.kill();                    // SIGKILL: an outage, as a crash or a lost host
 *   await redis.start();                   // the same port again (and the same --dir)
 *   redis.pause(); redis.resume();         // SIGSTOP / SIGCONT: a server that hangs
 *   await redis.stop();                    // for good; removes its directory
 *
 * Its working directory is private: nothing is written there unless a test asks Redis to `SAVE`,
 * in which case the next start loads that snapshot (a Redis that comes back with its data).
 *
 * REDIS_SERVER names another binary; without one on the PATH this fails with one clear line.
 */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly running: boolean;
  /** Starts it again on the same port after kill(). */
  start(): Promise<void>;
  /** SIGKILL, and waits until the port is free. */
  kill(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers (a hung or swapped-out server). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  stop(): Promise<void>;
}

const BINARY = process.env.REDIS_SERVER || "redis-server";

function requireBinary(): void {
  const probe = spawnSync(BINARY, ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `${BINARY} is not installed (${probe.error?.message ?? probe.stderr.trim()}): these tests need a real Redis. ` +
        "Install it with `apt-get install redis-server` (.ci/run does), or set REDIS_SERVER to the binary.",
    );
  }
}

const alive = new Set<ChildProcess>();
// A crashed test must not leave servers behind.
process.once("exit", () => {
  for (const c of alive) c.kill("SIGKILL");
});

function launch(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    BINARY,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "no",
      "--dir",
      dir,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  alive.add(child);
  child.once("exit", () => alive.delete(child));
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`redis-server on port ${port} not ready after 10 s:\n${output}`));
    }, 10_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        // Keep draining, or a chatty server would block on a full pipe.
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${BINARY}: ${err.message}`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server on port ${port} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once("exit", () => r()));
}

/** A loopback port nothing listens on (at the time of asking). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Starts a private redis-server on a free loopback port (or on `port`). */
export async function startRedis(opts: { port?: number } = {}): Promise<RedisServer> {
  requireBinary();
  const dir = mkdtempSync(join(tmpdir(), "docket-redis-"));
  let child: ChildProcess | undefined;
  let port = 0;
  // The free port may be taken between the probe and the bind: try a few.
  for (let attempt = 0; !child; attempt++) {
    port = opts.port ?? (await freePort());
    try {
      child = await launch(port, dir);
    } catch (err) {
      if (opts.port || attempt >= 3 || !/Address already in use/i.test((err as Error).message)) {
        rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  const kill = async () => {
    const c = child;
    child = undefined;
    if (!c) return;
    c.kill("SIGCONT");
    c.kill("SIGKILL");
    await exited(c);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return child !== undefined;
    },
    async start() {
      if (child) return;
      child = await launch(port, dir);
    },
    kill,
    pause() {
      child?.kill("SIGSTOP");
    },
    resume() {
      child?.kill("SIGCONT");
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
