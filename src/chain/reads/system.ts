import { caseFactoryAbi, courtRegistryAbi, multicall3Abi } from "../abi/generated.js";
import type { ChainAccess } from "../access.js";
import { MULTICALL3_ADDRESS } from "../client.js";

/** Court parameters, registry overview, case counts, every court and the block number, in one multicall. */
export async function readOverview(chain: ChainAccess) {
  if (!chain.hasMulticall3) {
    const [params, stats, overview, courts, blockNumber] = await Promise.all([
      chain.reader.readContract({ address: chain.factory, abi: caseFactoryAbi, functionName: "getParams" }),
      chain.reader.readContract({ address: chain.factory, abi: caseFactoryAbi, functionName: "getStats" }),
      chain.reader.readContract({ address: chain.registry, abi: courtRegistryAbi, functionName: "getOverview" }),
      chain.reader.readContract({ address: chain.registry, abi: courtRegistryAbi, functionName: "getCourts" }),
      chain.reader.getBlockNumber({ cacheTime: 0 }),
    ]);
    return { params, stats, overview, courts, blockNumber };
  }
  const [params, stats, overview, courts, blockNumber] = await chain.reader.multicall({
    allowFailure: false,
    contracts: [
      { address: chain.factory, abi: caseFactoryAbi, functionName: "getParams" },
      { address: chain.factory, abi: caseFactoryAbi, functionName: "getStats" },
      { address: chain.registry, abi: courtRegistryAbi, functionName: "getOverview" },
      { address: chain.registry, abi: courtRegistryAbi, functionName: "getCourts" },
      { address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getBlockNumber" },
    ],
  });
  return { params, stats, overview, courts, blockNumber };
}
