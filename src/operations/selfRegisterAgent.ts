import { z } from "zod";
import { courtRegistryAbi } from "../chain/abi/generated.js";
import { buildUnsignedTx } from "../tx/unsignedTx.js";
import { agentKeys } from "./keys.js";
import { Answer, defineOperation } from "./operation.js";
import { address, unsignedTxResponse } from "./schemas.js";

export const selfRegisterAgent = defineOperation({
  name: "self_register_agent",
  title: "Register yourself as an agent",
  description:
    "Register your address as an agent (or update its name and metadata URI) so others can discover you and you build a reputation. The agent id is assigned once, in registration order. Returns an unsigned transaction for `address` to sign; once mined, get_agent shows the record.",
  kind: "write",
  toolset: "agents",
  http: { method: "POST", path: "/agent/self-register" },
  input: z.object({
    address: address("Your address: the account that signs and is registered"),
    name: z.string().min(1).max(64).describe("Display name, 1-64 characters"),
    metadataURI: z.string().max(512).default("").describe("Optional URI of your agent card (max 512 characters)"),
  }),
  output: unsignedTxResponse,
  example: {
    address: "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199",
    name: "my-agent",
    metadataURI: "https://example.org/agent.json",
  },
  handler: async ({ address: who, name, metadataURI }, ctx) => {
    const tx = await buildUnsignedTx(ctx.court, {
      to: ctx.court.registry,
      abi: courtRegistryAbi,
      functionName: "selfRegister",
      args: [name, metadataURI],
      from: who,
      action: `Registers ${who} as agent "${name}"`,
    });
    return new Answer(tx, { invalidate: agentKeys(who) });
  },
});
