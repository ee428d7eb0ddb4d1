import type { Logger } from "../log.js";

/** How often a backfill says how far it is, in the log (a terminal redraws its bar at most this often too). */
const EVERY_MS = 2_000;

/**
 * The backfill's progress: from the block the index starts at to the head it saw then. On a
 * terminal (stderr a TTY) a bar redrawn in place; otherwise a log line every two seconds; and one
 * line when it is done, with the rate. `/health` reads `state()`.
 */
export class Backfill {
  private from = 0n;
  private to = 0n;
  private at = 0n;
  private events = 0;
  private started = 0;
  private said = 0;
  private running = false;

  constructor(
    private readonly log: Logger,
    private readonly tty: NodeJS.WriteStream | undefined = process.stderr.isTTY ? process.stderr : undefined,
  ) {}

  /** A backfill from `from` (exclusive) to `to`; nothing to do when `from` is there already. */
  begin(from: bigint, to: bigint): void {
    this.from = from;
    this.at = from;
    this.to = to;
    this.events = 0;
    this.started = performance.now();
    this.said = 0;
    this.running = to > from;
    if (this.running) {
      this.log.info({ from: Number(from) + 1, to: Number(to) }, "index: backfilling the court's events");
    }
  }

  /** A step written: `toBlock` reached with `events` more stored. */
  step(meta: { toBlock: bigint; catchingUp?: boolean }, events: number): void {
    if (!this.running) return;
    this.at = meta.toBlock;
    this.events += events;
    const now = performance.now();
    const done = this.at >= this.to || meta.catchingUp === false;
    if (!done && now - this.said < EVERY_MS) return;
    this.said = now;
    const s = this.state();
    if (this.tty && !done) {
      const width = 30;
      const filled = Math.round((s.percent / 100) * width);
      this.tty.write(
        `\rindex backfill [${"#".repeat(filled)}${".".repeat(width - filled)}] ${s.percent}% block ${s.block}/${s.target} ${s.events} events`,
      );
    } else if (!done) {
      this.log.info(s, "index: backfilling");
    }
    if (done) {
      if (this.tty) this.tty.write("\n");
      this.running = false;
      this.log.info(s, "index: backfill done");
    }
  }

  /** Where it is: blocks, events, percent, events per second. */
  state() {
    const span = Number(this.to - this.from) || 1;
    const seconds = (performance.now() - this.started) / 1000;
    return {
      running: this.running,
      block: Number(this.at),
      target: Number(this.to),
      percent: Math.min(100, Math.floor((Number(this.at - this.from) / span) * 100)),
      events: this.events,
      eventsPerSecond: seconds > 0 ? Math.round(this.events / seconds) : 0,
    };
  }
}
