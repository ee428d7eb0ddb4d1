import { type Chain, getAddress } from "viem";
import type { Config } from "../config.js";
import { ConfigError } from "../config.js";
import type { Arbitration, ChainAccess } from "./access.js";
import { MULTICALL3_ADDRESS, makeChain, makePublicClient } from "./client.js";
import { type Deployment, readDeployment } from "./deployments.js";
import { probeErc8004 } from "./erc8004.js";
import type { RpcLimits } from "./transport.js";

/**
 * A chain docket runs itself (the embedded dev chain, booted by the composition root): the chain
 * docket reads, the JSON-RPC wallets reach it at, and what was deployed on it.
 */
export interface OwnChain {
  chain: Chain;
  rpcUrl: string;
  deployment: Deployment;
}

/**
 * Connects to the chain the config names (RPC_URL), or to `own`, the dev chain the composition root
 * booted when RPC_URL is unset. Bad configuration fails here, at start, with one clear line.
 * `close` closes nothing of `own`: whoever booted it stops it.
 */
export async function connectChain(config: Config, own?: OwnChain): Promise<ChainAccess> {
  const limits = rpcLimits(config);
  if (own) {
    const { deployment } = own;
    return {
      definition: own.chain,
      chainId: own.chain.id,
      reader: makePublicClient(own.chain, { limits }),
      limits,
      factory: deployment.factory,
      registry: deployment.registry,
      hasMulticall3: true,
      erc8004: deployment.erc8004
        ? { enabled: true, ...deployment.erc8004 }
        : { enabled: false, reason: "the dev chain was deployed without ERC-8004 registries" },
      arbitration: deployment.arbitration,
      publicRpcUrl: own.rpcUrl,
      close: async () => {},
    };
  }
  if (!config.RPC_URL) throw new ConfigError("RPC_URL is not set: name the chain to connect to");
  const rpcUrl = [config.RPC_URL, config.RPC_URLS ?? ""]
    .flatMap((v) => v.split(","))
    .map((u) => u.trim())
    .filter(Boolean);
  let chainId = config.CHAIN_ID;
  if (chainId === undefined) {
    const probe = makePublicClient(makeChain(1, rpcUrl), { limits });
    try {
      chainId = await probe.getChainId();
    } catch (err) {
      throw new ConfigError(`cannot reach RPC_URL to read its chain id: ${(err as Error).message.split("\n")[0]}`);
    }
  }
  const fromFile = readDeployment(chainId, config.DEPLOYMENTS_DIR);
  const factory = config.FACTORY_ADDRESS ?? fromFile?.factory;
  const registry = config.REGISTRY_ADDRESS ?? fromFile?.registry;
  if (!factory || !registry) {
    throw new ConfigError(
      `RPC_URL is set but no court addresses: set FACTORY_ADDRESS and REGISTRY_ADDRESS, or deploy with \`npm run deploy\` (writes ${config.DEPLOYMENTS_DIR}/${chainId}.json)`,
    );
  }
  // Detected once: without Multicall3 at its canonical address, reads go call by call.
  let hasMulticall3 = true;
  try {
    const probe = makePublicClient(makeChain(chainId, rpcUrl, { multicall3: false }), { limits });
    hasMulticall3 = ((await probe.getCode({ address: MULTICALL3_ADDRESS })) ?? "0x") !== "0x";
  } catch {
    // Unreachable right now: assume the usual (Multicall3 is on nearly every chain); reads will say if not.
  }
  const chain = makeChain(chainId, rpcUrl, { multicall3: hasMulticall3, name: config.CHAIN_NAME });
  const reader = makePublicClient(chain, { limits });
  return {
    definition: chain,
    chainId,
    hasMulticall3,
    reader,
    limits,
    factory: getAddress(factory),
    registry: getAddress(registry),
    erc8004: await probeErc8004(reader, getAddress(registry), config),
    arbitration: arbitrationFromConfig(config) ?? fromFile?.arbitration,
    close: async () => {},
  };
}

/** The arbitration contracts the config names (ARBITRATOR_ADDRESS, JOBS_ADDRESS, JOBS_TOKEN_ADDRESS, EVALUATORS), if all are set. */
export function arbitrationFromConfig(config: Config): Arbitration | undefined {
  const { ARBITRATOR_ADDRESS, JOBS_ADDRESS, JOBS_TOKEN_ADDRESS, EVALUATORS } = config;
  if (!ARBITRATOR_ADDRESS && !JOBS_ADDRESS && !JOBS_TOKEN_ADDRESS && !EVALUATORS) return undefined;
  if (!ARBITRATOR_ADDRESS || !JOBS_ADDRESS || !JOBS_TOKEN_ADDRESS || !EVALUATORS) {
    throw new ConfigError(
      "arbitration needs all of ARBITRATOR_ADDRESS, JOBS_ADDRESS, JOBS_TOKEN_ADDRESS and EVALUATORS (or none of them)",
    );
  }
  return {
    arbitrator: getAddress(ARBITRATOR_ADDRESS),
    commerce: getAddress(JOBS_ADDRESS),
    token: getAddress(JOBS_TOKEN_ADDRESS),
    evaluators: EVALUATORS.split(",").map((pair) => {
      const [court, address] = pair.trim().split(":") as [string, string];
      return { courtId: Number(court), address: getAddress(address) };
    }),
  };
}

/** The provider limits the config sets (RPC_TIMEOUT_MS, RPC_BATCH_MAX, RPC_LOGS_RANGE_MAX, RPC_RETRY_BUDGET_MS). */
export function rpcLimits(config: Config): RpcLimits {
  return {
    timeoutMs: config.RPC_TIMEOUT_MS,
    batchMax: config.RPC_BATCH_MAX,
    logsRangeMax: config.RPC_LOGS_RANGE_MAX,
    retryBudgetMs: config.RPC_RETRY_BUDGET_MS,
  };
}
