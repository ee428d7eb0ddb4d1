import type { Address, PublicClient, WalletClient } from "viem";
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
import { deployer } from "./deploy.js";

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
  const d = deployer(wallet, reader, "ERC-8004 deployment");
  const identity = existing.identity ?? (await d.deploy(identityRegistryAbi, identityRegistryBytecode)).address;
  const reputation =
    existing.reputation ?? (await d.deploy(reputationRegistryAbi, reputationRegistryBytecode, [identity])).address;
  const reporter = (await d.deploy(courtReputationAbi, courtReputationBytecode, [courtRegistry, identity, reputation]))
    .address;
  await d.call({ address: courtRegistry, abi: courtRegistryAbi, functionName: "setOutcomeHook", args: [reporter] });
  return { identity, reputation, reporter };
}
