import { type ChildProcess, spawn } from "node:child_process";

/**
 * A server binary the tests run in the foreground (Redis, Postgres): started, watched until it
 * prints that it is ready, drained after, and killed if the test process exits first.
 */
const alive = new Set<ChildProcess>();
// A crashed test must not leave servers behind.
process.once("exit", () => {
  for (const c of alive) c.kill("SIGKILL");
});

/**
 * Spawns `command args` and resolves once its output (stdout or stderr) matches `ready`; rejects,
 * with what it printed, if it exits first, cannot be run, or is not ready within `timeoutMs`.
 */
export function launchServer(
  name: string,
  command: string,
  args: string[],
  ready: RegExp,
  timeoutMs = 10_000,
): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  alive.add(child);
  child.once("exit", () => alive.delete(child));
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${name} not ready after ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        // Keep draining, or a chatty server would block on a full pipe.
        child.stdout?.off("data", onData).resume();
        child.stderr?.off("data", onData).resume();
        resolve(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${command}: ${err.message}`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
}

/** Resolves once `child` has exited (at once if it has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once("exit", () => r()));
}
