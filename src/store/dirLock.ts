import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/**
 * The embedded database's directory belongs to one process: PGlite takes no lock of its own, and a
 * second process opening the same directory would write over the first one's files unseen. The
 * owner writes `<pid>@<host>` to `owner.lock` in it; a later open refuses while that process lives,
 * and takes the file over from one that died (a `kill -9` leaves it behind).
 */
const FILE = "owner.lock";

/**
 * The lock files this process holds: one naming this pid but not listed here was left by an earlier
 * process that had the same pid (a container's pid 1 after a restart).
 */
const held = new Set<string>();

/** Whether a process of this host with this id is running. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The index directory is held by another live process. */
export class DirInUse extends Error {
  override name = "DirInUse";
}

/** Takes the directory, or throws (DirInUse) saying which process holds it. Gives the release. */
export function lockDir(dir: string): () => void {
  const path = join(dir, FILE);
  const me = `${process.pid}@${hostname()}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, me);
      closeSync(fd);
      held.add(path);
      return () => {
        held.delete(path);
        rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw err;
    }
    const owner = readFileSync(path, "utf8").trim();
    const [pid, host] = owner.split("@");
    const ours = Number(pid) === process.pid;
    const dead = host === hostname() && Number(pid) > 0 && (ours ? !held.has(path) : !running(Number(pid)));
    if (!dead) {
      throw new DirInUse(
        `the index directory ${dir} is in use by process ${owner} (one process at a time: give this one another INDEX_DIR, or a DATABASE_URL)`,
      );
    }
    rmSync(path, { force: true });
  }
}
