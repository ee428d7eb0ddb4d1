import { z } from "zod";
import { readErc8004Cards } from "../../chain/erc8004.js";
import { readAgent } from "../../chain/reads/agents.js";
import { DocketError } from "../../errors/errors.js";
import { keyOf } from "../../freshness/keys.js";
import { Answer, chainErrors, defineOperation } from "../kernel/operation.js";
import { address } from "../kernel/schemas.js";
import { agentSchema, formatAgent } from "./agent.js";
import { formatErc8004 } from "./erc8004.js";

export const getAgent = defineOperation({
  name: "get_agent",
  title: "Get an agent",
  description:
    "Read one agent by address: name, metadata URI, agent id, reputation and case record, judge status, and its ERC-8004 identity (agentId, owner, agent wallet, registration file) with the court's ERC-8004 feedback on it (verdicts and their win rate, won/lost; defaults apart, defaulted/defaultWins; dismissed; refused entries awaiting a retry). An address neither self-registered nor an ERC-8004 agent answers AGENT_NOT_REGISTERED (404); register with self_register_agent.",
  kind: "read",
  toolset: "agents",
  http: { method: "GET", path: "/agent/:address" },
  input: z.object({ address: address("Agent address") }),
  errors: [...chainErrors("read"), "AGENT_NOT_REGISTERED"],
  output: z.object({ agent: agentSchema }),
  cache: { key: (i) => keyOf.agent(i.address) },
  handler: async ({ address: who }, ctx) => {
    // Same tick: the client batches both into one multicall.
    const [a, cards] = await Promise.all([readAgent(ctx.chain, who), readErc8004Cards(ctx.chain, [who])]);
    const erc8004 = formatErc8004(ctx.chain, cards?.[0]);
    if (!a.registered && !erc8004) {
      throw new DocketError("AGENT_NOT_REGISTERED", `no agent registered at ${who}`, { address: who });
    }
    return new Answer({ agent: formatAgent(a, erc8004) }, { ttl: 120 });
  },
});
