import type { Hex } from "viem";
import type { CourtLog } from "./courtLogs.js";
import type { ChainEvent, ChainStatus } from "./status.js";

/*
 * The event follower's interface (follower.ts makes one): what it is handed, what it hands on, and
 * the two hooks through which the index resumes from its durable cursor and stores each step.
 */

/** A mined contract event, decoded, as the follower hands it to `keysFor`. */
export interface MinedEvent {
  eventName?: string;
  args?: unknown;
}

/** A reorg or a reset as the follower reports it to `onEvents`. */
export interface ChainChange extends ChainEvent {
  /**
   * Names this change among others at the same block: the orphaned block's hash (a reorg) or the new
   * genesis hash (a reset). Every replica that saw the same change sees the same hash.
   */
  hash: Hex | null;
}

/** What one step of a poll saw, beside its logs. */
export interface PollMeta {
  /**
   * The blocks read (inclusive). When only a chain change is reported, both are the block the
   * follower's cursor is at after it (the fork point of a reorg, the anchor after a reset).
   */
  fromBlock: bigint;
  toBlock: bigint;
  /** The hash of `toBlock` as the follower recorded it (what a store keeps beside its cursor). */
  toHash?: Hex;
  /** The block this poll walks to (the head less CONFIRMATIONS). */
  target: bigint;
  /**
   * The logs were mined before the follower anchored (a backfill from the anchor hook's block): the
   * cache already reflects them and they are not news to live listeners. A change is news all the same.
   */
  catchingUp: boolean;
  /** The reorg or reset found before the logs were read (its logs, if any, come after it). */
  change?: ChainChange;
}

/** Where the follower starts when it has no cursor (the durable cursor of the index). */
export interface Anchor {
  /** The last block already handled; the follower reads on from block + 1. */
  block: bigint;
  /** Its hash as stored (checked on the next poll like any cursor: a mismatch is a reorg); fetched when absent. */
  hash?: Hex;
  /** Recent handled blocks and their hashes, newest or oldest first, to seed the fork-finding window. */
  recent?: ReadonlyArray<readonly [bigint, Hex]>;
}

export interface FollowerOptions {
  intervalMs: number;
  /**
   * The cache keys a mined event makes stale. Handed in by the composition root: the keys and what goes
   * stale are the freshness table's (freshness/stale.ts), which the chain layer does not know.
   */
  keysFor: (event: MinedEvent) => string[];
  /**
   * Drops cached answers a change on chain made stale: exact keys (patterns), or `"all"` when the
   * follower cannot tell what changed (a reset chain, a reorg deeper than its window, another chain).
   * What was mined needs no write hold, so none is placed.
   */
  invalidate: (keys: string[] | "all") => Promise<void>;
  /** CONFIRMATIONS: blocks a block needs on top of it before the follower acts on its events. */
  confirmations?: number;
  /** Where a wrong chain id and the last reorg or reset are reported (health reads it). */
  status?: ChainStatus;
  /** Recent blocks whose hashes are remembered to find a fork point (a deeper reorg flushes everything). */
  window?: number;
  /** FOLLOWER_MAX_LAG_SECONDS: behind (or failing) for longer than this, it logs so and health is degraded. */
  maxLagSeconds?: number;
  /**
   * Hears every court log the follower accepts, in chain order, after the cache is invalidated for
   * them, and every reorg or reset. Awaited (a poll ends once its events are handed on); a failure
   * is logged and never stops the follower.
   */
  onEvents?: (logs: CourtLog[], meta: PollMeta) => Promise<void> | void;
  /**
   * Asked where to start each time the follower anchors (at start, when the chain id is right
   * again, after a reset or a reorg deeper than its window), once the node's genesis is known: the
   * block its store has handled, or undefined to start at the target as without it. It checks its
   * own data against the chain first (the follower trusts the answer); a throw fails the poll, and
   * the next poll asks again.
   */
  anchor?: (at: { genesis: Hex; head: bigint; target: bigint }) => Promise<Anchor | undefined>;
  /**
   * Stores what a step read before the follower moves past it: awaited with the logs and meta
   * `onEvents` gets, for every step (one with no logs too: the cursor moves) and every chain
   * change. A throw fails the poll there: the cursor stays at the last step stored and the next poll
   * hands the same range (and a change not stored yet) again, so it must be idempotent.
   */
  persist?: (logs: CourtLog[], meta: PollMeta) => Promise<void>;
}

export interface Follower {
  /** Polls once now (tests and shutdown use it). */
  poll(): Promise<number>;
  stop(): void;
  readonly status: ChainStatus;
}
