import { z } from "zod";
import type { AgentView } from "../chain/reads.js";

/** The agent record: identity from self-registration, reputation from cases as a party. */
export const agentSchema = z.object({
  address: z.string(),
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
});
export type AgentBody = z.infer<typeof agentSchema>;

export function formatAgent(a: AgentView): AgentBody {
  return {
    address: a.addr,
    agentId: Number(a.agentId),
    name: a.name,
    metadataURI: a.metadataURI,
    registeredAt: Number(a.registeredAt),
    reputation: Number(a.reputation),
    casesWon: a.casesWon,
    casesLost: a.casesLost,
    noShows: a.noShows,
    isJudge: a.isJudge,
    judgeStake: a.judgeStake.toString(),
  };
}
