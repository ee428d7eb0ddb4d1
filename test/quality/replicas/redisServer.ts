import { type ChildProcess, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../../src/devnet/anvil.js";
import { exited, launchServer } from "../../support/server.js";

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

function launch(port: number, dir: string): Promise<ChildProcess> {
  return launchServer(
    `redis-server on port ${port}`,
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
    /Ready to accept connections/,
  );
}

/** A loopback port nothing listens on (at the time of asking). */
export { freePort };

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
