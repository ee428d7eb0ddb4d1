import { loadConfig } from "../config.js";
import { selectOperations } from "../doors/select.js";
import { serveStdio } from "../mcp/stdio.js";
import { operations } from "../operations/registry.js";
import { createContext, followChain, makeEventHub } from "../server.js";

/**
 * `docket mcp` (`npx docket mcp`): the MCP server over stdio, on the embedded dev chain unless
 * RPC_URL is set. Logs go to stderr. Like `docket start` it runs the event follower (EVENT_POLL_MS),
 * which keeps the cache fresh and feeds the event hub its resource subscriptions listen to. Ends,
 * taking the dev chain with it, when the client closes stdin or on SIGINT/SIGTERM.
 */
export async function runMcpStdio(): Promise<void> {
  const config = loadConfig();
  // A bad DOCKET_TOOLS fails here, before the dev chain boots.
  const tools = selectOperations(operations, config.DOCKET_TOOLS);
  const { ctx } = await createContext(config, { followed: config.EVENT_POLL_MS > 0 });
  const events = makeEventHub(config, ctx.log);
  const follower = followChain(ctx, config, events);
  let session: Awaited<ReturnType<typeof serveStdio>> | undefined;
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ why }, "MCP stdio server stopping");
    try {
      follower?.stop();
      await session?.close();
      await events.close();
      await ctx.cache.close();
      await ctx.evidence.close();
      await ctx.court.close();
    } finally {
      process.exit(0);
    }
  };
  // A bug in one call must not take the server down, nor pass unseen: it is logged and the call fails alone.
  process.on("unhandledRejection", (err) => ctx.log.error({ err }, "unhandled rejection"));
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
  try {
    // Anchor before serving, so nothing mined after start is missed (a node that is away: the timer retries).
    await follower?.poll().catch(() => {});
    session = await serveStdio(ctx, {
      operations,
      tools,
      events,
      resourcePageSize: config.MCP_RESOURCE_PAGE_SIZE,
    });
  } catch (err) {
    follower?.stop();
    await ctx.court.close();
    throw err;
  }
  const { court } = ctx;
  ctx.log.info(
    { chainId: court.chainId, rpcUrl: court.publicRpcUrl, factory: court.factory, registry: court.registry },
    "docket MCP server ready on stdio",
  );
  void session.closed.then(() => stop("stdin closed"));
}
