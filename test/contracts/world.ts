/**
 * The world the view tests read: registered agents, a judge pool with one judge slashed below
 * the minimum, and one case left in each state, built by the same transitions every time.
 */
import { type Address, parseEther } from "viem";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";

export interface WorldCase {
  label: string;
  addr: Address;
  state: number;
}

export interface World {
  /** Every case filed, in filing order, with the state it was left in. */
  cases: WorldCase[];
  party(i: number): Actor;
  /** Judges are mnemonic accounts 7..17: judge(0) is account 7. */
  judge(i: number): Actor;
  byLabel(label: string): Address;
  /** Records a transition a test made, so `expectedOpen` stays right. */
  leave(addr: Address, state: number): void;
  /** Open = can still change: not defaulted, dismissed or settled. */
  expectedOpen(): Promise<Address[]>;
}

const openStates: number[] = [kit.State.Summoned, kit.State.Active, kit.State.Deliberating, kit.State.Appealed];

/**
 * Agents 1, 2, 3, 5, 6 and judge 0 register (4 stays unregistered but earns a party record).
 * Judges 0..9 stake distinct amounts; judge 10 stakes exactly the minimum and, slashed as a
 * no-show, stays in the pool but is no longer eligible.
 */
export async function buildWorld(c: kit.CourtDeployment): Promise<World> {
  const cases: WorldCase[] = [];
  const party = (i: number) => kit.actor(c, i);
  const judge = (i: number) => kit.actor(c, 7 + i);
  const leave = (addr: Address, state: number) => {
    const entry = cases.find((x) => x.addr === addr);
    if (entry) entry.state = state;
  };
  const file = async (label: string, p: Actor, d: Actor): Promise<Address> => {
    const { caseAddr } = await kit.fileCase(c, p, d.address, {
      claim: `Claim ${label}: the goods did not match the order.`,
      evidence: `bafy-${label}`,
      stake: kit.P.minPartyStake + BigInt(cases.length),
    });
    cases.push({ label, addr: caseAddr, state: kit.State.Summoned });
    return caseAddr;
  };

  // Agents 1..6 register; 4 stays unregistered but still earns a party record.
  for (const i of [1, 2, 3, 5, 6]) {
    await party(i).write({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "selfRegister",
      args: [`agent-${i}`, `https://agents.example.org/${i}.json`],
    });
  }
  for (let i = 0; i < 10; i++) {
    await judge(i).write({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "stakeAsJudge",
      args: [0n],
      value: parseEther("1") + BigInt(i) * 1000n,
    });
  }
  await judge(10).write({
    address: c.registry,
    abi: kit.courtRegistryAbi,
    functionName: "stakeAsJudge",
    args: [0n],
    value: kit.P.minJudgeStake,
  });
  await judge(0).write({
    address: c.registry,
    abi: kit.courtRegistryAbi,
    functionName: "selfRegister",
    args: ["judge-0", ""],
  });

  // Cases that need time to pass first, then one jump ends them all.
  const defaulted = await file("defaulted", party(1), party(4));
  const dismissed = await kit.deliberating(c, party(2), party(3), [judge(10), judge(1), judge(2)]);
  cases.push({ label: "dismissed", addr: dismissed, state: kit.State.Deliberating });
  await kit.vote(dismissed, judge(1), true);
  const settled = await file("settled", party(5), party(6));
  await kit.respond(settled, party(6));
  await kit.seat(c, settled, [judge(3), judge(4), judge(5)]);
  await kit.vote(settled, judge(3), false);
  await kit.vote(settled, judge(4), false);
  await kit.advance(c, kit.P.deliberationPeriod + 1n);
  await kit.triggerDefault(defaulted, c.owner);
  leave(defaulted, kit.State.Defaulted);
  await kit.resolveAfterDeadline(dismissed, c.owner);
  leave(dismissed, kit.State.Dismissed);
  await kit.settle(settled, c.owner);
  leave(settled, kit.State.Resolved);

  const final = await file("appeal-decided", party(1), party(2));
  await kit.respond(final, party(2));
  await kit.seat(c, final, [judge(0), judge(1), judge(2)]);
  await kit.vote(final, judge(0), true);
  await kit.vote(final, judge(1), true);
  await kit.appeal(final, party(2));
  await kit.seat(c, final, [judge(3), judge(4), judge(5), judge(6), judge(7)]);
  for (const j of [judge(3), judge(4), judge(5)]) await kit.vote(final, j, true);
  leave(final, kit.State.Resolved);

  const appealed = await file("appealed", party(3), party(5));
  await kit.respond(appealed, party(5));
  await kit.seat(c, appealed, [judge(6), judge(7), judge(8)]);
  await kit.vote(appealed, judge(6), false);
  await kit.vote(appealed, judge(8), false);
  await kit.appeal(appealed, party(3));
  leave(appealed, kit.State.Appealed);

  const resolved = await file("resolved", party(6), party(1));
  await kit.respond(resolved, party(1));
  await kit.seat(c, resolved, [judge(0), judge(4), judge(9)]);
  await kit.vote(resolved, judge(9), true);
  await kit.vote(resolved, judge(0), true);
  leave(resolved, kit.State.Resolved);

  const delib = await file("deliberating", party(2), party(6));
  await kit.respond(delib, party(6));
  await kit.seat(c, delib, [judge(1), judge(5), judge(7)]);
  await kit.vote(delib, judge(5), false);
  leave(delib, kit.State.Deliberating);

  const active = await file("active", party(4), party(5));
  await kit.respond(active, party(5), kit.P.minPartyStake * 3n);
  await party(4).write({
    address: active,
    abi: kit.disputeCaseAbi,
    functionName: "submitEvidence",
    args: ["bafy-more"],
  });
  leave(active, kit.State.Active);

  await file("summoned", party(6), party(3));

  return {
    cases,
    party,
    judge,
    leave,
    byLabel: (label) => {
      const found = cases.find((x) => x.label === label);
      if (!found) throw new Error(`no case labelled ${label}`);
      return found.addr;
    },
    expectedOpen: async () => {
      const out: Address[] = [];
      for (const x of cases) {
        if (openStates.includes(x.state)) out.push(x.addr);
        else if (x.state === kit.State.Resolved && !(await kit.readCase(c, x.addr)).settled) out.push(x.addr);
      }
      return out;
    },
  };
}
