import pg from "pg";
import type { Logger } from "../log.js";

/**
 * The advisory lock key of the index's one writer (docs/replicas.md): "docket" in ASCII. One key per
 * database: a writer of another deployment would wipe what this one stored, so there is one at a time.
 */
export const WRITER_LOCK_KEY = 0x646f636b6574n;

/** Whether this replica writes the index, and the way to try to become the writer. */
export interface WriterRole {
  readonly writer: boolean;
  /** Tries to become the writer (nothing when it is): true when it just became it. */
  acquire(): Promise<boolean>;
  /** Gives the role up (the lock with its connection). */
  close(): Promise<void>;
}

/** PGlite: one process per directory (or memory), so always the writer. */
export const soleWriter: WriterRole = {
  writer: true,
  acquire: async () => false,
  close: async () => {},
};

/**
 * One writer among replicas on one Postgres: a session-level advisory lock (`pg_try_advisory_lock`)
 * held on a connection of its own, outside the pool (a pooled connection goes back to the pool and
 * its session with it). The lock lives as long as that connection: a writer killed or cut off loses
 * it at once, and the next replica to try takes it. A failed connection makes this replica a reader
 * until it gets the lock again.
 */
export class AdvisoryWriterLock implements WriterRole {
  private client: pg.Client | undefined;
  private held = false;
  private closed = false;
  private trying: Promise<boolean> | undefined;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
    private readonly key = WRITER_LOCK_KEY,
  ) {}

  get writer(): boolean {
    return this.held;
  }

  acquire(): Promise<boolean> {
    if (this.held || this.closed) return Promise.resolve(false);
    this.trying ??= this.tryOnce().finally(() => {
      this.trying = undefined;
    });
    return this.trying;
  }

  private async tryOnce(): Promise<boolean> {
    try {
      if (!this.client) {
        const client = new pg.Client({ connectionString: this.url, application_name: "docket index writer lock" });
        const lost = (why: string) => {
          if (this.client !== client) return;
          this.client = undefined;
          if (this.held) this.log.warn({ why }, "index: lost the writer lock: reading only until it is back");
          this.held = false;
          client.end().catch(() => {});
        };
        client.on("error", (err) => lost(err.message));
        client.on("end", () => lost("connection closed"));
        await client.connect();
        this.client = client;
      }
      const { rows } = await this.client.query<{ got: boolean }>("select pg_try_advisory_lock($1::bigint) as got", [
        this.key.toString(),
      ]);
      this.held = rows[0]?.got === true && !this.closed;
      if (this.held) this.log.info("index: this replica is the index's writer");
      return this.held;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, "index: could not try the writer lock");
      const c = this.client;
      this.client = undefined;
      await c?.end().catch(() => {});
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.held = false;
    await this.trying?.catch(() => {});
    const c = this.client;
    this.client = undefined;
    // Ending the session releases the lock: the next replica to try takes it.
    await c?.end().catch(() => {});
  }
}
