import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file boots its own dev chain; two at a time suits the 2-core CI machine.
    maxWorkers: 2,
    pool: "forks",
  },
});
