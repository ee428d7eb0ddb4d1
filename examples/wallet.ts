/**
 * The examples' own wallet: a viem account from PRIVATE_KEY (the key never leaves this process)
 * and clients on the chain docket serves. The JSON-RPC URL comes from RPC_URL, or from docket's
 * /health, which reports the dev chain's.
 */
import { createPublicClient, createWalletClient, defineChain, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export async function connectWallet(docket: string, role: string) {
  const key = process.env.PRIVATE_KEY as Hex | undefined;
  if (!key) throw new Error(`set PRIVATE_KEY (${role} printed by \`npm start\`)`);
  const health = (await (await fetch(`${docket}/health`)).json()) as { rpcUrl?: string; chainId: number };
  const rpcUrl = process.env.RPC_URL ?? health.rpcUrl;
  if (!rpcUrl) throw new Error("no JSON-RPC URL: set RPC_URL");
  const chain = defineChain({
    id: health.chainId,
    name: `chain ${health.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const account = privateKeyToAccount(key);
  return {
    chain,
    account,
    wallet: createWalletClient({ account, chain, transport: http(rpcUrl) }),
    reader: createPublicClient({ chain, transport: http(rpcUrl) }),
  };
}
