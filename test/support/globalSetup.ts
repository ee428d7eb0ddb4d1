import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startChainLender } from "./sharedChain.js";

/**
 * The run's temp directory and its shared dev chains (test/support/sharedChain.ts).
 *
 * Everything the run makes in the temp dir (evidence stores, anvil state caches, the dockets and
 * nodes it spawns, browser profiles) goes under one directory of its own: TMPDIR is set to it
 * before the workers start, and they and their children inherit it. It is removed when the run
 * ends, so a run leaves nothing behind, whatever a suite forgot or a killed process left.
 *
 * The lender starts here, booting nothing until a suite leases.
 */
export default async function setup(project: TestProject) {
  const runDir = mkdtempSync(join(tmpdir(), "docket-test-run-"));
  process.env.TMPDIR = runDir;
  const lender = await startChainLender();
  project.provide("chainLender", lender.url);
  return async () => {
    await lender.close();
    rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  };
}
