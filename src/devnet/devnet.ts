import { type Chain, createWalletClient, http, type PublicClient } from "viem";
import { multicall3Bytecode } from "../chain/abi/generated.js";
import { MULTICALL3_ADDRESS, makeChain, makePublicClient } from "../chain/client.js";
import type { Deployment } from "../chain/deployments.js";
import { deployArbitration } from "../deploy/arbitration.js";
import { createChildCourts, deployCourt, deployTestFeeToken } from "../deploy/deploy.js";
import { deployErc8004 } from "../deploy/erc8004.js";
import {
  type ChildCourt,
  type CourtParams,
  DEV_CHALLENGE_WINDOW,
  DEV_TOKEN_FILING_FEE,
  devChildCourts,
  devPublicParams,
} from "../deploy/terms.js";
import type { EvidencePublisher } from "../evidence/store.js";
import { type AnvilProcess, DEV_CHAIN_ID, startAnvil } from "./anvil.js";
import { type DevAccount, devAccount, devAccounts } from "./devAccounts.js";
import { publishPolicies } from "./evidence.js";
import { type SeedSummary, seedDemo } from "./seed.js";
import { BLOCK_INTERVAL, startTimeTravelProxy, type TimeTravelProxy } from "./timeTravel.js";

export interface Devnet {
  /**
   * The dev chain's JSON-RPC for everyone else (printed, `publicRpcUrl`, wallets, a user's tests):
   * anvil behind the time-travel proxy, where `evm_increaseTime` moves the next block's time.
   */
  rpcUrl: string;
  /** anvil itself: docket's own reads and the seed (`chain`, `reader`); time travel only by `advanceTime`. */
  nodeUrl: string;
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
  /** The public JSON-RPC port (the time-travel proxy's); anvil itself listens on a free one. */
  port?: number;
  /** The General court's terms (default: devPublicParams, public votes). */
  params?: CourtParams;
  /** Courts to create below the General court (default: the dev world's, Agentic Commerce). */
  courts?: ChildCourt[];
  /** The genesis block's timestamp (default: the wall clock); tests start a chain behind it. */
  genesisTimestamp?: number;
  /** Where the seed publishes its cases' evidence (docket's own store; by default one in memory). */
  evidence?: EvidencePublisher;
  /** Another chain id than the dev chain's 31337 (tests of what docket says on a chain x402 v1 names). */
  chainId?: number;
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
  const chainId = opts.chainId ?? DEV_CHAIN_ID;
  const anvil: AnvilProcess = await startAnvil({ timestamp: opts.genesisTimestamp, chainId });
  let proxy: TimeTravelProxy | undefined;
  try {
    const chain = makeChain(chainId, anvil.rpcUrl, { name: "docket dev chain" });
    const reader = makePublicClient(chain);
    await installMulticall3(reader);
    // Each block one second after the last, never two in the same second: a gas estimate is made
    // in the block anvil would mine now, and a transaction mined a second later would otherwise see
    // another timestamp (a deadline written back unchanged costs less than a new one, and a wallet
    // sending the bare estimate runs out of gas). The proxy makes evm_increaseTime work under it.
    // biome-ignore lint/suspicious/noExplicitAny: anvil methods are not in viem's public schema
    await (reader.request as any)({ method: "anvil_setBlockTimestampInterval", params: [BLOCK_INTERVAL] });
    proxy = await startTimeTravelProxy(anvil.rpcUrl, { port: opts.port });
    const court = devAccount(0);
    const wallet = createWalletClient({
      account: court.account,
      chain,
      transport: http(anvil.rpcUrl, { retryCount: 0 }),
    });
    // The General court votes in the open by default (the service interface's vote); its children keep their own terms.
    const deployed = await deployCourt(wallet, reader, opts.params ?? devPublicParams, undefined, undefined, true);
    // After the court, so its addresses stay what they always were: the ERC-8004 registries, then the fee token.
    const erc8004 = await deployErc8004(wallet, reader, deployed.registry);
    const feeToken = await deployTestFeeToken(wallet, reader, deployed.factory, DEV_TOKEN_FILING_FEE);
    // The courts below the General court last, for the same reason.
    const courts = await createChildCourts(wallet, reader, deployed, opts.courts ?? devChildCourts);
    // Agent commerce last of all: the arbitrator, a job escrow paid in the fee token, an evaluator per court.
    const arbitration = await deployArbitration(wallet, reader, {
      factory: deployed.factory,
      registry: deployed.registry,
      identity: erc8004.identity,
      token: feeToken,
      evaluators: courts.map((c) => ({ courtId: c.id, challengeWindow: DEV_CHALLENGE_WINDOW })),
    });
    const deployment: Deployment = { ...deployed, erc8004, feeToken, courts, arbitration };
    // The courts' policies are evidence too: published where the seed's documents go, by the CIDs the courts record.
    if (opts.evidence)
      await publishPolicies(opts.evidence, ["general.md", ...(opts.courts ?? devChildCourts).map((c) => c.policyFile)]);
    const seed = opts.seed === false ? undefined : await seedDemo(reader, chain, deployment, opts.evidence);
    const front = proxy;
    return {
      rpcUrl: front.url,
      nodeUrl: anvil.rpcUrl,
      chainId,
      chain,
      reader,
      deployment,
      accounts: devAccounts(),
      seed,
      stop: async () => {
        await front.close();
        await anvil.stop();
      },
    };
  } catch (err) {
    await proxy?.close();
    await anvil.stop();
    throw err;
  }
}
