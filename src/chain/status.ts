import { DocketError } from "../errors/errors.js";

/** A reorg (blocks docket had seen were replaced) or a reset (the node's chain restarted from a new genesis). */
export interface ChainEvent {
  kind: "reorg" | "reset";
  /** Blocks rolled back (a reorg found within the follower's window); null when it cannot be told. */
  depth: number | null;
  /** The fork point (a reorg) or the new head (a reset). */
  block: number;
  /** When the follower noticed it (ISO 8601). */
  at: string;
}

/**
 * What docket knows about the chain the node is serving, beyond its blocks: whether it is the chain
 * docket was configured for, and the last reorg or reset seen. The follower (and a one-off check at
 * start) keeps it; every operation but health refuses while the chain id is wrong, and health reports it.
 */
export class ChainStatus {
  /** The chain id the node answered instead of the configured one; undefined while they agree. */
  private wrongChainId?: number;
  private since?: string;
  private event?: ChainEvent;

  private rechecking?: Promise<void>;
  private lastRecheck = 0;

  /**
   * `probe` reads the node's chain id: given when no follower runs (EVENT_POLL_MS=0), so that a
   * mismatch found at start is asked again (at most once a second, by the requests it refuses) and
   * clears by itself. With a follower, its polls do this and `probe` is not needed.
   */
  constructor(
    readonly expectedChainId: number,
    private readonly probe?: () => Promise<number>,
  ) {}

  /** While mismatched and without a follower: asks the node again (throttled); a failure keeps the mismatch. */
  async recheck(): Promise<void> {
    const probe = this.probe;
    if (this.wrongChainId === undefined || !probe || Date.now() - this.lastRecheck < 1_000) return;
    this.rechecking ??= (async () => {
      this.lastRecheck = Date.now();
      try {
        this.observeChainId(await probe());
      } catch {
        // Unreachable: still not known to be right.
      }
    })().finally(() => {
      this.rechecking = undefined;
    });
    await this.rechecking;
  }

  get mismatched(): boolean {
    return this.wrongChainId !== undefined;
  }

  /**
   * Records the chain id the node answered. Says what changed: "mismatch" when it just went wrong,
   * "recovered" when it just came right again, undefined when nothing changed.
   */
  observeChainId(nodeChainId: number): "mismatch" | "recovered" | undefined {
    if (nodeChainId !== this.expectedChainId) {
      const changed = this.wrongChainId === undefined;
      if (this.wrongChainId !== nodeChainId) this.since = new Date().toISOString();
      this.wrongChainId = nodeChainId;
      return changed ? "mismatch" : undefined;
    }
    if (this.wrongChainId === undefined) return undefined;
    this.wrongChainId = undefined;
    this.since = undefined;
    return "recovered";
  }

  recordEvent(e: Omit<ChainEvent, "at">): ChainEvent {
    this.event = { ...e, at: new Date().toISOString() };
    return this.event;
  }

  get lastEvent(): ChainEvent | undefined {
    return this.event;
  }

  /** Why nothing is served right now (for health), or undefined when the chain is the right one. */
  get problem(): string | undefined {
    if (this.wrongChainId === undefined) return undefined;
    return `chain id mismatch: the node answers chain ${this.wrongChainId} (since ${this.since}), docket serves chain ${this.expectedChainId}; reads and writes are refused until the node answers ${this.expectedChainId} again`;
  }

  /** Throws CHAIN_MISMATCH while the node serves another chain: no read of it, no transaction for it. */
  assertServing(): void {
    if (this.wrongChainId === undefined) return;
    throw new DocketError(
      "CHAIN_MISMATCH",
      `the chain node answers chain ${this.wrongChainId}, not chain ${this.expectedChainId}: docket refuses to read it or to build transactions until it is right again`,
      { expectedChainId: this.expectedChainId, nodeChainId: this.wrongChainId, since: this.since },
    );
  }
}
