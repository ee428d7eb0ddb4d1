import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  agenticCommerceAbi,
  caseFactoryAbi,
  courtEvaluatorAbi,
  courtRegistryAbi,
  disputeCaseAbi,
  docketArbitratorAbi,
} from "../../src/chain/abi/generated.js";
import { courtEvents } from "../../src/chain/courtLogs.js";
import { COURT_EVENTS, type CourtContract, IGNORED_EVENTS, uncatalogued } from "../../src/chain/eventCatalogue.js";
import { EVENT_TYPES } from "../../src/events/types.js";
import { keysForEvent } from "../../src/operations/keys.js";

const ABI_OF: Record<CourtContract, readonly { type: string; name?: string }[]> = {
  factory: caseFactoryAbi,
  registry: courtRegistryAbi,
  case: disputeCaseAbi,
  arbitrator: docketArbitratorAbi,
  commerce: agenticCommerceAbi,
  evaluator: courtEvaluatorAbi,
};
const eventNames = (abi: readonly { type: string; name?: string }[]) =>
  abi.filter((x) => x.type === "event").map((x) => x.name as string);

describe("the event catalogue", () => {
  for (const contract of Object.keys(ABI_OF) as CourtContract[]) {
    it(`places every ${contract} event of the generated ABI: followed, or ignored with a reason`, () => {
      expect(uncatalogued(contract, ABI_OF[contract])).toEqual([]);
    });
  }

  it("fails on a contract event nobody mapped", () => {
    const grown = [...disputeCaseAbi, { type: "event", name: "JudgeFellAsleep", inputs: [], anonymous: false }];
    expect(uncatalogued("case", grown)).toEqual(["JudgeFellAsleep"]);
  });

  it("names only events its contract has, and the follower asks for exactly the followed ones", () => {
    for (const [name, e] of Object.entries(COURT_EVENTS)) expect(eventNames(ABI_OF[e.contract])).toContain(name);
    for (const [contract, ignored] of Object.entries(IGNORED_EVENTS)) {
      for (const name of Object.keys(ignored)) expect(eventNames(ABI_OF[contract as CourtContract])).toContain(name);
    }
    expect(courtEvents.map((e) => e.name).sort()).toEqual(Object.keys(COURT_EVENTS).sort());
  });

  it("gives every followed event a pushed type or something it makes stale", () => {
    for (const [name, e] of Object.entries(COURT_EVENTS)) {
      expect(e.type !== null || e.stale.length > 0, name).toBe(true);
      if (e.type) expect(EVENT_TYPES).toContain(e.type);
      const args = { caseAddr: "0xc", agent: "0xa", judge: "0xj", party: "0xp", jobId: 1n };
      if (e.stale.length > 0) expect(keysForEvent({ eventName: name, args }).length, name).toBeGreaterThan(0);
    }
  });

  it("is the docs' event table: every pushed type is documented", () => {
    const docs = readFileSync(new URL("../../docs/events.md", import.meta.url), "utf8");
    for (const type of EVENT_TYPES) expect(docs, type).toContain(`\`${type}\``);
  });
});
