import { startDevnet } from "../devnet/devnet.js";
import { onNpmGone } from "../devnet/parent.js";

/**
 * `npm run devnet`: the dev chain alone, deployed and seeded, until stopped. Prints the KEY=value
 * lines docket reads, so one docket or several replicas can use it as an external chain.
 */
export async function runDevnet(): Promise<void> {
  const port = process.env.DEVNET_PORT ? Number(process.env.DEVNET_PORT) : undefined;
  const devnet = await startDevnet({ port });
  const lines = [
    `RPC_URL=${devnet.rpcUrl}`,
    `CHAIN_ID=${devnet.chainId}`,
    `FACTORY_ADDRESS=${devnet.deployment.factory}`,
    `REGISTRY_ADDRESS=${devnet.deployment.registry}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  process.stderr.write(`dev chain ready; ${devnet.seed?.cases.length ?? 0} demo cases seeded. Ctrl-C stops it.\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await devnet.stop();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // Signalled through npm (npm run devnet), npm's shell dies without passing the signal on.
  onNpmGone(stop);
  // Keep the process alive while anvil runs.
  setInterval(() => {}, 1 << 30);
}
