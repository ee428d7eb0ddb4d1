/** Agent reads: one registered agent, a page of them. */
import type { Address } from "viem";
import { courtRegistryAbi } from "../abi/generated.js";
import type { Court } from "../access.js";
import { readPage } from "./core.js";

export async function readAgent(court: Court, who: Address) {
  return court.reader.readContract({
    address: court.registry,
    abi: courtRegistryAbi,
    functionName: "getAgent",
    args: [who],
  });
}

/** A page of the registered agents. */
export async function readAgents(court: Court, offset: number, limit: number) {
  return readPage(court, { address: court.registry, abi: courtRegistryAbi }, "getAgents", offset, limit);
}

export type AgentView = Awaited<ReturnType<typeof readAgent>>;
