import { type Abi, type Log, parseEventLogs } from "viem";
import type { Cache } from "../cache/cache.js";
import type { Logger } from "../log.js";
import { caseFactoryAbi, courtRegistryAbi } from "./abi/generated.js";
import type { Court } from "./court.js";

const courtAbi = [...caseFactoryAbi, ...courtRegistryAbi] as Abi;

/** Blocks read per poll at most, so a node far ahead is caught up in bounded steps. */
const MAX_RANGE = 2_000n;

/**
 * The cache keys a mined court event makes stale. Every case change is reported by the factory's
 * CaseChanged, and every judge or party record change by the registry, so two addresses cover all.
 */
export function keysForLog(log: { eventName?: string; args?: unknown }): string[] {
  const a = (log.args ?? {}) as Record<string, string | undefined>;
  switch (log.eventName) {
    case "CaseFiled":
      return ["cases:*", "stats"];
    case "CaseChanged":
      return [`case:${a.caseAddr}`, `evidence:${a.caseAddr}`, "pending:*", "stats"];
    case "AgentRegistered":
    case "AgentUpdated":
      return ["discover:*", `agent:${a.agent}`, "stats"];
    case "JudgeStaked":
    case "JudgeUnstaked":
    case "JudgeSlashed":
    case "JudgeRewarded":
    case "JudgeRecordChanged":
      return [`judgestake:${a.judge}`, `validator:${a.judge}`, `agent:${a.judge}`, "judgepool", "discover:*", "stats"];
    case "PartyRecordChanged":
      return [`agent:${a.party}`, "discover:*"];
    case "TreasuryWithdrawn":
      return ["stats"];
    case "FilingChanged":
      // The fee a 402 quotes comes from the cached court parameters.
      return ["params", "stats"];
    default:
      return [];
  }
}

export interface Follower {
  /** Polls once now (tests and shutdown use it). */
  poll(): Promise<number>;
  stop(): void;
}

/**
 * Follows the court contracts' events by polling logs and invalidates exactly the entries a mined
 * change touches, so a change made straight on chain (not through docket) shows within one poll
 * interval, without waiting for TTLs. Two JSON-RPC requests per poll (block number, logs).
 */
export function followCourt(court: Court, cache: Cache, log: Logger, opts: { intervalMs: number }): Follower {
  let next: bigint | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  const pollOnce = async (): Promise<number> => {
    const latest = await court.reader.getBlockNumber({ cacheTime: 0 });
    if (next === undefined) {
      next = latest + 1n;
      return 0;
    }
    if (latest < next) return 0;
    const to = latest - next + 1n > MAX_RANGE ? next + MAX_RANGE - 1n : latest;
    const logs = (await court.reader.getLogs({
      address: [court.factory, court.registry],
      fromBlock: next,
      toBlock: to,
    })) as Log[];
    const keys = new Set<string>();
    for (const l of parseEventLogs({ abi: courtAbi, logs })) for (const k of keysForLog(l)) keys.add(k);
    if (keys.size > 0) await cache.invalidate([...keys], { hold: false });
    next = to + 1n;
    return logs.length;
  };

  const poll = () => {
    running ??= pollOnce().finally(() => {
      running = undefined;
    });
    return running;
  };

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
  // Anchor at the current block at once, so nothing mined after start is missed.
  poll().catch(() => {});

  return {
    poll,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
