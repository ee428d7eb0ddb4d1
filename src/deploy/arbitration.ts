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
  agenticCommerceAbi,
  agenticCommerceBytecode,
  caseFactoryAbi,
  courtEvaluatorAbi,
  courtEvaluatorBytecode,
  docketArbitratorAbi,
  docketArbitratorBytecode,
  validationRegistryAbi,
  validationRegistryBytecode,
} from "../chain/abi/generated.js";
import type { ArbitrationDeployment, DeployedEvaluator } from "../chain/deployments.js";
import { minedOn } from "./deploy.js";

/** What `deployArbitration` needs of the dev world. */
export interface ArbitrationSetup {
  factory: Address;
  registry: Address;
  /** The ERC-8004 Identity Registry (the validation registry's agents, the evaluators' wallet index). */
  identity: Address;
  /** The ERC-20 job budgets are paid in. */
  token: Address;
  /** One evaluator per entry. */
  evaluators: { courtId: number; challengeWindow: number }[];
}

/**
 * Deploys the arbitrator (and names it the factory's: the wallet must own the factory), a Validation
 * Registry, the reference ERC-8183 job contract paid in `token`, and one court-backed evaluator per
 * entry of `setup.evaluators`.
 */
export async function deployArbitration(
  wallet: WalletClient,
  reader: PublicClient,
  setup: ArbitrationSetup,
): Promise<ArbitrationDeployment> {
  const account = wallet.account as Account;
  const chain = wallet.chain as Chain;
  const mined = minedOn(reader, "arbitration deployment");
  const deploy = async (abi: readonly unknown[], bytecode: Hex, args: readonly unknown[]) =>
    getAddress(
      (
        await mined(
          // biome-ignore lint/suspicious/noExplicitAny: several ABIs through one helper
          await wallet.deployContract({ abi: abi as any, bytecode, args: args as any, account, chain }),
        )
      ).contractAddress as Address,
    );
  const arbitrator = await deploy(docketArbitratorAbi, docketArbitratorBytecode, [setup.factory, setup.registry]);
  await mined(
    await wallet.writeContract({
      address: setup.factory,
      abi: caseFactoryAbi,
      functionName: "setArbitrator",
      args: [arbitrator],
      account,
      chain,
    }),
  );
  const validation = await deploy(validationRegistryAbi, validationRegistryBytecode, [setup.identity]);
  const commerce = await deploy(agenticCommerceAbi, agenticCommerceBytecode, [setup.token]);
  const evaluators: DeployedEvaluator[] = [];
  for (const e of setup.evaluators) {
    const address = await deploy(courtEvaluatorAbi, courtEvaluatorBytecode, [
      commerce,
      arbitrator,
      validation,
      setup.identity,
      BigInt(e.courtId),
      0,
      BigInt(e.challengeWindow),
    ]);
    evaluators.push({ address, courtId: e.courtId, challengeWindow: e.challengeWindow });
  }
  return { arbitrator, commerce, token: setup.token, evaluators, validation };
}
