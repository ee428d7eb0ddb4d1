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
import { type CourtContract, FOLLOWED_EVENTS, IGNORED_EVENTS, unplaced } from "../../src/chain/contractEvents.js";
import { courtEvents } from "../../src/chain/courtLogs.js";
import { EVENT_TYPES, PUSHED_AS } from "../../src/events/types.js";
import { keysForEvent, STALE_BY_EVENT } from "../../src/freshness/stale.js";

type Abi = readonly { type: string; name?: string; inputs?: readonly { name?: string }[] }[];

const ABI_OF: Record<CourtContract, Abi> = {
  factory: caseFactoryAbi,
  registry: courtRegistryAbi,
  case: disputeCaseAbi,
  arbitrator: docketArbitratorAbi,
  commerce: agenticCommerceAbi,
  evaluator: courtEvaluatorAbi,
};
const eventNames = (abi: Abi) => abi.filter((x) => x.type === "event").map((x) => x.name as string);
const followed = Object.entries(FOLLOWED_EVENTS) as [keyof typeof FOLLOWED_EVENTS, { contract: CourtContract }][];

/**
 * The contract events docket follows (src/chain/contractEvents.ts), the types it pushes for them
 * (src/events/types.ts) and what they make stale (src/freshness/stale.ts): three tables keyed by
 * the same events, which must not drift apart.
 */
describe("the contract events docket follows", () => {
  for (const contract of Object.keys(ABI_OF) as CourtContract[]) {
    it(`places every ${contract} event of the generated ABI: followed, or ignored with a reason`, () => {
      expect(unplaced(contract, ABI_OF[contract])).toEqual([]);
    });
  }

  it("fails on a contract event nobody mapped", () => {
    const grown = [...disputeCaseAbi, { type: "event", name: "JudgeFellAsleep", inputs: [], anonymous: false }];
    expect(unplaced("case", grown)).toEqual(["JudgeFellAsleep"]);
  });

  it("names only events its contract has, and the follower asks for exactly the followed ones", () => {
    for (const [name, e] of followed) expect(eventNames(ABI_OF[e.contract])).toContain(name);
    for (const [contract, ignored] of Object.entries(IGNORED_EVENTS)) {
      for (const name of Object.keys(ignored)) expect(eventNames(ABI_OF[contract as CourtContract])).toContain(name);
    }
    expect(courtEvents.map((e) => e.name).sort()).toEqual(Object.keys(FOLLOWED_EVENTS).sort());
  });

  it("gives every followed event a push type and a freshness row, and nothing else one", () => {
    expect(Object.keys(PUSHED_AS)).toEqual(Object.keys(FOLLOWED_EVENTS));
    expect(Object.keys(STALE_BY_EVENT)).toEqual(Object.keys(FOLLOWED_EVENTS));
  });

  it("gives every followed event a pushed type or something it makes stale", () => {
    for (const [name, e] of followed) {
      const row = STALE_BY_EVENT[name];
      const type = PUSHED_AS[name];
      expect(type !== null || Object.keys(row).length > 0, name).toBe(true);
      if (type) expect(EVENT_TYPES).toContain(type);
      // Every argument a row names is one the event carries, so a mined log always names what went stale.
      const inputs = ABI_OF[e.contract].find((x) => x.type === "event" && x.name === name)?.inputs ?? [];
      const args = Object.fromEntries(inputs.map((x) => [x.name, `0x${x.name}`]));
      for (const arg of Object.values(row))
        if (arg !== true) expect(Object.keys(args), `${name}.${arg}`).toContain(arg);
      if (Object.keys(row).length > 0) expect(keysForEvent({ eventName: name, args }).length, name).toBeGreaterThan(0);
    }
  });

  it("is the docs' event table: every pushed type is documented", () => {
    const docs = readFileSync(new URL("../../docs/events.md", import.meta.url), "utf8");
    for (const type of EVENT_TYPES) expect(docs, type).toContain(`\`${type}\``);
  });
});
