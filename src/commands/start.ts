import { loadConfig } from "../config.js";
import { onNpmGone } from "../devnet/parent.js";
import { stopOnSignals } from "../lifecycle.js";
import { startServer } from "../server.js";

/** `npm start`: dev chain (unless RPC_URL is set) + HTTP API + docs + MCP on one port. */
export async function runStart(): Promise<void> {
  const config = loadConfig();
  const docket = await startServer(config);
  const { chain } = docket.ctx;
  const devnet = docket.dev?.devnet;
  const lines = [
    "",
    `docket is up on ${docket.url}`,
    // The examples (and the README's round trip) find docket through DOCKET_URL, whatever PORT is.
    `  examples      export DOCKET_URL=${docket.url}   (run it in the shell you sign from: examples/*.ts read it)`,
    `  explorer      ${docket.url}/   (open it in a browser: the cases, their votes and evidence, live)`,
    `  API docs      ${docket.url}/docs   (OpenAPI: ${docket.url}/openapi.json)`,
    `  health        ${docket.url}/health`,
    `  push          ${docket.url}/events (SSE)   inbox: ${docket.url}/agent/{address}/inbox   keeper: ${docket.url}/keeper/actions`,
    `  MCP           ${docket.url}/mcp (Streamable HTTP)   ${docket.url}/mcp/session (with sessions)   ${docket.url}/sse (SSE)   stdio: npx docket mcp`,
    `  chain         ${chain.chainId}${chain.publicRpcUrl ? ` (embedded dev chain, JSON-RPC ${chain.publicRpcUrl})` : ""}`,
    `  contracts     factory ${chain.factory}  registry ${chain.registry}`,
    docket.ctx.index
      ? `  index         ${docket.ctx.index.store.engine === "pglite" ? "embedded Postgres (PGlite)" : "Postgres"} at ${docket.ctx.index.store.where}   (every court event: docs/index.md)`
      : "  index         off (INDEX=off)",
    chain.erc8004.enabled
      ? `  ERC-8004      identity ${chain.erc8004.identity}  reputation ${chain.erc8004.reputation}  court reporter ${chain.erc8004.reporter}`
      : `  ERC-8004      off: ${chain.erc8004.reason}`,
  ];
  if (devnet?.deployment.feeToken) {
    lines.push(`  fee token     ${devnet.deployment.feeToken} (TestUSD, EIP-3009: filing fee 1 dUSD, x402 "exact")`);
  }
  if (chain.arbitration) {
    const a = chain.arbitration;
    lines.push(
      `  arbitration   arbitrator ${a.arbitrator}  ERC-8183 jobs ${a.commerce}  (${docket.url}/jobs, docs/arbitration.md)`,
    );
  }
  if (docket.ctx.facilitator) {
    const own = docket.dev?.facilitator;
    const who = own ? ` (dev facilitator, its own process, pays gas as #19 ${own.address})` : "";
    lines.push(`  x402          facilitator ${docket.ctx.facilitator.url}${who}`);
  }
  if (devnet) {
    lines.push("", "Funded dev accounts (standard test mnemonic; public keys, never use them on a real chain):");
    for (const a of devnet.accounts) {
      const role = a.role === "free" ? "free to use" : `${a.role}${a.name ? ` ${a.name}` : ""}`;
      lines.push(`  #${String(a.index).padEnd(2)} ${a.address}  ${a.privateKey}  ${role}`);
    }
    lines.push("", "Seeded cases (General court: public votes; Agentic Commerce: hidden votes):");
    for (const c of devnet.seed?.cases ?? []) lines.push(`  ${c.address}  ${c.court.padEnd(16)}  ${c.label}`);
    const jobs = devnet.seed?.jobs ?? [];
    if (jobs.length > 0) {
      lines.push("", "Seeded jobs (ERC-8183, judged by the court when disputed):");
      for (const j of jobs)
        lines.push(`  job ${String(j.id).padEnd(3)} ${j.label}${j.case ? `  (case ${j.case})` : ""}`);
    }
  }
  lines.push("", "Ctrl-C stops docket and its dev chain.", "");
  process.stdout.write(lines.join("\n"));

  // Ctrl-C, SIGTERM or npm going away: its parts close in reverse (in-flight requests finish first).
  stopOnSignals(() => docket.close(), docket.ctx.log, {
    message: "shutting down: finishing in-flight requests",
    also: [(stop) => onNpmGone(() => stop("npm exited"))],
  });
}
