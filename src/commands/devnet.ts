import { arbitrationEnvLines } from "../chain/deployments.js";
import { loadConfig } from "../config.js";
import { startDevnet } from "../devnet/devnet.js";
import { onNpmGone } from "../devnet/parent.js";
import { openEvidence } from "../server.js";

/**
 * `npm run devnet`: the dev chain alone, deployed and seeded, until stopped. Prints the KEY=value
 * lines docket reads, so one docket or several replicas can use it as an external chain. The seeded
 * evidence goes to EVIDENCE_DIR (printed too): dockets that share it read the seeded documents.
 */
export async function runDevnet(): Promise<void> {
  const port = process.env.DEVNET_PORT ? Number(process.env.DEVNET_PORT) : undefined;
  const config = loadConfig();
  const evidence = await openEvidence(config);
  const devnet = await startDevnet({ port, evidence });
  const lines = [
    `RPC_URL=${devnet.rpcUrl}`,
    `CHAIN_ID=${devnet.chainId}`,
    `FACTORY_ADDRESS=${devnet.deployment.factory}`,
    `REGISTRY_ADDRESS=${devnet.deployment.registry}`,
    ...(devnet.deployment.arbitration ? arbitrationEnvLines(devnet.deployment.arbitration) : []),
    `EVIDENCE_DIR=${config.EVIDENCE_DIR}`,
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
