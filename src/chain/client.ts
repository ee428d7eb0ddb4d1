import {
  type Abi,
  type Address,
  type Chain,
  type ContractFunctionArgs,
  type ContractFunctionName,
  createPublicClient,
  defineChain,
  type PublicClient,
  type Transport,
} from "viem";
import { DEFAULT_RPC_LIMITS, type RpcLimits, strictTransport } from "./transport.js";

/** Multicall3's address, the same on nearly every EVM chain (and installed on the dev chain). */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;

/**
 * A chain definition; without Multicall3 (a bare chain), reads are made one call at a time. The name
 * is what the node or the config says it is (an id alone names nothing: 31337 is any local node's).
 */
export function makeChain(
  chainId: number,
  rpcUrl: string | string[],
  opts: { multicall3?: boolean; name?: string } = {},
): Chain {
  return defineChain({
    id: chainId,
    name: opts.name ?? `chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: Array.isArray(rpcUrl) ? rpcUrl : [rpcUrl] } },
    ...(opts.multicall3 === false ? {} : { contracts: { multicall3: { address: MULTICALL3_ADDRESS } } }),
  });
}

/**
 * The read client: reads made in the same tick are folded into one Multicall3 `eth_call` (when the
 * chain has it). Requests go through `strictTransport`: batches split at RPC_BATCH_MAX, transient
 * failures (429, Retry-After, timeouts) retried within RPC_RETRY_BUDGET_MS, never a revert.
 */
export function makePublicClient(
  chain: Chain,
  opts: {
    timeoutMs?: number;
    limits?: RpcLimits;
    transport?: Transport /** Send requests made in one tick as JSON-RPC batches (of RPC_BATCH_MAX at most). */;
    batch?: boolean;
  } = {},
): PublicClient {
  const limits = { ...(opts.limits ?? DEFAULT_RPC_LIMITS), ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) };
  const transport = opts.transport ?? strictTransport(chain.rpcUrls.default.http, limits, { batch: opts.batch });
  return createPublicClient({
    chain,
    transport,
    ...(chain.contracts?.multicall3 ? { batch: { multicall: { wait: 0 } } } : {}),
    cacheTime: 0,
  }) as PublicClient;
}

/** What a state-changing call of a contract function is, typed by the contract's ABI (for whoever signs it). */
export interface ContractCall<abi extends Abi, name extends ContractFunctionName<abi, "payable" | "nonpayable">> {
  address: Address;
  abi: abi;
  functionName: name;
  args?: ContractFunctionArgs<abi, "payable" | "nonpayable", name>;
  value?: bigint;
}
