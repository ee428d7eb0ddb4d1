import { type Address, createWalletClient, http, isAddress, isHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { makeChain, makePublicClient } from "../chain/client.js";
import { arbitrationEnvLines, writeDeployment } from "../chain/deployments.js";
import { deployArbitration } from "../deploy/arbitration.js";
import { deployCourt } from "../deploy/deploy.js";
import { deployErc8004 } from "../deploy/erc8004.js";
import { devParams, PRODUCTION_CHALLENGE_WINDOW, productionParams } from "../deploy/terms.js";

/**
 * `npm run deploy`: deploys the court to RPC_URL with DEPLOYER_PRIVATE_KEY, taken from the
 * environment only and never logged. Writes deployments/<chainId>.json (which docket reads) and
 * prints the env lines to set. With JOBS_TOKEN_ADDRESS (and the ERC-8004 registries) it also deploys
 * docket as an arbitrator: the arbitrator, a Validation Registry, the reference ERC-8183 job contract
 * and one court-backed evaluator per court of EVALUATOR_COURTS (docs/arbitration.md).
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
  // docket as the arbitrator of agent escrows (docs/arbitration.md), when a job token is named:
  // checked before anything is sent.
  const arbitration = arbitrationSettings(env);

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
  if (arbitration) {
    if (!d.erc8004) {
      throw new Error(NEEDS_ERC8004);
    }
    d.arbitration = await deployArbitration(wallet, reader, {
      factory: d.factory,
      registry: d.registry,
      identity: d.erc8004.identity,
      ...arbitration,
    });
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
  if (d.arbitration) process.stdout.write(`${arbitrationEnvLines(d.arbitration).join("\n")}\n`);
}

const NEEDS_ERC8004 =
  "JOBS_TOKEN_ADDRESS needs ERC8004_IDENTITY_ADDRESS and ERC8004_REPUTATION_ADDRESS: the evaluators answer ERC-8004 validation requests";

/** JOBS_TOKEN_ADDRESS, EVALUATOR_COURTS (default 1) and CHALLENGE_WINDOW_SECONDS (default a day), checked. */
function arbitrationSettings(env: NodeJS.ProcessEnv) {
  const token = env.JOBS_TOKEN_ADDRESS;
  if (!token) return undefined;
  if (!isAddress(token)) throw new Error("JOBS_TOKEN_ADDRESS must be an address (the ERC-20 job budgets are paid in)");
  if (!env.ERC8004_IDENTITY_ADDRESS) {
    throw new Error(NEEDS_ERC8004);
  }
  const courts = (env.EVALUATOR_COURTS || "1").split(",").map((c) => Number(c.trim()));
  if (courts.some((c) => !Number.isSafeInteger(c) || c < 1)) {
    throw new Error("EVALUATOR_COURTS must be court ids separated by commas, e.g. 1");
  }
  const window = Number(env.CHALLENGE_WINDOW_SECONDS || PRODUCTION_CHALLENGE_WINDOW);
  if (!Number.isSafeInteger(window) || window < 60) {
    throw new Error("CHALLENGE_WINDOW_SECONDS must be whole seconds, at least 60");
  }
  return { token: token as Address, evaluators: courts.map((courtId) => ({ courtId, challengeWindow: window })) };
}
