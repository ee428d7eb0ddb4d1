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

/** How far the event follower is behind the chain and since when (it last caught up then). */
export interface FollowerLag {
  /** Blocks between the last block it acted on and the block it was reading towards. */
  blocksBehind: number;
  /** When it was last caught up (or started), ISO 8601. */
  since: string;
  /** Why its last poll failed, when it did. */
  error?: string;
}

/** What the follower last saw of the node: compared with what the node says now, by /health. */
export interface NodeSeen {
  chainId: number;
  genesis: string;
  head: bigint;
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

  private caughtUpAt = Date.now();
  private behind = 0;
  private pollError?: string;
  private stalledLogged = false;
  /** FOLLOWER_MAX_LAG_SECONDS, in ms: behind for longer than this, health says degraded. */
  maxLagMs = 60_000;
  /** Set by the follower at each poll: what the node looked like then. */
  seen?: NodeSeen;

  /** The follower's poll (set by the follower): what `catchUp` runs. */
  poller?: () => Promise<unknown>;

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

  /**
   * While the follower is stalled (its polls failed while the node was away): polls now rather than
   * at its next tick, waiting `ms` at most, so that health says ok as soon as the node is back and
   * the follower has caught up. A poll already running is awaited, not doubled.
   */
  async catchUp(ms: number): Promise<void> {
    if (!this.poller || !this.stalled) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.poller().catch(() => {}),
      new Promise<void>((r) => {
        timer = setTimeout(r, ms);
      }),
    ]);
    clearTimeout(timer);
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

  /**
   * The follower's progress after a poll (or a step of one): caught up when `cursor` reached `target`.
   * Returns true the first time it has been behind for longer than `maxLagMs` (the follower logs it once).
   */
  recordProgress(cursor: bigint | undefined, target: bigint | undefined, error?: string): boolean {
    this.pollError = error;
    if (error === undefined && cursor !== undefined && target !== undefined && cursor >= target) {
      this.caughtUpAt = Date.now();
      this.behind = 0;
      this.stalledLogged = false;
      return false;
    }
    if (cursor !== undefined && target !== undefined) this.behind = Number(target - cursor);
    if (!this.stalled || this.stalledLogged) return false;
    this.stalledLogged = true;
    return true;
  }

  /** How far behind the follower is, or undefined while it keeps up (its last poll caught up). */
  get lag(): FollowerLag | undefined {
    if (this.pollError === undefined && this.behind === 0) return undefined;
    return {
      blocksBehind: this.behind,
      since: new Date(this.caughtUpAt).toISOString(),
      ...(this.pollError ? { error: this.pollError } : {}),
    };
  }

  /** Behind (or failing) for longer than FOLLOWER_MAX_LAG_SECONDS. */
  get stalled(): boolean {
    return this.lag !== undefined && Date.now() - this.caughtUpAt >= this.maxLagMs;
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
