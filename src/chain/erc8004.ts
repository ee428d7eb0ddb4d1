import { type Address, getAddress, type PublicClient, zeroAddress } from "viem";
import type { Config } from "../config.js";
import { courtRegistryAbi, courtReputationAbi } from "./abi/generated.js";
import type { ChainAccess, Erc8004 } from "./access.js";

/**
 * On a real chain: ERC-8004 is on when both registries are configured and the court registry's
 * outcome hook is a CourtReputation reporting to exactly them (`npm run deploy` sets it up). Three
 * reads at start, none per request.
 */
export async function probeErc8004(reader: PublicClient, registry: Address, config: Config): Promise<Erc8004> {
  const identity = config.ERC8004_IDENTITY_ADDRESS;
  const reputation = config.ERC8004_REPUTATION_ADDRESS;
  if (!identity || !reputation) {
    return { enabled: false, reason: "ERC8004_IDENTITY_ADDRESS and ERC8004_REPUTATION_ADDRESS are not both set" };
  }
  try {
    const reporter = await reader.readContract({
      address: registry,
      abi: courtRegistryAbi,
      functionName: "outcomeHook",
    });
    if (reporter === zeroAddress) {
      return {
        enabled: false,
        reason: "the court registry has no outcome hook: deploy CourtReputation with `npm run deploy` (ERC8004_* set)",
      };
    }
    const [id, rep] = await Promise.all([
      reader.readContract({ address: reporter, abi: courtReputationAbi, functionName: "identityRegistry" }),
      reader.readContract({ address: reporter, abi: courtReputationAbi, functionName: "reputationRegistry" }),
    ]);
    if (getAddress(id) !== getAddress(identity) || getAddress(rep) !== getAddress(reputation)) {
      return {
        enabled: false,
        reason: `the court reports to other ERC-8004 registries (identity ${id}, reputation ${rep}) than configured`,
      };
    }
    return { enabled: true, identity: getAddress(identity), reputation: getAddress(reputation), reporter };
  } catch (err) {
    return {
      enabled: false,
      reason: `cannot read the court's ERC-8004 reporter: ${(err as Error).message.split("\n")[0]}`,
    };
  }
}

/**
 * Each address's ERC-8004 agent (agentId 0: none), its identity and the court's feedback on it, from
 * the reporter's `describe`: one eth_call however many addresses. Undefined when ERC-8004 is off.
 */
export async function readErc8004Cards(chain: ChainAccess, who: readonly Address[]) {
  if (!chain.erc8004.enabled || who.length === 0) return undefined;
  return chain.reader.readContract({
    address: chain.erc8004.reporter,
    abi: courtReputationAbi,
    functionName: "describe",
    args: [who],
  });
}
export type Erc8004Card = NonNullable<Awaited<ReturnType<typeof readErc8004Cards>>>[number];

/** The registration-file `type` ERC-8004 defines. */
export const REGISTRATION_TYPE = "https://eips.ethereum.org/EIPS/eip-8004#registration-v1";

/** What self_register_agent (and the dev seed) write into an agent's ERC-8004 registration file. */
export interface RegistrationInput {
  name: string;
  description?: string;
  address: Address;
  metadataURI?: string;
  /** docket's MCP endpoint, when the request tells where docket is served. */
  mcpEndpoint?: string;
  /** docket's HTTP record of the agent. */
  web?: string;
}

/** The registration file (ERC-8004 registration-v1) and its on-chain form, a base64 data: URI. */
export function registrationFile(input: RegistrationInput): { file: Record<string, unknown>; agentURI: string } {
  const services: Record<string, string>[] = [];
  if (input.mcpEndpoint) services.push({ name: "MCP", endpoint: input.mcpEndpoint, version: "2025-11-25" });
  if (input.web) services.push({ name: "web", endpoint: input.web });
  if (input.metadataURI) services.push({ name: "agentCard", endpoint: input.metadataURI });
  const file = {
    type: REGISTRATION_TYPE,
    name: input.name,
    description:
      input.description ??
      `${input.name}: an agent taking part in on-chain dispute resolution through docket (cases, judging, verdicts).`,
    services,
    x402Support: false,
    active: true,
    // The agentId is minted by this very registration, so no `registrations` entry can name it yet.
    registrations: [],
    supportedTrust: ["reputation"],
  };
  return { file, agentURI: `data:application/json;base64,${Buffer.from(JSON.stringify(file)).toString("base64")}` };
}

/** The ERC-8004 Identity Registry's EIP-712 name and version (our IdentityRegistry's domain). */
export const IDENTITY_DOMAIN = { name: "ERC-8004 Agent Identity", version: "1" } as const;

/**
 * The EIP-712 typed data a wallet signs to consent to becoming agent `agentId`'s wallet
 * (`setAgentWallet`): it names the wallet's current `walletNonce` (read it from the registry), so a
 * consent is used at most once and any later claim of the wallet voids it.
 */
export function agentWalletConsent(input: {
  identity: Address;
  chainId: number;
  agentId: bigint;
  newWallet: Address;
  owner: Address;
  nonce: bigint;
  deadline: bigint;
}) {
  return {
    domain: { ...IDENTITY_DOMAIN, chainId: input.chainId, verifyingContract: input.identity },
    types: {
      AgentWalletSet: [
        { name: "agentId", type: "uint256" },
        { name: "newWallet", type: "address" },
        { name: "owner", type: "address" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "AgentWalletSet",
    message: {
      agentId: input.agentId,
      newWallet: input.newWallet,
      owner: input.owner,
      nonce: input.nonce,
      deadline: input.deadline,
    },
  } as const;
}
