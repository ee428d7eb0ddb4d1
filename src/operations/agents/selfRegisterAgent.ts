import { stringToHex } from "viem";
import { z } from "zod";
import { courtRegistryAbi, identityRegistryAbi } from "../../chain/abi/generated.js";
import { registrationFile } from "../../chain/erc8004.js";
import { DocketError } from "../../errors/errors.js";
import { staleKeys } from "../../freshness/stale.js";
import { buildUnsignedTx } from "../../tx/unsignedTx.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { address, unsignedTxResponse } from "../kernel/schemas.js";

export const selfRegisterAgent = defineOperation({
  name: "self_register_agent",
  title: "Register yourself as an agent",
  description:
    "Register your address as an agent (or update its name and metadata URI) so others can discover you and you build a reputation. The agent id is assigned once, in registration order. Returns an unsigned transaction for `address` to sign; once mined, get_agent shows the record. With erc8004: true it also returns `erc8004.unsigned_tx`, a register(agentURI, metadata) to the ERC-8004 Identity Registry whose agentURI is a registration file docket generates (a data: URI listing docket's MCP endpoint, supportedTrust reputation): sign both; the new ERC-8004 agent's wallet is your address, so the court's verdicts on you become its ERC-8004 reputation.",
  kind: "write",
  toolset: "agents",
  http: { method: "POST", path: "/agent/self-register" },
  input: z.object({
    address: address("Your address: the account that signs and is registered"),
    name: z.string().min(1).max(64).describe("Display name, 1-64 characters"),
    metadataURI: z.string().max(512).default("").describe("Optional URI of your agent card (max 512 characters)"),
    erc8004: z
      .boolean()
      .default(false)
      .describe("Also register an ERC-8004 agent (an NFT in the Identity Registry) owned by `address`"),
    description: z
      .string()
      .max(500)
      .optional()
      .describe("Optional, with erc8004: the registration file's description (max 500 characters)"),
  }),
  output: unsignedTxResponse.extend({
    erc8004: z
      .object({
        unsigned_tx: unsignedTxResponse.shape.unsigned_tx,
        instructions: z.string(),
        identityRegistry: z.string(),
        agentURI: z.string().describe("The registration file as a base64 data: URI (stored on chain)"),
        registrationFile: z.record(z.string(), z.unknown()).describe("The registration file, decoded"),
      })
      .optional()
      .describe("With erc8004: true, the ERC-8004 registration to sign as well"),
  }),
  errors: [...chainErrors("write"), "VALIDATION_ERROR"],
  example: {
    address: "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199",
    name: "my-agent",
    metadataURI: "https://example.org/agent.json",
  },
  handler: async ({ address: who, name, metadataURI, erc8004, description }, ctx, req) => {
    const tx = await buildUnsignedTx(ctx.chain, {
      to: ctx.chain.registry,
      abi: courtRegistryAbi,
      functionName: "selfRegister",
      args: [name, metadataURI],
      from: who,
      action: `Registers ${who} as agent "${name}"`,
    });
    if (!erc8004) return new Answer(tx, { invalidate: staleKeys({ agent: who }) });
    const e = ctx.chain.erc8004;
    if (!e.enabled) throw new DocketError("VALIDATION_ERROR", `ERC-8004 is off on this docket: ${e.reason}`, {});
    const origin = req.resourceUrl ? new URL(req.resourceUrl).origin : undefined;
    const { file, agentURI } = registrationFile({
      name,
      description,
      address: who,
      metadataURI: metadataURI || undefined,
      mcpEndpoint: origin && `${origin}/mcp`,
      web: origin && `${origin}/agent/${who}`,
    });
    const register = await buildUnsignedTx(ctx.chain, {
      to: e.identity,
      abi: identityRegistryAbi,
      functionName: "register",
      args: [agentURI, [{ metadataKey: "name", metadataValue: stringToHex(name) }]],
      from: who,
      action: `Registers an ERC-8004 agent "${name}" owned by ${who} (its agent wallet is ${who} too)`,
    });
    return new Answer(
      { ...tx, erc8004: { ...register, identityRegistry: e.identity, agentURI, registrationFile: file } },
      { invalidate: staleKeys({ agent: who }) },
    );
  },
});
