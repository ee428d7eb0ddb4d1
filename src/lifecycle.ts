import type { Logger } from "./log.js";

/** A part the lifecycle started, and how it closes. */
interface Started {
  name: string;
  close: () => Promise<void> | void;
}

/**
 * The parts of a running docket, started in order and closed in reverse, by one teardown. Each
 * command (`start`, `mcp`, `devnet`) starts the parts it needs on one lifecycle (src/server.ts's
 * `startParts` and `startServer`); a part that fails to start closes every part started before it,
 * then the error goes on; `close()` closes them all, latest first, once however often it is
 * called, and a part that fails to close is logged while the others still close.
 *
 * @example
 * const life = new Lifecycle(log);
 * const devnet = await life.start("dev chain", () => startDevnet(), (d) => d.stop());
 * const cache = await life.start("cache", () => new Cache(store), (c) => c.close());
 * await life.close(); // the cache, then the dev chain
 */
export class Lifecycle {
  private readonly started: Started[] = [];
  private closing?: Promise<void>;

  constructor(private readonly log?: Logger) {}

  /**
   * Starts the part `name`: `start` makes it, `close` (if it has anything to close) is kept to
   * close it. A failure to start closes what was started before it and is thrown on; so is a start
   * asked for once the lifecycle is closing.
   */
  async start<T>(name: string, start: () => Promise<T> | T, close?: (part: T) => Promise<void> | void): Promise<T> {
    if (this.closing) throw new Error(`cannot start ${name}: docket is stopping`);
    let part: T;
    try {
      part = await start();
    } catch (err) {
      await this.close();
      throw err;
    }
    if (this.closing) {
      // Closed while this part was starting: it closes too, last of all.
      await close?.(part);
      throw new Error(`cannot start ${name}: docket is stopping`);
    }
    this.started.push({ name, close: close ? () => close(part) : () => {} });
    return part;
  }

  /** The parts started so far, in the order they started. */
  get parts(): readonly string[] {
    return this.started.map((p) => p.name);
  }

  /** Closes every part started, latest first; the same promise however often it is called. */
  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  private async closeAll(): Promise<void> {
    for (let p = this.started.pop(); p; p = this.started.pop()) {
      try {
        await p.close();
      } catch (err) {
        this.log?.error({ err: (err as Error).message, part: p.name }, "a part failed to close");
      }
    }
  }
}

/**
 * The one way a command ends: on SIGINT or SIGTERM (and any `also` trigger, such as npm going away)
 * it logs `message` with why (given a logger: `devnet`'s stdout and stderr are its own), closes its lifecycle and exits 0. Returns the stop function, for
 * triggers of the command's own (stdin closing). A second signal while stopping changes nothing.
 */
export function stopOnSignals(
  close: () => Promise<void>,
  log: Logger | undefined,
  opts: { message: string; also?: ((stop: (why: string) => void) => void)[] },
): (why: string) => Promise<void> {
  let stopping: Promise<void> | undefined;
  const stop = (why: string): Promise<void> => {
    stopping ??= (async () => {
      log?.info({ why }, opts.message);
      try {
        await close();
      } finally {
        process.exit(0);
      }
    })();
    return stopping;
  };
  // A bug in one request must not take docket down, nor pass unseen: it is logged and the request fails alone.
  if (log) process.on("unhandledRejection", (err) => log.error({ err }, "unhandled rejection"));
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
  for (const trigger of opts.also ?? []) trigger((why) => void stop(why));
  return stop;
}
