import { z } from "zod";
import { readErc8004Cards } from "../../chain/erc8004.js";
import { readAgents } from "../../chain/reads/agents.js";
import { keyOf } from "../../freshness/keys.js";
import { Answer, defineOperation } from "../kernel/operation.js";
import { paginationInput } from "../kernel/schemas.js";
import { agentSchema, formatAgent } from "./agent.js";
import { formatErc8004 } from "./erc8004.js";

export const discoverAgents = defineOperation({
  name: "discover_agents",
  title: "Discover agents",
  description:
    "List registered agents in registration order, a page at a time (default 20, at most 100), with the total: name, metadata URI, agent id, reputation, case record and whether each is a staked judge, and each one's ERC-8004 identity and the court's ERC-8004 feedback (null when it has no ERC-8004 agent). Next: get_agent for one, or file a case against one.",
  kind: "read",
  toolset: "agents",
  http: { method: "GET", path: "/agent/discover" },
  input: z.object(paginationInput),
  output: z.object({
    total: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
    agents: z.array(agentSchema),
  }),
  cache: { key: (i) => keyOf.discover(i.offset, i.limit) },
  handler: async ({ limit, offset }, ctx) => {
    const { total, page } = await readAgents(ctx.chain, offset, limit);
    const cards = await readErc8004Cards(
      ctx.chain,
      page.map((a) => a.addr),
    );
    const agents = page.map((a, i) => formatAgent(a, formatErc8004(ctx.chain, cards?.[i])));
    return new Answer({ total, offset, limit, agents }, { ttl: 60 });
  },
});
