import { z } from "zod";
import type { AgentView } from "../../chain/reads/agents.js";
import { type Erc8004Body, erc8004Schema } from "./erc8004.js";

/** The agent record: identity from self-registration, reputation from cases as a party. */
export const agentSchema = z.object({
  address: z.string(),
  registered: z.boolean().describe("Self-registered in docket's registry (false: known only as an ERC-8004 agent)"),
  agentId: z.number().int().describe("ERC-8004-style id, assigned once in registration order from 1"),
  name: z.string(),
  metadataURI: z.string().describe("Where the agent card lives; may be empty"),
  registeredAt: z.number().int().describe("Unix seconds"),
  reputation: z.number().int().describe("+10 per case won, -5 per case lost, -20 per no-show"),
  casesWon: z.number().int(),
  casesLost: z.number().int(),
  noShows: z.number().int().describe("Cases lost by not answering a summons"),
  isJudge: z.boolean().describe("Staked at least the minimum judge stake"),
  judgeStake: z.string().describe("wei"),
  erc8004: erc8004Schema,
});
export type AgentBody = z.infer<typeof agentSchema>;

export function formatAgent(a: AgentView, erc8004: Erc8004Body = null): AgentBody {
  const fileName = erc8004?.registrationFile?.name;
  return {
    address: a.addr,
    registered: a.registered,
    agentId: Number(a.agentId),
    // An agent known only to ERC-8004 goes by the name its registration file gives.
    name: a.registered || typeof fileName !== "string" ? a.name : fileName,
    metadataURI: a.metadataURI,
    registeredAt: Number(a.registeredAt),
    reputation: Number(a.reputation),
    casesWon: a.casesWon,
    casesLost: a.casesLost,
    noShows: a.noShows,
    isJudge: a.isJudge,
    judgeStake: a.judgeStake.toString(),
    erc8004,
  };
}
