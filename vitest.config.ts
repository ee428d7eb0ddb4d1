import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Suites that only need HTTP answers lease a seeded dev chain from the run's lender
    // (TestDocket.shared, docs/testing.md); the rest boot their own. Two files at a time suits the
    // 2-core CI machine.
    globalSetup: ["test/support/globalSetup.ts"],
    maxWorkers: 2,
    pool: "forks",
  },
});
