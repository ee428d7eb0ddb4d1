import type { Block, Hex } from "viem";
import type { Logger } from "../log.js";
import type { ChainAccess } from "./access.js";
import { BlockWindow } from "./blockWindow.js";
import { makePublicClient } from "./client.js";
import { authenticLogs, type CourtLog, courtEvents } from "./courtLogs.js";
import type { Anchor, ChainChange, Follower, FollowerOptions, PollMeta } from "./followerOptions.js";
import { ChainStatus } from "./status.js";
import { isTransient } from "./transport.js";

export type { CourtLog } from "./courtLogs.js";
export type { Anchor, ChainChange, Follower, FollowerOptions, MinedEvent, PollMeta } from "./followerOptions.js";

/** How long a range the provider refused stays shrunk before the full RPC_LOGS_RANGE_MAX is tried again. */
const RANGE_MEMORY_MS = 10 * 60_000;

/**
 * Follows the court contracts' events by polling logs and invalidates exactly the entries a mined
 * change touches, so a change made straight on chain (not through docket) shows within one poll
 * interval, without waiting for TTLs. Each poll also checks that the chain is still the one docket
 * serves: its id (a mismatch stops every operation but health), its genesis (a reset flushes the
 * cache) and the hashes of the recent blocks it acted on (a reorg invalidates what the orphaned
 * blocks touched, then their replacements are read again).
 *
 * The index resumes through it (`anchor`, `persist`: see FollowerOptions): it starts from the
 * index's cursor instead of the head, catches up on the blocks between without invalidating (the
 * cache already reflects them) and has each step stored before its cursor moves past it.
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
 * With an anchor hook, anchoring costs the anchor's header when the hook gave no hash, and a catch-up
 * step ends at the catch-up target (one eth_getLogs more at most); `persist` makes no request either.
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
  /** The last block acted on; undefined until anchored (at start, after a wrong chain, a reset, a deep reorg). */
  let cursor: bigint | undefined;
  let genesis: Hex | undefined;
  /** The target at anchoring when the anchor hook's block was below it: the steps up to it are catching up. */
  let catchUpTo: bigint | undefined;
  /**
   * Up to this block the window's blocks carry no cache keys (the anchor hook's, and those read
   * catching up): a reorg below it cannot tell what its orphaned blocks touched, so it flushes.
   */
  let keysKnownAbove: bigint | undefined;
  /** Changes found and not handed on yet (a persist or an anchor hook failed): the next delivery carries them. */
  const pending: ChainChange[] = [];
  let running: Promise<number> | undefined;
  let stopped = false;

  const header = (n: bigint): Promise<Block | null> =>
    rpc.getBlock({ blockNumber: n }).catch((err: Error) => {
      if (err.name === "BlockNotFoundError") return null;
      throw err;
    });
  const flush = () => opts.invalidate("all");
  const report = async (logs: CourtLog[], meta: PollMeta) => {
    if (!opts.onEvents || (logs.length === 0 && !meta.change)) return;
    try {
      await opts.onEvents(logs, meta);
    } catch (err) {
      log.warn({ err: (err as Error).message }, "event follower: could not hand on its events");
    }
  };
  /** Stores what was read (`persist`: a throw stops here), moves on (`commit`), then hands it on (`onEvents`). */
  const deliver = async (logs: CourtLog[], meta: PollMeta, commit: () => void, stored?: () => Promise<void>) => {
    await opts.persist?.(logs, meta);
    // What the step made stale goes once the index holds it: a read between the two would cache the
    // index's view of before the step.
    await stored?.();
    commit();
    await report(logs, meta);
  };
  /** Hands on the pending changes, oldest first, each on its own at block `at`, all but the `keep` newest. */
  const handOnChanges = async (at: bigint, target: bigint, keep = 0) => {
    while (pending.length > keep) {
      const change = pending[0];
      const meta = { fromBlock: at, toBlock: at, toHash: window.hashOf(at), target, catchingUp: false, change };
      await deliver([], meta, () => pending.shift());
    }
  };

  /**
   * Sets where following starts: the anchor hook's block (clamped to the target) with the window
   * seeded from its recent blocks, or the target; then hands on the pending changes. The cursor is
   * set last, so a hook or a persist that throws leaves it unset: the next poll anchors again.
   */
  const anchor = async (target: bigint, head: Block) => {
    cursor = undefined;
    catchUpTo = undefined;
    keysKnownAbove = undefined;
    window.clear();
    let stored: Anchor | undefined;
    if (opts.anchor) {
      if (genesis === undefined) throw new Error("the node gave no genesis block: cannot ask where to start");
      stored = await opts.anchor({ genesis, head: head.number as bigint, target });
    }
    const at = stored && stored.block < target ? stored.block : target;
    if (stored) {
      const own = stored.hash ? [[stored.block, stored.hash] as const] : [];
      for (const [n, hash] of [...(stored.recent ?? []), ...own]) if (n <= at) window.record(n, hash);
      keysKnownAbove = target;
      if (at < target) catchUpTo = target;
    }
    if (window.hashOf(at) === undefined) {
      const h = at === head.number ? head : await header(at);
      if (h?.hash) window.record(at, h.hash);
    }
    window.prune(at);
    await handOnChanges(at, target);
    cursor = at;
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
    /** What nothing finer can follow (a new genesis, a fork deeper than the window): flush, anchor again, report it. */
    const restart = async (kind: "reset" | "reorg", hash: Hex | null | undefined, why: string) => {
      const e = status.recordEvent({ kind, depth: null, block: Number(head.number) });
      log.warn({ ...e, from: Number(old) }, why);
      await flush();
      pending.push({ ...e, hash: hash ?? null });
      await anchor(target, head);
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
    const orphaned = window.rollback(fork);
    if (keysKnownAbove !== undefined && fork < keysKnownAbove) {
      log.warn(
        e,
        "reorg below the blocks the follower was anchored at or caught up on (their keys unknown): cache flushed",
      );
      await flush();
    } else {
      log.warn(e, "reorg: invalidating what the orphaned blocks touched, reading on from the fork point");
      if (orphaned.length > 0) await opts.invalidate(orphaned);
    }
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
      if (genesis !== undefined && probe?.hash !== genesis) {
        const e = status.recordEvent({ kind: "reset", depth: null, block: Number(head.number) });
        pending.push({ ...e, hash: probe?.hash ?? null });
      }
      genesis = probe?.hash ?? undefined;
      // The anchor's hash is checked by the next poll's probe, like any cursor's.
      await anchor(target, head);
      return 0;
    }
    const known = window.hashOf(cursor);
    if (!probe || (known !== undefined && probe.hash !== known)) {
      const found = await onFork(cursor, head, target);
      if (!found) return 0;
      pending.push(found);
    } else if (known === undefined && probe.hash) {
      window.record(cursor, probe.hash);
    }
    const from = cursor + 1n;
    if (target < from) {
      await handOnChanges(cursor, target);
      return 0;
    }
    if (range < rangeMax && Date.now() - shrunkAt > RANGE_MEMORY_MS) range = rangeMax;
    // Walked in steps of `range` blocks, the cursor advancing after each: a long absence is caught up
    // in this poll, and a step that fails leaves what was read before it done. A step ends at the
    // catch-up target, so each is either caught up on or news; stop() ends the walk between steps.
    let seen = 0;
    for (let at = from; at <= target && !stopped; ) {
      const end = catchUpTo !== undefined && at <= catchUpTo && catchUpTo < target ? catchUpTo : target;
      const to = end - at + 1n > range ? at + range - 1n : end;
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
      // Caught up on: the cache already reflects these blocks (read after them), so nothing to invalidate.
      const catchingUp = catchUpTo !== undefined && to <= catchUpTo;
      const touched = logs.map((l) => (catchingUp ? [] : opts.keysFor(l)));
      const keys = new Set(touched.flat());
      await handOnChanges(at - 1n, target, 1);
      const change = pending[0];
      const toHash = toHeader?.hash ?? undefined;
      await deliver(
        logs,
        { fromBlock: at, toBlock: to, toHash, target, catchingUp, change },
        () => {
          if (change) pending.shift();
          for (const [i, l] of logs.entries()) window.record(l.blockNumber, l.blockHash, touched[i]);
          if (toHash) window.record(to, toHash);
          cursor = to;
          window.prune(to);
          if (catchUpTo !== undefined && to >= catchUpTo) catchUpTo = undefined;
          status.recordProgress(cursor, target);
        },
        async () => {
          if (keys.size > 0) await opts.invalidate([...keys]);
        },
      );
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
