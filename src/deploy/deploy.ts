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
  testUSDAbi,
  testUSDBytecode,
} from "../chain/abi/generated.js";
import type { DeployedCourt, Deployment } from "../chain/deployments.js";
import { policyCid, readPolicy } from "./policies.js";
import { type ChildCourt, type CourtParams, courtConfig } from "./terms.js";

/** Waits for a transaction of a deployment step and insists it succeeded (`what` names the step in the error). */
export function minedOn(reader: PublicClient, what: string) {
  return async (hash: Hex) => {
    const r = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (r.status !== "success") throw new Error(`${what} transaction ${hash} reverted`);
    return r;
  };
}

/**
 * Deploys CourtRegistry (its General court, id 1, under `params`, with the General policy of
 * src/deploy/policies/), the draw entropy source (BlockhashEntropy unless `entropy` names another,
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
  const mined = minedOn(reader, "deployment");

  const generalPolicy = await policyCid(readPolicy("general.md"));
  const registryReceipt = await mined(
    await wallet.deployContract({
      abi: courtRegistryAbi,
      bytecode: courtRegistryBytecode,
      args: [params.slashBps, generalPolicy, courtConfig(params)],
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
      args: [registry, entropyAddress, feeRecipient ?? account.address, params.filingFee],
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
    courts: [{ id: 1, name: "General", policy: generalPolicy }],
  };
}

/**
 * Creates `children` below the General court of a freshly deployed registry (the wallet must own
 * it), in order: ids 2, 3, ...; each policy's CID is computed from its file in src/deploy/policies/.
 * Returns the deployment's courts with them.
 */
export async function createChildCourts(
  wallet: WalletClient,
  reader: PublicClient,
  deployment: Deployment,
  children: ChildCourt[],
): Promise<DeployedCourt[]> {
  const account = wallet.account as Account;
  const chain = wallet.chain as Chain;
  const mined = minedOn(reader, "court creation");
  const courts = [...deployment.courts];
  for (const child of children) {
    const policy = await policyCid(readPolicy(child.policyFile));
    await mined(
      await wallet.writeContract({
        address: deployment.registry,
        abi: courtRegistryAbi,
        functionName: "createCourt",
        args: [1n, child.name, policy, courtConfig(child.params)],
        account,
        chain,
      }),
    );
    courts.push({ id: courts.length + 1, name: child.name, policy });
  }
  return courts;
}

/**
 * Deploys the dev chain's test stablecoin (TestUSD: EIP-3009, six decimals, minted by the deployer)
 * and makes it the factory's fee token at `fee` units: what a stock x402 client pays with. The
 * deployer must own the factory. Dev chains only: on a real chain the owner names a real token.
 */
export async function deployTestFeeToken(
  wallet: WalletClient,
  reader: PublicClient,
  factory: Address,
  fee: bigint,
): Promise<Address> {
  const account = wallet.account as Account;
  const chain = wallet.chain as Chain;
  const mined = minedOn(reader, "fee token");
  const deployed = await mined(
    await wallet.deployContract({ abi: testUSDAbi, bytecode: testUSDBytecode, account, chain }),
  );
  const token = getAddress(deployed.contractAddress as Address);
  await mined(
    await wallet.writeContract({
      address: factory,
      abi: caseFactoryAbi,
      functionName: "setTokenFee",
      args: [token, fee],
      account,
      chain,
    }),
  );
  return token;
}
