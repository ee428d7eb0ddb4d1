import { z } from "zod";
import { readAgent } from "../chain/reads.js";
import { DocketError } from "../errors/errors.js";
import { agentSchema, formatAgent } from "./agents.shared.js";
import { keyOf } from "./keys.js";
import { Answer, chainErrors, defineOperation } from "./operation.js";
import { address } from "./schemas.js";

export const getAgent = defineOperation({
  name: "get_agent",
  title: "Get an agent",
  description:
    "Read one registered agent by address: name, metadata URI, agent id, reputation and case record, judge status. An address that never self-registered answers AGENT_NOT_REGISTERED (404); register with self_register_agent.",
  kind: "read",
  toolset: "agents",
  http: { method: "GET", path: "/agent/:address" },
  input: z.object({ address: address("Agent address") }),
  errors: [...chainErrors("read"), "AGENT_NOT_REGISTERED"],
  output: z.object({ agent: agentSchema }),
  cache: { key: (i) => keyOf.agent(i.address) },
  handler: async ({ address: who }, ctx) => {
    const a = await readAgent(ctx.court, who);
    if (!a.registered) throw new DocketError("AGENT_NOT_REGISTERED", `no agent registered at ${who}`, { address: who });
    return new Answer({ agent: formatAgent(a) }, { ttl: 120 });
  },
});
