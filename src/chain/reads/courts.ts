import { caseFactoryAbi, courtRegistryAbi } from "../abi/generated.js";
import type { Court } from "../access.js";

export async function readParams(court: Court) {
  return court.reader.readContract({ address: court.factory, abi: caseFactoryAbi, functionName: "getParams" });
}

export type CourtParamsView = Awaited<ReturnType<typeof readParams>>;

/** Every court (a tree of at most 64), in id order, the General court first: one eth_call. */
export async function readCourts(court: Court) {
  return court.reader.readContract({ address: court.registry, abi: courtRegistryAbi, functionName: "getCourts" });
}

export type CourtView = Awaited<ReturnType<typeof readCourts>>[number];
