import { type Address, createWalletClient, http, isAddress, isHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { makeChain, makePublicClient } from "../chain/client.js";
import { writeDeployment } from "../chain/deployments.js";
import { deployCourt } from "../deploy/deploy.js";
import { deployErc8004 } from "../deploy/erc8004.js";
import { devParams, productionParams } from "../deploy/terms.js";

/**
 * `npm run deploy`: deploys the court to RPC_URL with DEPLOYER_PRIVATE_KEY, taken from the
 * environment only and never logged. Writes deployments/<chainId>.json (which docket reads) and
 * prints the env lines to set.
 */
export async function runDeploy(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const rpcUrl = env.RPC_URL;
  const key = env.DEPLOYER_PRIVATE_KEY;
  if (!rpcUrl) throw new Error("RPC_URL is required: the chain to deploy to");
  if (!key || !isHex(key) || key.length !== 66) {
    throw new Error("DEPLOYER_PRIVATE_KEY is required in the environment (0x + 64 hex digits)");
  }
  const preset = env.DEPLOY_PRESET ?? "production";
  if (preset !== "production" && preset !== "dev") throw new Error("DEPLOY_PRESET must be production or dev");
  const params = preset === "dev" ? devParams : productionParams;
  const probe = makePublicClient(makeChain(1, rpcUrl));
  const chain = makeChain(await probe.getChainId(), rpcUrl);
  const reader = makePublicClient(chain);
  const account = privateKeyToAccount(key);
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl, { retryCount: 0 }) });
  const feeRecipient = env.FEE_RECIPIENT as `0x${string}` | undefined;
  // A VRF adapter (or any IDrawEntropy) deployed beforehand; unset deploys BlockhashEntropy.
  const entropy = env.ENTROPY_ADDRESS;
  if (entropy !== undefined && !isAddress(entropy)) throw new Error("ENTROPY_ADDRESS must be an address");
  const d = await deployCourt(wallet, reader, params, feeRecipient, entropy as Address | undefined);
  // ERC-8004 registries already on the chain (the standard's singletons): the court reports to them.
  const identity = env.ERC8004_IDENTITY_ADDRESS;
  const reputation = env.ERC8004_REPUTATION_ADDRESS;
  if (identity || reputation) {
    if (!identity || !reputation || !isAddress(identity) || !isAddress(reputation)) {
      throw new Error("ERC8004_IDENTITY_ADDRESS and ERC8004_REPUTATION_ADDRESS must both be addresses");
    }
    d.erc8004 = await deployErc8004(wallet, reader, d.registry, { identity, reputation });
  }
  const file = writeDeployment(d, env.DEPLOYMENTS_DIR);
  process.stderr.write(`deployed ${preset} court to chain ${d.chainId}; addresses written to ${file}\n`);
  process.stdout.write(
    `RPC_URL=${rpcUrl}\nCHAIN_ID=${d.chainId}\nFACTORY_ADDRESS=${d.factory}\nREGISTRY_ADDRESS=${d.registry}\n`,
  );
  if (d.erc8004) {
    process.stdout.write(
      `ERC8004_IDENTITY_ADDRESS=${d.erc8004.identity}\nERC8004_REPUTATION_ADDRESS=${d.erc8004.reputation}\n`,
    );
  }
}
