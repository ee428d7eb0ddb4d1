import type { TestProject } from "vitest/node";
import { startChainLender } from "./sharedChain.js";

/** The run's shared dev chains (test/support/sharedChain.ts): the lender starts here, booting nothing until a suite leases. */
export default async function setup(project: TestProject) {
  const lender = await startChainLender();
  project.provide("chainLender", lender.url);
  return () => lender.close();
}
