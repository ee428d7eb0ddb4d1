import { type ChildProcess, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "../../src/devnet/anvil.js";
import { exited, launchServer } from "./server.js";

/**
 * A real PostgreSQL server for tests: Debian's `postgresql` package (or any install), a fresh
 * cluster in a temp directory, on a free loopback port, in the foreground so it dies with its handle.
 *
 *   const pg = await startPostgres();            // pg.url = postgres://postgres@127.0.0.1:<port>/postgres
 *   const url = await pg.createDatabase("a");     // a database of its own for one suite or test
 *   await pg.stop();                              // fast shutdown; removes the cluster's directory
 *
 * Postgres refuses to run as root, and CI runs as root: then initdb and the server run as the
 * `postgres` user the package creates (setpriv), owning the cluster's directory. POSTGRES_BIN names
 * the directory of the binaries; else they are looked for on the PATH and in
 * /usr/lib/postgresql/<version>/bin (the newest). Without them this fails with one clear line,
 * never a skip: `.ci/run` installs the package.
 */
export interface PostgresServer {
  readonly port: number;
  /** The cluster's `postgres` database, as the superuser `postgres` (trust authentication, loopback only). */
  readonly url: string;
  /** Creates a database and gives its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const RUN_AS = "postgres";

/** The directory holding initdb and postgres, or a clear error. */
function binDir(): string {
  const named = process.env.POSTGRES_BIN;
  if (named) {
    if (existsSync(join(named, "postgres"))) return named;
    throw new Error(`POSTGRES_BIN=${named} holds no postgres binary`);
  }
  const which = spawnSync("sh", ["-c", "command -v postgres"], { encoding: "utf8" });
  const onPath = which.status === 0 ? which.stdout.trim() : "";
  // Debian puts the server's binaries off the PATH, one directory per major version.
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => existsSync(join(debian, v, "bin", "postgres")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return join(debian, versions[0], "bin");
  if (onPath) return join(onPath, "..");
  throw new Error(
    "PostgreSQL is not installed (no postgres on the PATH nor in /usr/lib/postgresql/<version>/bin): these tests need a " +
      "real Postgres. Install it with `apt-get install postgresql` (.ci/run does), or set POSTGRES_BIN to its bin directory.",
  );
}

const asRoot = process.getuid?.() === 0;

/** The command line, run as the `postgres` user when we are root. */
function command(bin: string, args: string[]): [string, string[]] {
  if (!asRoot) return [bin, args];
  return ["setpriv", ["--reuid", RUN_AS, "--regid", RUN_AS, "--init-groups", "--", bin, ...args]];
}

function ownerIds(): { uid: number; gid: number } {
  const probe = spawnSync("id", ["-u", RUN_AS], { encoding: "utf8" });
  const gprobe = spawnSync("id", ["-g", RUN_AS], { encoding: "utf8" });
  if (probe.status !== 0 || gprobe.status !== 0) {
    throw new Error(
      `running as root, and there is no "${RUN_AS}" user to run Postgres as (Postgres refuses root): ` +
        "install Debian's postgresql package, which creates it",
    );
  }
  return { uid: Number(probe.stdout.trim()), gid: Number(gprobe.stdout.trim()) };
}

function launch(bin: string, dir: string, port: number): Promise<ChildProcess> {
  const [cmd, args] = command(join(bin, "postgres"), [
    "-D",
    dir,
    "-p",
    String(port),
    "-c",
    "listen_addresses=127.0.0.1",
    // TCP only: no socket file to place or clean.
    "-c",
    "unix_socket_directories=",
    // A throwaway cluster: durability buys nothing here.
    "-c",
    "fsync=off",
    "-c",
    "synchronous_commit=off",
    "-c",
    "full_page_writes=off",
  ]);
  return launchServer(`postgres on port ${port}`, cmd, args, /ready to accept connections/, 30_000);
}

/** Starts a private Postgres cluster on a free loopback port. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const parent = tmpdir();
  const dir = mkdtempSync(join(parent, "docket-postgres-"));
  try {
    if (asRoot) {
      const { uid, gid } = ownerIds();
      // The postgres user must reach the cluster's directory: the run's temp directory is root's,
      // so it gets the search bit (others may pass through it, not list it).
      chmodSync(parent, statSync(parent).mode | 0o001);
      chownSync(dir, uid, gid);
    }
    const [cmd, args] = command(join(bin, "initdb"), [
      "-D",
      dir,
      "-U",
      "postgres",
      "-A",
      "trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    const init = spawnSync(cmd, args, { encoding: "utf8" });
    if (init.error || init.status !== 0) {
      throw new Error(`initdb failed (${init.error?.message ?? init.status}):\n${init.stdout}${init.stderr}`);
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  let child: ChildProcess | undefined;
  let port = 0;
  // The free port may be taken between the probe and the bind: try a few.
  for (let attempt = 0; !child; attempt++) {
    port = await freePort();
    try {
      child = await launch(bin, dir, port);
    } catch (err) {
      if (attempt >= 3 || !/could not bind|Address already in use/i.test((err as Error).message)) {
        rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    url,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      const c = child;
      child = undefined;
      if (c) {
        // SIGINT: Postgres's fast shutdown (disconnects clients, no waiting for them).
        c.kill("SIGINT");
        const late = setTimeout(() => c.kill("SIGKILL"), 10_000);
        await exited(c);
        clearTimeout(late);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
