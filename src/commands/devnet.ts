import { arbitrationEnvLines } from "../chain/deployments.js";
import { loadConfig } from "../config.js";
import { startDevnet } from "../devnet/devnet.js";
import { onNpmGone } from "../devnet/parent.js";
import { Lifecycle, stopOnSignals } from "../lifecycle.js";
import { openEvidence } from "../server.js";

/**
 * `npm run devnet`: the dev chain alone, deployed and seeded, until stopped. Prints the KEY=value
 * lines docket reads, so one docket or several replicas can use it as an external chain. The seeded
 * evidence goes to EVIDENCE_DIR (printed too): dockets that share it read the seeded documents.
 */
export async function runDevnet(): Promise<void> {
  const port = process.env.DEVNET_PORT ? Number(process.env.DEVNET_PORT) : undefined;
  const config = loadConfig();
  // Its parts: the evidence store (the seed's documents), then the dev chain; closed in reverse.
  const life = new Lifecycle();
  const evidence = await life.start(
    "evidence store",
    () => openEvidence(config),
    (e) => e.close(),
  );
  const devnet = await life.start(
    "dev chain",
    () => startDevnet({ port, evidence }),
    (d) => d.stop(),
  );
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
  // Signalled through npm (npm run devnet), npm's shell dies without passing the signal on.
  stopOnSignals(() => life.close(), undefined, {
    message: "dev chain stopping",
    also: [(stop) => onNpmGone(() => stop("npm exited"))],
  });
  // Keep the process alive while anvil runs.
  setInterval(() => {}, 1 << 30);
}
