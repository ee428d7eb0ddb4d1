import { describe, expect, it } from "vitest";
import { matches } from "../../src/cache/cache.js";
import { everyKey, keyOf } from "../../src/freshness/keys.js";
import { keysForEvent, STALE_BY_EVENT, type Staleness, staleKeys } from "../../src/freshness/stale.js";
import { getAgent } from "../../src/operations/agents/getAgent.js";
import { getCase } from "../../src/operations/cases/getCase.js";
import { listCases } from "../../src/operations/cases/listCases.js";

/** The one key vocabulary: what a mined event or a write invalidates reaches the keys reads are stored under. */
describe("cache keys and the freshness table (src/freshness/)", () => {
  const a = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
  const stale = (patterns: string[], key: string) => patterns.some((p) => matches(p, key));

  it("each event invalidates the entries of the reads it changes", () => {
    expect(
      stale(keysForEvent({ eventName: "CaseFiled" }), listCases.cache?.key({ offset: 20, limit: 20 }) as string),
    ).toBe(true);
    expect(
      stale(
        keysForEvent({ eventName: "CaseChanged", args: { caseAddr: a } }),
        getCase.cache?.key({ address: a }) as string,
      ),
    ).toBe(true);
    expect(
      stale(
        keysForEvent({ eventName: "AgentUpdated", args: { agent: a } }),
        getAgent.cache?.key({ address: a }) as string,
      ),
    ).toBe(true);
    expect(keysForEvent({ eventName: "JudgeSlashed", args: { judge: a } })).toEqual(staleKeys({ judge: a }));
    expect(keysForEvent({ eventName: "FilingChanged" })).toContain(keyOf.params());
    expect(keysForEvent({ eventName: "SomethingElse" })).toEqual([]);
    // A court's creation or change reaches the court reads, the terms filing quotes and every pool.
    for (const eventName of ["CourtCreated", "CourtChanged"]) {
      const keys = keysForEvent({ eventName, args: { courtId: 2n } });
      for (const key of [
        keyOf.courtTree(),
        keyOf.courtList(),
        keyOf.court(2),
        keyOf.params(),
        keyOf.judgePool(2, 0, 20),
      ]) {
        expect(stale(keys, key), `${eventName} -> ${key}`).toBe(true);
      }
    }
    // A stake in any court moves that court's pool and every court above it.
    const staked = keysForEvent({ eventName: "JudgeStaked", args: { judge: a, courtId: 2n } });
    for (const key of [keyOf.court(1), keyOf.court(2), keyOf.judgePool(1, 0, 20), keyOf.judgeStake(a)]) {
      expect(stale(staked, key), key).toBe(true);
    }
  });

  it("a concluding case change also reaches judges and both parties", () => {
    const p = "0x1111111111111111111111111111111111111111";
    const keys = staleKeys({ case: a, concluded: { plaintiff: p, defendant: a } });
    expect(stale(keys, keyOf.agent(p))).toBe(true);
    expect(stale(keys, keyOf.judgeStake(p))).toBe(true);
    expect(stale(staleKeys({ case: a }), keyOf.agent(p))).toBe(false);
  });

  it("a write and the event that reports the same change on chain make the same keys stale", () => {
    // stake_as_judge / unstake_judge and JudgeStaked / JudgeUnstaked; file_case and CaseFiled;
    // a case write and CaseChanged; a job step and the job contract's event; register and AgentRegistered.
    expect(staleKeys({ judge: a })).toEqual(keysForEvent({ eventName: "JudgeStaked", args: { judge: a } }));
    expect(staleKeys({ filing: true })).toEqual(keysForEvent({ eventName: "CaseFiled", args: { caseAddr: a } }));
    expect(staleKeys({ case: a })).toEqual(keysForEvent({ eventName: "CaseChanged", args: { caseAddr: a } }));
    expect(staleKeys({ job: 7 })).toEqual(keysForEvent({ eventName: "JobFunded", args: { jobId: 7n } }));
    expect(staleKeys({ agent: a })).toEqual(keysForEvent({ eventName: "AgentRegistered", args: { agent: a } }));
  });

  /** The kind of a key or pattern: what comes before its first `:` (or `*`). */
  const kindOf = (key: string) => key.split(/[:*]/)[0] as string;
  /** Every kind of key a read is cached under, from the key vocabulary. */
  const readKinds = new Set(
    Object.values(keyOf).map((f) => kindOf((f as (...a: unknown[]) => string)("0xa", 1, 2, 3))),
  );

  it("every key a row or a write names is a key some read is cached under", () => {
    expect(
      Object.values(everyKey)
        .filter((p) => p !== everyKey.all)
        .map(kindOf)
        .filter((k) => !readKinds.has(k)),
    ).toEqual([]);
    const args = { caseAddr: a, agent: a, judge: a, party: a, jobId: 1n };
    const fromEvents = Object.keys(STALE_BY_EVENT).flatMap((eventName) => keysForEvent({ eventName, args }));
    const every: Required<Staleness> = {
      filing: true,
      case: a,
      concluded: { plaintiff: a, defendant: a },
      agent: a,
      judge: a,
      party: a,
      stats: true,
      params: true,
      court: true,
      job: 1,
      draw: [a],
    };
    const fromWrites = Object.entries(every).flatMap(([k, v]) => staleKeys({ [k]: v }));
    expect([...fromEvents, ...fromWrites].map(kindOf).filter((k) => !readKinds.has(k))).toEqual([]);
  });

  it("every kind of cached read is made stale by some contract event", () => {
    const args = { caseAddr: a, agent: a, judge: a, party: a, jobId: 1n };
    const reached = new Set(
      Object.keys(STALE_BY_EVENT)
        .flatMap((eventName) => keysForEvent({ eventName, args }))
        .map(kindOf),
    );
    expect([...readKinds].filter((k) => !reached.has(k))).toEqual([]);
  });
});
