import { z } from "zod";
import { MULTICALL3_ADDRESS } from "../chain/client.js";
import { readOverview } from "../chain/reads.js";
import { Answer, defineOperation } from "./operation.js";

const startedAt = Date.now();

export const getHealth = defineOperation({
  name: "get_health",
  title: "Health check",
  description:
    "Whether docket can read the chain: status ok or degraded (node unreachable, or answering another chain id), chain id, latest block, contract addresses, the ERC-8004 registries (or why they are off), the minimum stakes and fees (wei), and on the dev chain its JSON-RPC URL (rpcUrl) for wallets to broadcast to. Over HTTP a degraded answer has status 503. lastChainEvent is the last reorg or reset detected.",
  kind: "read",
  toolset: "system",
  http: { method: "GET", path: "/health" },
  input: z.object({}),
  output: z.object({
    status: z.enum(["ok", "degraded"]),
    chainId: z.number().int(),
    blockNumber: z.number().int().nullable(),
    contracts: z.object({ factory: z.string(), registry: z.string(), multicall3: z.string() }),
    erc8004: z
      .object({
        enabled: z.boolean(),
        identity: z.string().optional().describe("ERC-8004 Identity Registry"),
        reputation: z.string().optional().describe("ERC-8004 Reputation Registry"),
        reporter: z.string().optional().describe("The court's reporter: clientAddress of its verdict feedback"),
        reason: z.string().optional().describe("Why ERC-8004 is off"),
      })
      .describe("ERC-8004 identity and reputation: on with the registries' addresses, or off with the reason"),
    minimums: z
      .object({ partyStake: z.string(), judgeStake: z.string(), appealBond: z.string(), filingFee: z.string() })
      .nullable(),
    rpcUrl: z.string().optional().describe("Dev chain only: where wallets broadcast"),
    uptimeSeconds: z.number().int(),
    error: z.string().optional(),
    lastChainEvent: z
      .object({
        kind: z.enum(["reorg", "reset"]),
        depth: z.number().int().nullable().describe("Blocks rolled back; null when it could not be told"),
        block: z.number().int().describe("Fork point (reorg) or new head (reset)"),
        at: z.string().describe("When docket noticed it (ISO 8601)"),
      })
      .optional()
      .describe("The last reorg or reset the event follower detected (its cache entries were invalidated)"),
  }),
  servesOnWrongChain: true,
  // A chain it cannot read (or the wrong chain) is its answer, not an error.
  errors: [],
  answers: { 503: "Degraded: the node cannot be read, or it serves another chain id (`error` says which)" },
  handler: async (_input, ctx) => {
    const base = {
      chainId: ctx.court.chainId,
      contracts: { factory: ctx.court.factory, registry: ctx.court.registry, multicall3: MULTICALL3_ADDRESS },
      erc8004: ctx.court.erc8004,
      ...(ctx.court.publicRpcUrl ? { rpcUrl: ctx.court.publicRpcUrl } : {}),
      uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
      ...(ctx.chain?.lastEvent ? { lastChainEvent: ctx.chain.lastEvent } : {}),
    };
    await ctx.chain?.recheck();
    const problem = ctx.chain?.problem;
    if (problem) {
      return new Answer(
        { status: "degraded" as const, ...base, blockNumber: null, minimums: null, error: problem },
        { status: 503 },
      );
    }
    try {
      const { params, overview, blockNumber } = await readOverview(ctx.court);
      return {
        status: "ok" as const,
        ...base,
        blockNumber: Number(blockNumber),
        minimums: {
          partyStake: params.terms.minPartyStake.toString(),
          judgeStake: overview.minJudgeStake.toString(),
          appealBond: params.terms.appealBond.toString(),
          filingFee: params.filingFee.toString(),
        },
      };
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message }, "health: chain unreadable");
      return new Answer(
        {
          status: "degraded" as const,
          ...base,
          blockNumber: null,
          minimums: null,
          error: "the chain node cannot be read",
        },
        { status: 503 },
      );
    }
  },
});
