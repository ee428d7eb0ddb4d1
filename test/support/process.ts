import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (test/support/../..). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Children still running: killed (by pid) if the bench exits without stopping them. */
const live = new Set<ChildProcess>();
process.on("exit", () => {
  for (const c of live) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

export interface Child {
  readonly proc: ChildProcess;
  readonly pid: number;
  /** What the child printed so far (stdout and stderr, last 20 kB). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
  stop(graceMs?: number): Promise<void>;
}

export type DocketProcess = Started & { url: string };

export interface Started extends Child {
  /** The first match of `ready` in the child's stdout. */
  match: RegExpMatchArray;
  /** From spawn to that line. */
  readyMs: number;
}

/**
 * Spawns `node <args>` (this Node, or `opts.command`: another Node, or `npx`) in `opts.cwd` (the
 * repository root unless given) and resolves when its stdout matches `ready`. The child is stopped (by its own pid) if it exits
 * first or does not get there within `timeoutMs`.
 */
export async function spawnNode(
  args: string[],
  opts: { env?: Record<string, string>; ready: RegExp; timeoutMs?: number; command?: string; cwd?: string },
): Promise<Started> {
  const t0 = performance.now();
  const proc = spawn(opts.command ?? process.execPath, args, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (proc.pid === undefined) throw new Error(`could not spawn ${opts.command ?? "node"} ${args.join(" ")}`);
  const pid = proc.pid;
  live.add(proc);
  proc.once("exit", () => live.delete(proc));
  let out = "";
  let stdout = "";
  const exited = new Promise<void>((r) => proc.once("exit", () => r()));
  const child: Child = {
    proc,
    pid,
    output: () => out,
    stop: async (graceMs = 10_000) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  proc.stderr?.on("data", keep);
  return new Promise<Started>((resolve, reject) => {
    let ready = false;
    const onExit = (code: number | null, signal: string | null) =>
      fail(`exited (${signal ?? code}) before it was ready`);
    const fail = (why: string) => {
      clearTimeout(timer);
      proc.off("exit", onExit);
      void child
        .stop(1_000)
        .then(() => reject(new Error(`${opts.command ?? "node"} ${args.join(" ")}: ${why}\n${out.slice(-2_000)}`)));
    };
    const timer = setTimeout(() => fail(`not ready within ${opts.timeoutMs ?? 30_000} ms`), opts.timeoutMs ?? 30_000);
    proc.once("exit", onExit);
    proc.stdout?.on("data", (d: Buffer) => {
      keep(d);
      if (ready) return;
      stdout += d.toString();
      const m = stdout.match(opts.ready);
      if (m) {
        ready = true;
        clearTimeout(timer);
        proc.off("exit", onExit);
        resolve({ ...child, match: m, readyMs: performance.now() - t0 });
      }
    });
  });
}

/**
 * `node bin/docket.js start` as its own process (so its memory can be read alone), on a free port,
 * logging warnings only, with no rate limit unless `env` says otherwise; resolves with its URL once
 * it says it is up. `how` starts it another way: on another Node, or as another command line in
 * another directory (`npx docket start` where the packed package is installed).
 */
export async function spawnDocket(
  env: Record<string, string> = {},
  timeoutMs = 60_000,
  how: { command?: string; args?: string[]; cwd?: string } = {},
): Promise<DocketProcess> {
  // The index as users get it (PGlite in a directory), in a directory of its own (not the repo's data/).
  const index: Record<string, string> =
    env.DATABASE_URL || env.INDEX_DIR ? {} : { INDEX_DIR: mkdtempSync(join(tmpdir(), "docket-index-")) };
  const s = await spawnNode(how.args ?? ["bin/docket.js", "start"], {
    env: { PORT: "0", LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "0", ...index, ...env },
    ready: /docket is up on (http:\/\/\S+)/,
    timeoutMs,
    command: how.command,
    cwd: how.cwd,
  });
  return { ...s, url: s.match[1] as string };
}

/** A child started by `watch`: its exit and what it printed so far, and a wait for a line. */
export interface Watched {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly exited: Promise<number | null>;
  output(): string;
  errors(): string;
  /** Waits until stdout matches `re` (failing if the child exits first or `ms` pass); resolves to stdout so far. */
  waitFor(re: RegExp, ms?: number): Promise<string>;
}

/**
 * Starts `cmd args` with `env` over this process's environment, collecting its output (and, with
 * `detached`, in a process group of its own). `into` collects children a suite kills at the end.
 */
export function watch(
  cmd: string,
  args: string[],
  opts: { env?: Record<string, string>; detached?: boolean; into?: ChildProcess[] } = {},
): Watched {
  const child = spawn(cmd, args, {
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: opts.detached ?? false,
  });
  opts.into?.push(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const waitFor = async (re: RegExp, ms = 30_000) => {
    const end = Date.now() + ms;
    while (!re.test(out)) {
      if (child.exitCode !== null) throw new Error(`${cmd} exited ${child.exitCode}: ${out} ${err}`);
      if (Date.now() > end) throw new Error(`timed out waiting for ${re}: ${out} ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return out;
  };
  return { child, pid: child.pid as number, exited, waitFor, output: () => out, errors: () => err };
}
