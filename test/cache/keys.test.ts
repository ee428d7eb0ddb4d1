import { describe, expect, it } from "vitest";
import { matches } from "../../src/cache/cache.js";
import { getAgent } from "../../src/operations/agents/getAgent.js";
import { getCase } from "../../src/operations/cases/getCase.js";
import { listCases } from "../../src/operations/cases/listCases.js";
import { caseKeys, judgeKeys, keyOf, keysForEvent } from "../../src/operations/keys.js";

/** The one key vocabulary: what a mined event or a write invalidates reaches the keys reads are stored under. */
describe("cache keys (src/operations/keys.ts)", () => {
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
    expect(keysForEvent({ eventName: "JudgeSlashed", args: { judge: a } })).toEqual(judgeKeys(a));
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
    const keys = caseKeys(a, { plaintiff: p, defendant: a });
    expect(stale(keys, keyOf.agent(p))).toBe(true);
    expect(stale(keys, keyOf.judgeStake(p))).toBe(true);
    expect(stale(caseKeys(a), keyOf.agent(p))).toBe(false);
  });
});
