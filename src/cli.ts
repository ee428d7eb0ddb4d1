import { ConfigError } from "./config.js";

const usage = `usage: docket <command>

  start    dev chain (unless RPC_URL is set) + HTTP API + MCP over HTTP, on one port
  mcp      MCP server over stdio (logs on stderr)
  devnet   the dev chain alone, deployed and seeded; prints RPC_URL and addresses
  deploy   deploy the court contracts to RPC_URL with DEPLOYER_PRIVATE_KEY
  facilitator  an x402 facilitator on FACILITATOR_RPC_URL paying gas with FACILITATOR_PRIVATE_KEY
`;

/** `docket <command> --help`: what the command does and what it reads (docs/configuration.md has every setting). */
const HELP: Record<string, string> = {
  start: `usage: docket start

  The dev chain (unless RPC_URL is set), the HTTP API, its docs, the explorer and MCP over HTTP, on
  PORT (default 8787). Settings come from the environment: docs/configuration.md.
`,
  mcp: `usage: docket mcp

  MCP over stdin/stdout (logs on stderr), on the dev chain unless RPC_URL is set: docs/mcp.md.
`,
  devnet: `usage: docket devnet

  The dev chain alone, deployed and seeded; prints RPC_URL and the addresses for another docket.
`,
  deploy: `usage: docket deploy

  Deploys the court contracts to a chain and writes deployments/<chainId>.json (DEPLOYMENTS_DIR).
  From the environment:
    RPC_URL                 the chain (required)
    DEPLOYER_PRIVATE_KEY    the deployer's key (required; never logged)
    DEPLOY_PRESET           production (default) or dev windows and stakes
    FEE_RECIPIENT           default: the deployer
    ENTROPY_ADDRESS         the draw's entropy source
    CHALLENGE_WINDOW_SECONDS, ERC8004_IDENTITY_ADDRESS, ERC8004_REPUTATION_ADDRESS
    JOBS_TOKEN_ADDRESS, EVALUATOR_COURTS   also deploy docket as an ERC-8183 arbitrator (docs/arbitration.md)
  docs/configuration.md describes each.
`,
  facilitator: `usage: docket facilitator

  An x402 facilitator on FACILITATOR_RPC_URL, paying gas with FACILITATOR_PRIVATE_KEY (docs/payments.md).
`,
};

/** Each command, loaded only when it runs (a literal path each, so the build finds them). */
const COMMANDS: Record<string, () => Promise<void>> = {
  start: async () => (await import("./commands/start.js")).runStart(),
  mcp: async () => (await import("./commands/mcp.js")).runMcpStdio(),
  devnet: async () => (await import("./commands/devnet.js")).runDevnet(),
  deploy: async () => (await import("./commands/deploy.js")).runDeploy(),
  facilitator: async () => (await import("./commands/facilitator.js")).runFacilitatorCommand(),
};

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const run = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (run && (rest.includes("--help") || rest.includes("-h"))) {
    process.stdout.write(HELP[command as string] ?? usage);
    return;
  }
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
