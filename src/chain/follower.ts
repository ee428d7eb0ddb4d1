import type { Block, Hex } from "viem";
import type { Logger } from "../log.js";
import type { ChainAccess } from "./access.js";
import { BlockWindow } from "./blockWindow.js";
import { makePublicClient } from "./client.js";
import { authenticLogs, type CourtLog, courtEvents } from "./courtLogs.js";
import { type ChainEvent, ChainStatus } from "./status.js";
import { isTransient } from "./transport.js";

export type { CourtLog } from "./courtLogs.js";

/** How long a range the provider refused stays shrunk before the full RPC_LOGS_RANGE_MAX is tried again. */
const RANGE_MEMORY_MS = 10 * 60_000;

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

/** What one poll saw, beside its logs. */
export interface PollMeta {
  /** The blocks read (inclusive); equal and empty when only a chain change is reported. */
  fromBlock: bigint;
  toBlock: bigint;
  /** The hash of `toBlock` as the follower recorded it (absent when only a change is reported and it is unknown). */
  toHash?: Hex;
  /** The block this poll walks to (the head less CONFIRMATIONS). */
  target?: bigint;
  /**
   * The step lies at or below the head the follower saw when it was anchored behind it (a backfill
   * from the index's cursor): the cache already holds the head's state, so nothing is invalidated,
   * and its events are history, not news.
   */
  catchingUp?: boolean;
  /** The reorg or reset found before the logs were read (its logs, if any, come after it). */
  change?: ChainChange;
}

/** Where the follower starts when it has no cursor: the last block a durable reader (the index) handled. */
export interface Anchor {
  /** The last block already handled; the follower reads on from the next. */
  block: bigint;
  /** Its hash as stored (checked on the next poll like any cursor's); read from the chain when absent. */
  hash?: Hex;
  /** Recent handled blocks and their hashes, to find a reorg's fork point among them after a restart. */
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
   * Where to start whenever the follower has no cursor (at start, after a wrong chain id comes right,
   * after a reset or a reorg deeper than its window): the index's durable cursor, checked against
   * the chain by the hook itself. Undefined (or no hook): at the target, as without an index. A
   * hook that throws fails the poll (tried again at the next).
   */
  anchor?: (at: { genesis: Hex; head: bigint; target: bigint }) => Promise<Anchor | undefined>;
  /**
   * Stores a step before the cursor moves past it (the index's writer), with what `onEvents` gets,
   * for every step (one with no logs moves the stored cursor too) and every change. A failure fails
   * the poll there: the cursor stays after the last step stored, and the next poll reads on from it.
   */
  persist?: (logs: CourtLog[], meta: PollMeta) => Promise<void>;
}

export interface Follower {
  /** Polls once now (tests and shutdown use it). */
  poll(): Promise<number>;
  /**
   * Drops the cursor: the next poll anchors again (on the index's stored cursor, when this replica
   * has just become its writer: docs/replicas.md). A poll running finishes first.
   */
  reanchor(): void;
  stop(): void;
  readonly status: ChainStatus;
}

/**
 * Follows the court contracts' events by polling logs and invalidates exactly the entries a mined
 * change touches, so a change made straight on chain (not through docket) shows within one poll
 * interval, without waiting for TTLs. Each poll also checks that the chain is still the one docket
 * serves: its id (a mismatch stops every operation but health), its genesis (a reset flushes the
 * cache) and the hashes of the recent blocks it acted on (a reorg invalidates what the orphaned
 * blocks touched, then their replacements are read again).
 *
 * The logs are the factory's and the registry's (by address) and the case contracts' (each case is a
 * clone at its own address, so these are asked for by event signature over every address, then
 * kept only when the factory vouches for them in the same transaction: see `authenticLogs`).
 *
 * Cost: one JSON-RPC batch per poll (chain id, latest header, the header at the cursor: 3
 * requests), and when there are new blocks a second one (one eth_getLogs, plus the target's header
 * when CONFIRMATIONS > 0). A longer way to the head (docket was away) is walked in steps of
 * RPC_LOGS_RANGE_MAX blocks, one such batch (eth_getLogs and the step's last header) each; a provider
 * refusing a range (whatever it says: -32005, "range too large", 413) halves it for good. A suspected
 * fork costs genesis and the remembered headers, newest first, RPC_BATCH_MAX to a batch, until the fork
 * point is found. `onEvents` makes no request of the follower's; what its listener reads is its own cost.
 */
export function followCourt(chain: ChainAccess, log: Logger, opts: FollowerOptions): Follower {
  const status = opts.status ?? new ChainStatus(chain.chainId);
  const confirmations = BigInt(opts.confirmations ?? 0);
  const window = new BlockWindow(opts.window ?? 64);
  if (opts.maxLagSeconds !== undefined) status.maxLagMs = opts.maxLagSeconds * 1000;
  // Requests made together go out as one JSON-RPC batch (RPC_BATCH_MAX at most): one round trip per step.
  const rpc = makePublicClient(chain.definition, { batch: true, limits: chain.limits });
  /**
   * Blocks per eth_getLogs: RPC_LOGS_RANGE_MAX, halved each time the provider refuses a range, and
   * back to RPC_LOGS_RANGE_MAX ten minutes after the last refusal (a refusal may have been a bad moment).
   */
  const rangeMax = BigInt(Math.max(1, chain.limits.logsRangeMax));
  let range = rangeMax;
  let shrunkAt = 0;
  /** Headers per batch when looking for a fork point (genesis rides in the first). */
  const headersPerBatch = Math.max(1, chain.limits.batchMax);
  /** The block the last poll read towards (for the lag), and the head the node had then. */
  let lastTarget: bigint | undefined;
  let lastHead: bigint | undefined;
  /** The last block acted on; undefined until anchored (at start, after a wrong chain). */
  let cursor: bigint | undefined;
  let genesis: Hex | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;
  /** The target when the follower was last anchored behind it: steps up to it are catching up. */
  let catchUpTo: bigint | undefined;

  const header = (n: bigint): Promise<Block | null> =>
    rpc.getBlock({ blockNumber: n }).catch((err: Error) => {
      if (err.name === "BlockNotFoundError") return null;
      throw err;
    });
  const flush = () => opts.invalidate("all");
  /** Hands a stored step or change on to `onEvents` (never throws). */
  const handOn = async (logs: CourtLog[], meta: PollMeta) => {
    if (!opts.onEvents || (logs.length === 0 && !meta.change)) return;
    try {
      await opts.onEvents(logs, meta);
    } catch (err) {
      log.warn({ err: (err as Error).message }, "event follower: could not hand on its events");
    }
  };
  /** A change with nothing read after it: stored (throws: the poll fails), then handed on. */
  const report = async (logs: CourtLog[], meta: PollMeta) => {
    await opts.persist?.(logs, meta);
    await handOn(logs, meta);
  };
  const changed = (e: ChainEvent, hash: Hex | null | undefined, at: bigint) =>
    report([], { fromBlock: at, toBlock: at, toHash: window.hashOf(at), change: { ...e, hash: hash ?? null } });

  const anchor = async (target: bigint, head: Block) => {
    const at = opts.anchor && genesis ? await opts.anchor({ genesis, head: head.number as bigint, target }) : undefined;
    window.clear();
    if (at) {
      const block = at.block < target ? at.block : target;
      for (const [n, h] of at.recent ?? []) if (n <= block) window.record(n, h);
      const hash = at.hash && block === at.block ? at.hash : (await header(block))?.hash;
      if (hash) window.record(block, hash);
      catchUpTo = block < target ? target : undefined;
      cursor = block;
      return;
    }
    const h = target === head.number ? head : await header(target);
    if (h?.hash) window.record(target, h.hash);
    catchUpTo = undefined;
    cursor = target;
  };

  /**
   * The block at the cursor is gone or changed. Returns the reorg when the fork point is known and
   * the orphaned blocks' keys are invalidated (the poll then reads on from it, and reports the reorg
   * with the logs that replace them); false after a flush (already reported).
   */
  const onFork = async (old: bigint, head: Block, target: bigint): Promise<ChainChange | false> => {
    const orphan = window.hashOf(old) ?? null;
    const nums = window.numbers().filter((n) => n <= (head.number as bigint));
    // Newest first, a batch at a time: most forks are shallow, and no batch passes the provider's cap.
    const [g, ...first] = await Promise.all([header(0n), ...nums.slice(0, headersPerBatch - 1).map(header)]);
    /** What nothing finer can follow (a new genesis, a fork deeper than the window): flush, start again at the head, report it. */
    const restart = async (kind: "reset" | "reorg", hash: Hex | null | undefined, why: string) => {
      const e = status.recordEvent({ kind, depth: null, block: Number(head.number) });
      log.warn({ ...e, from: Number(old) }, why);
      await flush();
      await anchor(target, head);
      // Reported at the block the follower now stands on (the head, or the index's cursor).
      await changed(e, hash, cursor ?? (head.number as bigint));
      return false as const;
    };
    if (g?.hash !== genesis) {
      genesis = g?.hash ?? undefined;
      return restart("reset", genesis, "chain reset (new genesis): cache flushed, following the new chain");
    }
    let fork: bigint | undefined;
    let headers = first;
    for (let at = 0; ; ) {
      const i = headers.findIndex((h, j) => h?.hash === window.hashOf(nums[at + j] as bigint));
      if (i >= 0) {
        fork = nums[at + i];
        break;
      }
      at += headers.length;
      if (at >= nums.length) break;
      headers = await Promise.all(nums.slice(at, at + headersPerBatch).map(header));
    }
    if (fork === undefined) return restart("reorg", orphan, "reorg deeper than the follower's window: cache flushed");
    const e = status.recordEvent({ kind: "reorg", depth: Number(old - fork), block: Number(fork) });
    log.warn(e, "reorg: invalidating what the orphaned blocks touched, reading on from the fork point");
    const orphaned = window.rollback(fork);
    if (orphaned.length > 0) await opts.invalidate(orphaned);
    cursor = fork;
    return { ...e, hash: orphan };
  };

  // strict: a log whose topics or data do not decode as the court's event is not the court's.
  const getLogs = (fromBlock: bigint, toBlock: bigint) =>
    rpc.getLogs({ events: courtEvents, fromBlock, toBlock, strict: true });

  /** reanchor() was asked: the next poll starts without a cursor. */
  let dropCursor = false;
  const pollOnce = async (): Promise<number> => {
    if (dropCursor) {
      dropCursor = false;
      cursor = undefined;
    }
    const [nodeChainId, head, probe] = await Promise.all([
      rpc.getChainId(),
      rpc.getBlock({ blockTag: "latest" }),
      header(cursor ?? 0n),
    ]);
    lastHead = head.number;
    const change = status.observeChainId(nodeChainId);
    if (change === "mismatch") log.error({ nodeChainId, expected: chain.chainId }, status.problem);
    if (change === "recovered") log.info({ chainId: nodeChainId }, "the node answers the right chain again");
    if (change) {
      // Whatever was read around the switch may come from the other chain; re-anchor once it is right.
      await flush();
      cursor = undefined;
      window.clear();
    }
    // While the chain is wrong the cursor stays unset, so each poll's probe is the node's genesis.
    if (status.mismatched) return 0;
    const target = head.number > confirmations ? head.number - confirmations : 0n;
    lastTarget = target;
    if (cursor === undefined) {
      // probe is the genesis block here: a different one than before the chain went wrong is a reset.
      const reset =
        genesis !== undefined && probe?.hash !== genesis
          ? status.recordEvent({ kind: "reset", depth: null, block: Number(head.number) })
          : undefined;
      genesis = probe?.hash ?? undefined;
      await anchor(target, head);
      if (reset) await changed(reset, genesis, cursor ?? (head.number as bigint));
      return 0;
    }
    const known = window.hashOf(cursor);
    let fork: ChainChange | undefined;
    if (!probe || (known !== undefined && probe.hash !== known)) {
      const found = await onFork(cursor, head, target);
      if (!found) return 0;
      fork = found;
    } else if (known === undefined && probe.hash) {
      window.record(cursor, probe.hash);
    }
    const from = cursor + 1n;
    if (target < from) {
      if (fork)
        await report([], { fromBlock: cursor, toBlock: cursor, toHash: window.hashOf(cursor), target, change: fork });
      return 0;
    }
    if (range < rangeMax && Date.now() - shrunkAt > RANGE_MEMORY_MS) range = rangeMax;
    // Walked in steps of `range` blocks, the cursor advancing after each: a long absence is caught up
    // in this poll, and a step that fails leaves what was read before it done.
    let seen = 0;
    for (let at = from; at <= target; ) {
      // A long walk (a backfill) ends between two steps when the follower is stopped.
      if (stopped) break;
      const to = target - at + 1n > range ? at + range - 1n : target;
      let raw: Awaited<ReturnType<typeof getLogs>>;
      let toHeader: Block | null;
      try {
        [raw, toHeader] = await Promise.all([getLogs(at, to), to === head.number ? head : header(to)]);
      } catch (err) {
        // A provider refusing the range says so in its own words; whatever it says, ask for less.
        if (to === at || isTransient(err, "eth_getLogs")) throw err;
        const was = to - at + 1n;
        range = was / 2n > 0n ? was / 2n : 1n;
        shrunkAt = Date.now();
        log.warn(
          {
            from: Number(at),
            to: Number(to),
            blocks: Number(was),
            now: Number(range),
            err: (err as Error).message.split("\n")[0],
          },
          "event follower: the provider refused eth_getLogs over this range; asking for fewer blocks",
        );
        continue;
      }
      const logs = authenticLogs(raw, chain);
      // Caught-up history: the cache holds the head's state already.
      const catchingUp = catchUpTo !== undefined && to <= catchUpTo;
      const keys = new Set<string>();
      for (const l of logs) {
        const touched = catchingUp ? [] : opts.keysFor(l);
        for (const k of touched) keys.add(k);
        if (l.blockNumber !== null && l.blockHash) window.record(l.blockNumber, l.blockHash, touched);
      }
      if (toHeader?.hash) window.record(to, toHeader.hash);
      if (keys.size > 0) await opts.invalidate([...keys]);
      const meta: PollMeta = {
        fromBlock: at,
        toBlock: to,
        toHash: toHeader?.hash ?? undefined,
        target,
        catchingUp,
        change: at === from ? fork : undefined,
      };
      // Stored before the cursor moves past it: a failure here leaves the cursor at the last step stored.
      await opts.persist?.(logs, meta);
      cursor = to;
      window.prune(to);
      if (catchUpTo !== undefined && to >= catchUpTo) catchUpTo = undefined;
      status.recordProgress(cursor, target);
      await handOn(logs, meta);
      seen += logs.length;
      at = to + 1n;
    }
    return seen;
  };

  const poll = () => {
    running ??= pollOnce()
      .then(
        (n) => {
          progressed(undefined);
          return n;
        },
        (err: unknown) => {
          progressed((err as Error).message.split("\n")[0]);
          throw err;
        },
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  /** Tells the status how far behind the follower is; says once in the log when it has stopped keeping up. */
  const progressed = (error: string | undefined) => {
    if (error === undefined && genesis && lastHead !== undefined && !status.mismatched) {
      status.seen = { chainId: chain.chainId, genesis, head: lastHead };
    }
    if (!status.recordProgress(cursor, lastTarget, error)) return;
    log.warn(status.lag, "event follower: not keeping up with the chain (health says degraded until it does)");
  };

  // /health asks for a poll when it finds the follower stalled but the node readable again.
  status.poller = poll;

  // One warning per outage, not one per poll: the chain being away is already reported by reads.
  let failing = false;
  const timer = setInterval(() => {
    if (stopped) return;
    poll().then(
      () => {
        if (failing) log.info("event follower: polling again");
        failing = false;
      },
      (err: unknown) => {
        if (!failing) log.warn({ err: (err as Error).message }, "event follower: poll failed; retrying");
        failing = true;
      },
    );
  }, opts.intervalMs);
  timer.unref();

  return {
    poll,
    status,
    reanchor: () => {
      dropCursor = true;
    },
    stop: () => {
      stopped = true;
      clearInterval(timer);
      if (status.poller === poll) status.poller = undefined;
    },
  };
}
