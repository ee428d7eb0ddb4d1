/**
 * The one run the invariant fuzz is in: the court's terms, the booted court, the agents, the model
 * of what the chain should hold, the case the next action is aimed at, the log of the steps so far,
 * and what the runs covered. The runner sets it (`setRun`); the planner and the checks read it.
 */

import type { Address } from "viem";
import type { HDAccount } from "viem/accounts";
import type { CourtParams } from "../../../src/deploy/terms.js";
import { type CourtDeployment, P as PUBLIC, State } from "../../contracts/helpers.js";
import { AGENTS } from "./actions.js";
import type { CaseM, CourtModel } from "./model.js";

// ------------------------------------------------------------------ agents

export interface Agent {
  i: number;
  addr: Address;
  /** The key that signs: the account itself, or a refusing contract's operator. */
  signer: HDAccount;
  refuser: boolean;
}

/** The terms of the court the current describe runs on. */
export let P: CourtParams = PUBLIC;
export let c: CourtDeployment;
export let agents: Agent[] = [];
/** The case implementation the factory clones (it must hold nothing). */
export let implementation: Address;
/** What the chain should hold. */
export let model: CourtModel;
/** Set by the prologue and by edge actions to aim the next action at one case. */
export let forcedCase: CaseM | undefined;
/** The steps of the current sequence, printed with a failure. */
export let log: string[] = [];

/** Replaces the parts of the run named in `next`. */
export function setRun(
  next: Partial<{
    P: CourtParams;
    c: CourtDeployment;
    agents: Agent[];
    implementation: Address;
    model: CourtModel;
    forcedCase: CaseM | undefined;
    log: string[];
  }>,
): void {
  if (next.P) P = next.P;
  if (next.c) c = next.c;
  if (next.agents) agents = next.agents;
  if (next.implementation) implementation = next.implementation;
  if ("model" in next) model = next.model as CourtModel;
  if ("forcedCase" in next) forcedCase = next.forcedCase;
  if (next.log) log = next.log;
}

// biome-ignore lint/suspicious/noExplicitAny: anvil methods are not in viem's public schema
type AnvilRequest = (args: { method: string; params: unknown[] }) => Promise<any>;
export const rpc = (method: string, params: unknown[] = []) =>
  (c.reader.request as unknown as AnvilRequest)({ method, params });

export const agent = (i: number): Agent => agents[((i % AGENTS) + AGENTS) % AGENTS] as Agent;
export const tag = (a: Address): string => {
  const found = agents.find((x) => x.addr === a);
  if (found) return found.refuser ? `R${found.i - 20}` : `#${found.i}`;
  return a.slice(0, 8);
};

// ------------------------------------------------------------ bookkeeping

/** What the runs covered, printed at the end. */
export const coverage = {
  sequences: 0,
  actions: 0,
  passed: new Map<string, number>(),
  refused: new Map<string, number>(),
  skipped: 0,
  reached: new Set<string>(),
  transitions: new Map<string, number>(),
  deferred: 0,
  maxCases: 0,
  /** The most gas a successful transaction used, and what it was. */
  maxGas: 0n,
  maxGasWhat: "",
};
export function resetCoverage(): void {
  coverage.actions = 0;
  coverage.passed.clear();
  coverage.refused.clear();
  coverage.skipped = 0;
  coverage.reached.clear();
  coverage.transitions.clear();
  coverage.deferred = 0;
  coverage.maxGas = 0n;
  coverage.maxGasWhat = "";
}
export const stateName = (k: CaseM) =>
  `${Object.keys(State)[k.state]}${k.settled ? "+paid" : ""}${k.round === 2 ? "(r2)" : ""}`;
export const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

export class InvariantError extends Error {}

export function fail(msg: string): never {
  throw new InvariantError(`${msg}\n  last steps:\n    ${log.slice(-20).join("\n    ")}`);
}
export function same(got: unknown, want: unknown, what: string): void {
  if (got !== want) fail(`${what}: chain has ${String(got)}, expected ${String(want)}`);
}
