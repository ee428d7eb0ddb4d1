import { type AbiEvent, type Address, type Hex, isAddressEqual } from "viem";
import {
  agenticCommerceAbi,
  caseFactoryAbi,
  courtEvaluatorAbi,
  courtRegistryAbi,
  disputeCaseAbi,
  docketArbitratorAbi,
} from "./abi/generated.js";
import type { ChainAccess } from "./access.js";
import { type CourtContract, followedOf } from "./contractEvents.js";

const eventsOf = (abi: readonly { type: string; name?: string }[], contract: CourtContract) => {
  const followed = new Set<string>(followedOf(contract));
  return abi.filter((x): x is AbiEvent => x.type === "event" && followed.has(x.name as string));
};

// Which events of each contract: contractEvents.ts says, and why the others are not.
const factoryEvents = eventsOf(caseFactoryAbi, "factory");
const registryEvents = eventsOf(courtRegistryAbi, "registry");
const caseEvents = eventsOf(disputeCaseAbi, "case");
const arbitratorEvents = eventsOf(docketArbitratorAbi, "arbitrator");
const commerceEvents = eventsOf(agenticCommerceAbi, "commerce");
const evaluatorEvents = eventsOf(courtEvaluatorAbi, "evaluator");

/** Every event the follower asks the node for: one eth_getLogs, by topic0, over every address. */
export const courtEvents: readonly AbiEvent[] = [
  ...factoryEvents,
  ...registryEvents,
  ...caseEvents,
  ...arbitratorEvents,
  ...commerceEvents,
  ...evaluatorEvents,
];

const names = (events: readonly AbiEvent[]) => new Set(events.map((e) => e.name));
const FACTORY = names(factoryEvents);
const REGISTRY = names(registryEvents);
const CASE = names(caseEvents);
const ARBITRATOR = names(arbitratorEvents);
const COMMERCE = names(commerceEvents);
const EVALUATOR = names(evaluatorEvents);

/** A mined court event, decoded, from a contract the court vouches for. */
export interface CourtLog {
  address: Address;
  eventName: string;
  args: Record<string, unknown>;
  blockNumber: bigint;
  blockHash: Hex;
  logIndex: number;
  transactionHash: Hex;
  /** The block's time, when the node puts it in its logs (anvil, geth 1.16+, reth do): saves reading headers. */
  blockTimestamp?: bigint | null;
}

interface DecodedLog {
  address: Address;
  eventName?: string;
  args?: unknown;
  blockNumber: bigint | null;
  blockHash: Hex | null;
  logIndex: number | null;
  transactionHash: Hex | null;
}

/**
 * Keeps the logs that are the court's own. Any contract may emit a log with the signature of a
 * court event, so: the factory's events count only from the factory and the registry's only from
 * the registry; a case's event counts only when the same transaction carries the factory's
 * `CaseChanged` for that address. Every change of a case reports itself to the factory, which
 * emits `CaseChanged` only for a contract it created, so a foreign contract can never be vouched
 * for (even inside a transaction that also changes a real case). Arbitration's events count only
 * from the arbitrator, the job contract and docket's evaluators the court names.
 */
export function authenticLogs(
  logs: readonly DecodedLog[],
  chain: Pick<ChainAccess, "factory" | "registry" | "arbitration">,
): CourtLog[] {
  const mined = logs.filter(
    (l): l is DecodedLog & CourtLog =>
      l.blockNumber !== null && l.blockHash !== null && l.logIndex !== null && l.transactionHash !== null,
  );
  const vouched = new Set<string>();
  for (const l of mined) {
    if (l.eventName === "CaseChanged" && isAddressEqual(l.address, chain.factory)) {
      vouched.add(`${l.transactionHash}:${String(l.args.caseAddr).toLowerCase()}`);
    }
  }
  return mined.filter((l) => {
    if (isAddressEqual(l.address, chain.factory)) return FACTORY.has(l.eventName);
    if (isAddressEqual(l.address, chain.registry)) return REGISTRY.has(l.eventName);
    const a = chain.arbitration;
    if (a) {
      if (isAddressEqual(l.address, a.arbitrator)) return ARBITRATOR.has(l.eventName);
      if (isAddressEqual(l.address, a.commerce)) return COMMERCE.has(l.eventName);
      if (a.evaluators.some((e) => isAddressEqual(e.address, l.address))) return EVALUATOR.has(l.eventName);
    }
    if (ARBITRATOR.has(l.eventName) || COMMERCE.has(l.eventName) || EVALUATOR.has(l.eventName)) return false;
    return CASE.has(l.eventName) && vouched.has(`${l.transactionHash}:${l.address.toLowerCase()}`);
  });
}
