import { loadConfig } from "../config.js";
import { selectOperations } from "../doors/select.js";
import { storedHistory } from "../index/queries/events.js";
import { Lifecycle, stopOnSignals } from "../lifecycle.js";
import { makeLogger } from "../log.js";
import { serveStdio } from "../mcp/stdio.js";
import { operations } from "../operations/registry.js";
import { startFollower, startHub, startParts } from "../server.js";

/**
 * `docket mcp` (`npx docket mcp`): the MCP server over stdio, on the embedded dev chain unless
 * RPC_URL is set. Logs go to stderr. Like `docket start` it runs the event follower (EVENT_POLL_MS),
 * which keeps the cache fresh and feeds the event hub its resource subscriptions listen to. Its
 * parts, on one lifecycle: those `docket start` starts first (evidence store, chain, cache), the
 * event hub, the event follower, the stdio session. Ends, closing them in reverse (the dev chain
 * with them), when the client closes stdin or on SIGINT/SIGTERM.
 */
export async function runMcpStdio(): Promise<void> {
  const config = loadConfig();
  // A bad DOCKET_TOOLS fails here, before the dev chain boots.
  const tools = selectOperations(operations, config.DOCKET_TOOLS);
  const log = makeLogger(config.LOG_LEVEL);
  const life = new Lifecycle(log);
  const { ctx } = await startParts(config, life, { log, followed: config.EVENT_POLL_MS > 0 });
  const events = await startHub(config, life, log);
  const stop = stopOnSignals(() => life.close(), log, { message: "MCP stdio server stopping" });
  await startFollower(config, life, ctx, events);
  const session = await life.start(
    "stdio session",
    () =>
      serveStdio(ctx, {
        operations,
        tools,
        events,
        history: ctx.index ? storedHistory(ctx.index.db) : undefined,
        resourcePageSize: config.MCP_RESOURCE_PAGE_SIZE,
      }),
    (s) => s.close(),
  );
  const { chain } = ctx;
  log.info(
    { chainId: chain.chainId, rpcUrl: chain.publicRpcUrl, factory: chain.factory, registry: chain.registry },
    "docket MCP server ready on stdio",
  );
  void session.closed.then(() => stop("stdin closed"));
}
