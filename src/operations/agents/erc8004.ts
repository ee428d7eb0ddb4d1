import { zeroAddress } from "viem";
import { z } from "zod";
import type { ChainAccess } from "../../chain/access.js";
import type { Erc8004Card } from "../../chain/erc8004.js";

/** A data: URI docket decodes at most this long (a registration file is a few hundred bytes). */
const MAX_DATA_URI = 16_384;

/** An agent's ERC-8004 identity and the court's feedback on it, beside docket's own record. */
export const erc8004Schema = z
  .object({
    agentId: z.number().int().describe("The ERC-721 tokenId in the Identity Registry"),
    agentRegistry: z.string().describe("eip155:{chainId}:{identityRegistry}, as registration files name it"),
    owner: z.string().describe("Owner of the agent's token"),
    wallet: z.string().nullable().describe("The agent wallet (where it is paid); null when unset"),
    agentURI: z.string().describe("tokenURI: the agent's registration file"),
    registrationFile: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The registration file, when agentURI is a data: URI docket can decode (remote URIs are not fetched)"),
    reputation: z
      .object({
        client: z.string().describe("The court's reporter: the clientAddress of every verdict feedback"),
        verdicts: z.number().int().describe("Verdict feedback entries (won, lost): cases judges decided"),
        winRate: z
          .number()
          .nullable()
          .describe("Average verdict value, 0-100 (won 100, lost 0); null before any. Defaults do not count"),
        won: z.number().int().describe("Verdicts won (tag verdict/won)"),
        lost: z.number().int().describe("Verdicts lost (tag verdict/lost)"),
        defaulted: z.number().int().describe("Cases lost by never answering (tag default/defaulted)"),
        defaultWins: z
          .number()
          .int()
          .describe("Cases won because the defendant never answered (tag default/won): no verdict"),
        dismissed: z.number().int(),
        refused: z
          .number()
          .int()
          .describe(
            "The court's entries the reputation registry refused (e.g. the agent made the court its operator), waiting on chain for anyone's retryFeedback",
          ),
      })
      .describe("getSummary(agentId, [client], tag1, tag2) of the court's feedback"),
  })
  .nullable()
  .describe(
    "The address's ERC-8004 agent (its agent wallet, or an agent it linked); null when none or ERC-8004 is off",
  );
export type Erc8004Body = z.infer<typeof erc8004Schema>;

/** docket's view of one reporter card; null for an address with no ERC-8004 agent. */
export function formatErc8004(chain: ChainAccess, card: Erc8004Card | undefined): Erc8004Body {
  if (!card || card.agentId === 0n || !chain.erc8004.enabled) return null;
  const v = card.verdicts;
  return {
    agentId: Number(card.agentId),
    agentRegistry: `eip155:${chain.chainId}:${chain.erc8004.identity}`,
    owner: card.owner,
    wallet: card.wallet === zeroAddress ? null : card.wallet,
    agentURI: card.agentURI,
    registrationFile: parseDataUri(card.agentURI),
    reputation: {
      client: chain.erc8004.reporter,
      verdicts: Number(v.count),
      winRate: v.count === 0n ? null : Number(v.value) / 10 ** v.decimals,
      won: Number(card.won),
      lost: Number(card.lost),
      defaulted: Number(card.defaulted),
      defaultWins: Number(card.defaultWins),
      dismissed: Number(card.dismissed),
      refused: Number(card.refused),
    },
  };
}

/** A JSON object from a `data:application/json` URI (base64 or percent-encoded); null otherwise. */
export function parseDataUri(uri: string): Record<string, unknown> | null {
  const m = /^data:application\/json(;charset=[\w-]+)?(;base64)?,(.*)$/s.exec(uri);
  if (!m || uri.length > MAX_DATA_URI) return null;
  try {
    const text = m[2] ? Buffer.from(m[3] ?? "", "base64").toString("utf8") : decodeURIComponent(m[3] ?? "");
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
