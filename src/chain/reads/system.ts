import { caseFactoryAbi, courtRegistryAbi, multicall3Abi } from "../abi/generated.js";
import type { Court } from "../access.js";
import { MULTICALL3_ADDRESS } from "../client.js";

/** Court parameters, registry overview, case counts, every court and the block number, in one multicall. */
export async function readOverview(court: Court) {
  if (!court.hasMulticall3) {
    const [params, stats, overview, courts, blockNumber] = await Promise.all([
      court.reader.readContract({ address: court.factory, abi: caseFactoryAbi, functionName: "getParams" }),
      court.reader.readContract({ address: court.factory, abi: caseFactoryAbi, functionName: "getStats" }),
      court.reader.readContract({ address: court.registry, abi: courtRegistryAbi, functionName: "getOverview" }),
      court.reader.readContract({ address: court.registry, abi: courtRegistryAbi, functionName: "getCourts" }),
      court.reader.getBlockNumber({ cacheTime: 0 }),
    ]);
    return { params, stats, overview, courts, blockNumber };
  }
  const [params, stats, overview, courts, blockNumber] = await court.reader.multicall({
    allowFailure: false,
    contracts: [
      { address: court.factory, abi: caseFactoryAbi, functionName: "getParams" },
      { address: court.factory, abi: caseFactoryAbi, functionName: "getStats" },
      { address: court.registry, abi: courtRegistryAbi, functionName: "getOverview" },
      { address: court.registry, abi: courtRegistryAbi, functionName: "getCourts" },
      { address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getBlockNumber" },
    ],
  });
  return { params, stats, overview, courts, blockNumber };
}
