import { ConfigError } from "./config.js";

const usage = `usage: docket <command>

  start    dev chain (unless RPC_URL is set) + HTTP API + MCP over HTTP, on one port
  mcp      MCP server over stdio (logs on stderr)
  devnet   the dev chain alone, deployed and seeded; prints RPC_URL and addresses
  deploy   deploy the court contracts to RPC_URL with DEPLOYER_PRIVATE_KEY
  facilitator  an x402 facilitator on FACILITATOR_RPC_URL paying gas with FACILITATOR_PRIVATE_KEY
`;

/** Each command, loaded only when it runs (a literal path each, so the build finds them). */
const COMMANDS: Record<string, () => Promise<void>> = {
  start: async () => (await import("./commands/start.js")).runStart(),
  mcp: async () => (await import("./commands/mcp.js")).runMcpStdio(),
  devnet: async () => (await import("./commands/devnet.js")).runDevnet(),
  deploy: async () => (await import("./commands/deploy.js")).runDeploy(),
  facilitator: async () => (await import("./commands/facilitator.js")).runFacilitatorCommand(),
};

async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  const run = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (run) return run();
  process.stderr.write(usage);
  process.exitCode = command === undefined || command === "help" || command === "--help" ? 0 : 2;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  // One clear line for configuration mistakes; a stack only for the unexpected.
  if (err instanceof ConfigError) process.stderr.write(`docket: ${err.message}\n`);
  else process.stderr.write(`docket: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
