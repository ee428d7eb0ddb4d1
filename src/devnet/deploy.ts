import {
  type Account,
  type Address,
  type Chain,
  getAddress,
  type Hex,
  type PublicClient,
  type WalletClient,
} from "viem";
import {
  blockhashEntropyAbi,
  blockhashEntropyBytecode,
  caseFactoryAbi,
  caseFactoryBytecode,
  courtRegistryAbi,
  courtRegistryBytecode,
} from "../chain/abi/generated.js";
import type { Erc8004Deployment } from "./erc8004.js";
import { type CourtParams, caseTerms } from "./terms.js";

export interface Deployment {
  chainId: number;
  registry: Address;
  factory: Address;
  /** The draw entropy source the factory was deployed with. */
  entropy: Address;
  deployer: Address;
  deployedAtBlock: string;
  /** ERC-8004 registries and the court's reporter to them, when deployed (src/devnet/erc8004.ts). */
  erc8004?: Erc8004Deployment;
}

/**
 * Deploys CourtRegistry, the draw entropy source (BlockhashEntropy unless `entropy` names another,
 * e.g. a VRF adapter) and CaseFactory, and links them. Used by the dev chain and by
 * `npm run deploy` alike, so a real chain gets exactly what the tests exercise.
 */
export async function deployCourt(
  wallet: WalletClient,
  reader: PublicClient,
  params: CourtParams,
  feeRecipient?: Address,
  entropy?: Address,
): Promise<Deployment> {
  const account = wallet.account as Account;
  const chain = wallet.chain as Chain;
  const mined = async (hash: Hex) => {
    const r = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (r.status !== "success") throw new Error(`deployment transaction ${hash} reverted`);
    return r;
  };

  const registryReceipt = await mined(
    await wallet.deployContract({
      abi: courtRegistryAbi,
      bytecode: courtRegistryBytecode,
      args: [params.minJudgeStake, params.slashBps],
      account,
      chain,
    }),
  );
  const registry = getAddress(registryReceipt.contractAddress as Address);
  const entropyAddress =
    entropy ??
    getAddress(
      (
        await mined(
          await wallet.deployContract({ abi: blockhashEntropyAbi, bytecode: blockhashEntropyBytecode, account, chain }),
        )
      ).contractAddress as Address,
    );
  const factoryReceipt = await mined(
    await wallet.deployContract({
      abi: caseFactoryAbi,
      bytecode: caseFactoryBytecode,
      args: [registry, entropyAddress, feeRecipient ?? account.address, params.filingFee, caseTerms(params)],
      account,
      chain,
    }),
  );
  const factory = getAddress(factoryReceipt.contractAddress as Address);
  await mined(
    await wallet.writeContract({
      address: registry,
      abi: courtRegistryAbi,
      functionName: "setFactory",
      args: [factory],
      account,
      chain,
    }),
  );
  return {
    chainId: chain.id,
    registry,
    factory,
    entropy: entropyAddress,
    deployer: account.address,
    deployedAtBlock: registryReceipt.blockNumber.toString(),
  };
}
