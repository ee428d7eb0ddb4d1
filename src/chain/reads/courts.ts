import { caseFactoryAbi, courtRegistryAbi } from "../abi/generated.js";
import type { ChainAccess } from "../access.js";

export async function readParams(chain: ChainAccess) {
  return chain.reader.readContract({ address: chain.factory, abi: caseFactoryAbi, functionName: "getParams" });
}

export type CourtParamsView = Awaited<ReturnType<typeof readParams>>;

/** Every court (a tree of at most 64), in id order, the General court first: one eth_call. */
export async function readCourts(chain: ChainAccess) {
  return chain.reader.readContract({ address: chain.registry, abi: courtRegistryAbi, functionName: "getCourts" });
}

export type CourtView = Awaited<ReturnType<typeof readCourts>>[number];
