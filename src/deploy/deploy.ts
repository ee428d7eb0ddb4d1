import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  type ContractFunctionName,
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
  caseFactoryLinkReferences,
  casePayoutsAbi,
  casePayoutsBytecode,
  caseVotingAbi,
  caseVotingBytecode,
  caseVotingLinkReferences,
  courtRegistryAbi,
  courtRegistryBytecode,
  testUSDAbi,
  testUSDBytecode,
} from "../chain/abi/generated.js";
import type { ContractCall } from "../chain/client.js";
import type { CaseLibraries, DeployedCourt, Deployment } from "../chain/deployments.js";
import { linkBytecode } from "./link.js";
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
 * One account deploying and configuring contracts, each transaction waited for and insisted on
 * (`what` names the steps in an error): `deploy` answers the contract's address and the block it was
 * deployed in, `call` calls a function as the deployer.
 */
export function deployer(wallet: WalletClient, reader: PublicClient, what: string) {
  const account = wallet.account as Account;
  const chain = wallet.chain as Chain;
  const mined = minedOn(reader, what);
  return {
    account,
    chain,
    deploy: async (abi: Abi, bytecode: Hex, args: readonly unknown[] = []) => {
      // biome-ignore lint/suspicious/noExplicitAny: one helper for every contract's ABI and constructor
      const r = await mined(await wallet.deployContract({ abi, bytecode, args, account, chain } as any));
      return { address: getAddress(r.contractAddress as Address), block: r.blockNumber };
    },
    call: async <const abi extends Abi, name extends ContractFunctionName<abi, "payable" | "nonpayable">>(
      c: ContractCall<abi, name>,
    ) => {
      // biome-ignore lint/suspicious/noExplicitAny: the call's own types are checked by the signature above
      await mined(await wallet.writeContract({ ...c, account, chain } as any));
    },
  };
}

/**
 * Deploys the libraries every case runs by DELEGATECALL (contracts/case/CasePayouts.sol, then
 * contracts/case/CaseVoting.sol, which calls it), and answers their addresses: what CaseFactory's bytecode
 * (it creates the DisputeCase implementation) is linked with.
 */
export async function deployCaseLibraries(d: ReturnType<typeof deployer>): Promise<CaseLibraries> {
  const CasePayouts = (await d.deploy(casePayoutsAbi, casePayoutsBytecode)).address;
  const voting = linkBytecode(caseVotingBytecode, caseVotingLinkReferences, { CasePayouts });
  const CaseVoting = (await d.deploy(caseVotingAbi, voting)).address;
  return { CasePayouts, CaseVoting };
}

/** CaseFactory's bytecode linked with the case libraries at `libraries`. */
export function linkedCaseFactory(libraries: CaseLibraries): Hex {
  return linkBytecode(caseFactoryBytecode, caseFactoryLinkReferences, libraries);
}

/**
 * Deploys CourtRegistry (its General court, id 1, under `params`, with the General policy of
 * src/deploy/policies/), the draw entropy source (BlockhashEntropy unless `entropy` names another,
 * e.g. a VRF adapter), the case libraries and CaseFactory (linked with them), and links them. Used
 * by the dev chain and by `npm run deploy` alike, so a real chain gets exactly what the tests exercise,
 * but for `manualSeating` (the owner's hand-seating of panels), which only a dev or test chain turns on.
 */
export async function deployCourt(
  wallet: WalletClient,
  reader: PublicClient,
  params: CourtParams,
  feeRecipient?: Address,
  entropy?: Address,
  manualSeating = false,
): Promise<Deployment> {
  const d = deployer(wallet, reader, "deployment");
  const generalPolicy = await policyCid(readPolicy("general.md"));
  const registry = await d.deploy(courtRegistryAbi, courtRegistryBytecode, [
    params.slashBps,
    generalPolicy,
    courtConfig(params),
  ]);
  const entropyAddress = entropy ?? (await d.deploy(blockhashEntropyAbi, blockhashEntropyBytecode)).address;
  const libraries = await deployCaseLibraries(d);
  const factory = await d.deploy(caseFactoryAbi, linkedCaseFactory(libraries), [
    registry.address,
    entropyAddress,
    feeRecipient ?? d.account.address,
    params.filingFee,
    manualSeating,
  ]);
  await d.call({
    address: registry.address,
    abi: courtRegistryAbi,
    functionName: "setFactory",
    args: [factory.address],
  });
  return {
    chainId: d.chain.id,
    registry: registry.address,
    factory: factory.address,
    entropy: entropyAddress,
    libraries,
    deployer: d.account.address,
    deployedAtBlock: registry.block.toString(),
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
  const d = deployer(wallet, reader, "court creation");
  const courts = [...deployment.courts];
  for (const child of children) {
    const policy = await policyCid(readPolicy(child.policyFile));
    const args = [1n, child.name, policy, courtConfig(child.params)] as const;
    await d.call({ address: deployment.registry, abi: courtRegistryAbi, functionName: "createCourt", args });
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
  const d = deployer(wallet, reader, "fee token");
  const token = (await d.deploy(testUSDAbi, testUSDBytecode)).address;
  await d.call({ address: factory, abi: caseFactoryAbi, functionName: "setTokenFee", args: [token, fee] });
  return token;
}
