import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const SHELLS = new Set(["sh", "dash", "bash", "zsh", "ash", "ksh", "busybox"]);

/** The parent pid and command name of `pid` (Linux: /proc; elsewhere: ps), or undefined. */
function processInfo(pid: number): { ppid: number; comm: string } | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const ppid = Number(stat.slice(close + 2).split(" ")[1]);
    return { ppid, comm };
  } catch {
    try {
      const out = execFileSync("ps", ["-o", "ppid=,comm=", "-p", String(pid)], { encoding: "utf8" }).trim();
      const m = /^(\d+)\s+(.*)$/.exec(out);
      return m ? { ppid: Number(m[1]), comm: (m[2] as string).split("/").pop() as string } : undefined;
    } catch {
      return undefined;
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists (another user's process).
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Calls `onGone` once when the npm process that started this one is gone. npm runs a script as
 * `sh -c "node bin/docket.js ..."`; a supervisor that signals npm alone gets npm to signal that
 * shell, which dies without passing the signal on, and docket would be left running (with its
 * anvil) as an orphan. So, when run through npm (npm_lifecycle_event is set), docket watches its
 * parent and, if that is npm's script shell, npm too: a parent that changes (we were re-parented)
 * or an npm pid that no longer exists means stop, as on SIGTERM. Run directly (`node bin/docket.js`,
 * nohup, a process manager), nothing is watched. The check is an unref'd timer: it never keeps the
 * process alive.
 */
export function onNpmGone(onGone: () => void, opts: { intervalMs?: number } = {}): () => void {
  if (!process.env.npm_lifecycle_event || process.platform === "win32") return () => {};
  const parent = process.ppid;
  const info = processInfo(parent);
  const npm = info && SHELLS.has(info.comm) && info.ppid > 1 ? info.ppid : undefined;
  let fired = false;
  const timer = setInterval(() => {
    if (fired) return;
    if (process.ppid !== parent || (npm !== undefined && !alive(npm))) {
      fired = true;
      clearInterval(timer);
      onGone();
    }
  }, opts.intervalMs ?? 500);
  timer.unref();
  return () => clearInterval(timer);
}
