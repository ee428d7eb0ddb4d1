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
  courtRegistryAbi,
  courtReputationAbi,
  courtReputationBytecode,
  identityRegistryAbi,
  identityRegistryBytecode,
  reputationRegistryAbi,
  reputationRegistryBytecode,
} from "../chain/abi/generated.js";
import type { Erc8004Deployment } from "../chain/deployments.js";
import { minedOn } from "./deploy.js";

/**
 * Deploys CourtReputation against ERC-8004 registries and makes it the court registry's outcome
 * hook (the deployer must own the registry). Registries not given are deployed first: ours, on the
 * dev chain; on a real chain pass the deployed singletons.
 */
export async function deployErc8004(
  wallet: WalletClient,
  reader: PublicClient,
  courtRegistry: Address,
  existing: { identity?: Address; reputation?: Address } = {},
): Promise<Erc8004Deployment> {
  const account = wallet.account as Account;
  const chain = wallet.chain as Chain;
  const mined = minedOn(reader, "ERC-8004 deployment");
  const deploy = async (abi: readonly unknown[], bytecode: Hex, args: readonly unknown[] = []) =>
    getAddress(
      (
        await mined(
          // biome-ignore lint/suspicious/noExplicitAny: three different ABIs through one helper
          await wallet.deployContract({ abi: abi as any, bytecode, args: args as any, account, chain }),
        )
      ).contractAddress as Address,
    );
  const identity = existing.identity ?? (await deploy(identityRegistryAbi, identityRegistryBytecode));
  const reputation =
    existing.reputation ?? (await deploy(reputationRegistryAbi, reputationRegistryBytecode, [identity]));
  const reporter = await deploy(courtReputationAbi, courtReputationBytecode, [courtRegistry, identity, reputation]);
  await mined(
    await wallet.writeContract({
      address: courtRegistry,
      abi: courtRegistryAbi,
      functionName: "setOutcomeHook",
      args: [reporter],
      account,
      chain,
    }),
  );
  return { identity, reputation, reporter };
}
