import { type Chain, createPublicClient, defineChain, fallback, http, type PublicClient, type Transport } from "viem";

/** Multicall3's address, the same on nearly every EVM chain (and installed on the dev chain). */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;

/** A chain definition; without Multicall3 (a bare chain), reads are made one call at a time. */
export function makeChain(chainId: number, rpcUrl: string | string[], opts: { multicall3?: boolean } = {}): Chain {
  return defineChain({
    id: chainId,
    name: chainId === 31337 ? "docket dev chain" : `chain ${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: Array.isArray(rpcUrl) ? rpcUrl : [rpcUrl] } },
    ...(opts.multicall3 === false ? {} : { contracts: { multicall3: { address: MULTICALL3_ADDRESS } } }),
  });
}

/**
 * The read client: reads made in the same tick are folded into one Multicall3 `eth_call`,
 * and a failed request is not retried (a revert would otherwise cost a second of retries).
 */
export function makePublicClient(
  chain: Chain,
  opts: {
    timeoutMs?: number;
    transport?: Transport /** Send requests made in one tick as one JSON-RPC batch. */;
    batch?: boolean;
  } = {},
): PublicClient {
  const urls = chain.rpcUrls.default.http;
  const one = (url: string) =>
    http(url, { retryCount: 0, timeout: opts.timeoutMs ?? 5_000, ...(opts.batch ? { batch: { wait: 0 } } : {}) });
  // Several endpoints: each request goes to the first that answers (viem's fallback transport).
  const transport = urls.length > 1 ? fallback(urls.map(one), { retryCount: 0 }) : one(urls[0] as string);
  return createPublicClient({
    chain,
    transport: opts.transport ?? transport,
    ...(chain.contracts?.multicall3 ? { batch: { multicall: { wait: 0 } } } : {}),
    cacheTime: 0,
  }) as PublicClient;
}
