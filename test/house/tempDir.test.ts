import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";

/** The run's temp directory (test/support/globalSetup.ts, docs/testing.md): removed when the run ends. */
describe("the test run's temp directory", () => {
  it("is one of the run's own, for the suites and the processes they start", () => {
    const dir = tmpdir();
    expect(basename(dir)).toMatch(/^docket-test-run-/);
    // A child inherits it (the dockets, nodes and browsers the suites spawn).
    const childs = execFileSync(process.execPath, ["-e", "process.stdout.write(require('node:os').tmpdir())"], {
      encoding: "utf8",
    });
    expect(childs).toBe(dir);
  });
});
