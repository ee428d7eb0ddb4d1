/** Agent reads: one registered agent, a page of them. */
import type { Address } from "viem";
import { courtRegistryAbi } from "../abi/generated.js";
import type { ChainAccess } from "../access.js";
import { readPage } from "./core.js";

export async function readAgent(chain: ChainAccess, who: Address) {
  return chain.reader.readContract({
    address: chain.registry,
    abi: courtRegistryAbi,
    functionName: "getAgent",
    args: [who],
  });
}

/** A page of the registered agents. */
export async function readAgents(chain: ChainAccess, offset: number, limit: number) {
  return readPage(chain, { address: chain.registry, abi: courtRegistryAbi }, "getAgents", offset, limit);
}

export type AgentView = Awaited<ReturnType<typeof readAgent>>;
