import { type Chain, createWalletClient, http, type PublicClient } from "viem";
import { multicall3Bytecode } from "../chain/abi/generated.js";
import { MULTICALL3_ADDRESS, makeChain, makePublicClient } from "../chain/client.js";
import { type AnvilProcess, DEV_CHAIN_ID, startAnvil } from "./anvil.js";
import { type Deployment, deployCourt } from "./deploy.js";
import { type DevAccount, devAccount, devAccounts } from "./devAccounts.js";
import { type SeedSummary, seedDemo } from "./seed.js";
import { type CourtParams, devParams } from "./terms.js";

export interface Devnet {
  rpcUrl: string;
  chainId: number;
  chain: Chain;
  reader: PublicClient;
  deployment: Deployment;
  accounts: DevAccount[];
  seed?: SeedSummary;
  stop(): Promise<void>;
}

export interface DevnetOptions {
  /** Seed demo agents, judges and cases (default true). */
  seed?: boolean;
  port?: number;
  params?: CourtParams;
}

/** Installs our Multicall3 at the canonical address: the runtime code is what its creation code returns. */
async function installMulticall3(reader: PublicClient): Promise<void> {
  const { data } = await reader.call({ data: multicall3Bytecode });
  // biome-ignore lint/suspicious/noExplicitAny: anvil_setCode is not in viem's public schema
  await (reader.request as any)({ method: "anvil_setCode", params: [MULTICALL3_ADDRESS, data] });
}

/**
 * The embedded dev chain: anvil on a free loopback port, Multicall3, the court contracts and,
 * unless told otherwise, the seeded demo world.
 */
export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const anvil: AnvilProcess = await startAnvil({ port: opts.port });
  try {
    const chain = makeChain(DEV_CHAIN_ID, anvil.rpcUrl);
    const reader = makePublicClient(chain);
    await installMulticall3(reader);
    // Each block one second after the last: anvil would otherwise mine many blocks in the same
    // second, and a gas estimate made in that second would not match the block the transaction
    // lands in (a deadline written back unchanged costs less than a new one).
    // biome-ignore lint/suspicious/noExplicitAny: anvil methods are not in viem's public schema
    await (reader.request as any)({ method: "anvil_setBlockTimestampInterval", params: [1] });
    const court = devAccount(0);
    const wallet = createWalletClient({
      account: court.account,
      chain,
      transport: http(anvil.rpcUrl, { retryCount: 0 }),
    });
    const deployment = await deployCourt(wallet, reader, opts.params ?? devParams);
    const seed = opts.seed === false ? undefined : await seedDemo(reader, chain, deployment);
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: DEV_CHAIN_ID,
      chain,
      reader,
      deployment,
      accounts: devAccounts(),
      seed,
      stop: anvil.stop,
    };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}
