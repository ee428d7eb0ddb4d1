import { z } from "zod";
import { MULTICALL3_ADDRESS } from "../../chain/client.js";
import { readOverview } from "../../chain/reads/system.js";
import type { NodeSeen } from "../../chain/status.js";
import { Answer, type Ctx, defineOperation } from "../kernel/operation.js";

const startedAt = Date.now();

/** How long health waits at most for the stalled follower's poll before it answers. */
const CATCH_UP_MS = 1_000;

export const getHealth = defineOperation({
  name: "get_health",
  title: "Health check",
  description:
    "Whether docket can read the chain: status ok or degraded (node unreachable, answering another chain id, a chain that changed under the event follower since it last looked: new genesis, head gone backwards; or the follower not keeping up), chain id, latest block, contract addresses, the ERC-8004 registries (or why they are off), the minimum stakes and fees (wei), and on the dev chain its JSON-RPC URL (rpcUrl) for wallets to broadcast to. Over HTTP a degraded answer has status 503. lastChainEvent is the last reorg or reset detected.",
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
    follower: z
      .object({
        blocksBehind: z.number().int().describe("Blocks between the last one it acted on and the head it read towards"),
        since: z.string().describe("When it was last caught up (ISO 8601)"),
        error: z.string().optional().describe("Why its last poll failed"),
      })
      .optional()
      .describe(
        "Present while the event follower is behind the chain or failing; degraded past FOLLOWER_MAX_LAG_SECONDS",
      ),
    index: z
      .object({
        role: z
          .enum(["writer", "reader"])
          .describe("Whether this replica writes the index or reads what another writes"),
        cursor: z.number().int().nullable().describe("The last block the index holds (null before its first step)"),
        head: z.number().int().nullable().describe("The chain's head as read for this answer"),
        lagBlocks: z.number().int().nullable().describe("Blocks between the index's cursor and the head"),
        prunedBelow: z
          .number()
          .int()
          .nullable()
          .describe("Events below this block were pruned (INDEX_RETENTION); null when none were"),
        backfill: z
          .object({
            running: z.boolean(),
            block: z.number().int(),
            target: z.number().int(),
            percent: z.number().int(),
            events: z.number().int(),
          })
          .describe("The backfill's progress (running false once caught up)"),
        error: z.string().optional().describe("The index's database could not be read"),
      })
      .optional()
      .describe("The index (absent with INDEX=off): this replica's role, how far it has come, the backfill"),
  }),
  servesOnWrongChain: true,
  // A chain it cannot read (or the wrong chain) is its answer, not an error.
  errors: [],
  answers: {
    503: "Degraded: the node cannot be read, serves another chain id or another chain than the follower last saw, or the follower is not keeping up (`error` says which)",
  },
  handler: async (_input, ctx) => {
    const index = await indexHealth(ctx);
    const base = {
      ...(index ? { index } : {}),
      chainId: ctx.chain.chainId,
      contracts: { factory: ctx.chain.factory, registry: ctx.chain.registry, multicall3: MULTICALL3_ADDRESS },
      erc8004: ctx.chain.erc8004,
      ...(ctx.chain.publicRpcUrl ? { rpcUrl: ctx.chain.publicRpcUrl } : {}),
      uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
      ...(ctx.chainStatus?.lastEvent ? { lastChainEvent: ctx.chainStatus.lastEvent } : {}),
      ...(ctx.chainStatus?.lag ? { follower: ctx.chainStatus.lag } : {}),
    };
    const degraded = (error: string, blockNumber: number | null = null) =>
      new Answer({ status: "degraded" as const, ...base, blockNumber, minimums: null, error }, { status: 503 });
    await ctx.chainStatus?.recheck();
    const problem = ctx.chainStatus?.problem;
    if (problem) return degraded(problem);
    try {
      // What the node says now against what the follower last saw: 3 requests in one round trip's time.
      const seen = ctx.chainStatus?.seen;
      const [{ params, overview, blockNumber }, nodeChainId, genesis] = await Promise.all([
        readOverview(ctx.chain),
        ctx.chain.reader.getChainId(),
        seen ? ctx.chain.reader.getBlock({ blockNumber: 0n }).then((b) => b.hash) : undefined,
      ]);
      const changed = chainChange(ctx.chain.chainId, seen, { chainId: nodeChainId, genesis, head: blockNumber });
      if (changed) return degraded(changed, Number(blockNumber));
      // The node answers again: the follower polls now instead of at its next tick (bounded).
      await ctx.chainStatus?.catchUp(CATCH_UP_MS);
      if (ctx.chainStatus?.stalled) {
        const lag = ctx.chainStatus.lag;
        return degraded(
          `the event follower is not keeping up: ${lag?.blocksBehind} blocks behind, last caught up ${lag?.since}${lag?.error ? ` (${lag.error})` : ""}; cached answers may be stale until it is`,
          Number(blockNumber),
        );
      }
      // The lag as it is now: the catch-up above may have cleared it.
      const { follower: _before, ...rest } = base;
      return {
        status: "ok" as const,
        ...rest,
        ...(index ? { index: atHead(index, Number(blockNumber)) } : {}),
        ...(ctx.chainStatus?.lag ? { follower: ctx.chainStatus.lag } : {}),
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
      return degraded("the chain node cannot be read");
    }
  },
});

/** Why the node's chain now is not the one the follower last saw (until its next poll acts on it), if it is not. */
function chainChange(
  expected: number,
  seen: NodeSeen | undefined,
  now: { chainId: number; genesis: string | undefined; head: bigint },
): string | undefined {
  if (now.chainId !== expected)
    return `chain id mismatch: the node answers chain ${now.chainId}, docket serves chain ${expected}`;
  if (!seen) return undefined;
  if (now.genesis !== undefined && now.genesis !== seen.genesis) {
    return `the node's chain was reset (genesis ${now.genesis}, the follower last saw ${seen.genesis}): cached answers are being dropped at the follower's next poll`;
  }
  if (now.head < seen.head) {
    return `the node's head went backwards (block ${now.head}, the follower last saw ${seen.head}): a reorg or a reset, acted on at the follower's next poll`;
  }
  return undefined;
}

interface IndexHealth {
  role: "writer" | "reader";
  cursor: number | null;
  head: number | null;
  lagBlocks: number | null;
  prunedBelow: number | null;
  backfill: { running: boolean; block: number; target: number; percent: number; events: number };
  error?: string;
}

/** The index as health shows it, before the head is read; undefined with INDEX=off. */
async function indexHealth(ctx: Ctx): Promise<IndexHealth | undefined> {
  const index = ctx.index;
  if (!index) return undefined;
  const backfill = { running: false, block: 0, target: 0, percent: 0, events: 0 };
  try {
    const s = await index.state();
    const { running, block, target, percent, events } = s.backfill;
    return {
      role: s.role,
      cursor: s.cursor,
      head: null,
      lagBlocks: null,
      prunedBelow: s.prunedBelow,
      backfill: { running, block, target, percent, events },
    };
  } catch (err) {
    ctx.log.warn({ err: (err as Error).message }, "health: the index cannot be read");
    return {
      role: index.role(),
      cursor: null,
      head: null,
      lagBlocks: null,
      prunedBelow: null,
      backfill,
      error: "the index's database cannot be read",
    };
  }
}

/** The index's lag behind the head just read. */
function atHead(index: IndexHealth, head: number): IndexHealth {
  return { ...index, head, lagBlocks: index.cursor === null ? null : Math.max(0, head - index.cursor) };
}
