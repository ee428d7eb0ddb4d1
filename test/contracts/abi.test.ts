import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile } from "../../scripts/build-contracts.js";

/** The committed, generated ABIs and bytecode must be what contracts/*.sol compile to today. */
describe("src/chain/abi/generated.ts", () => {
  it("is up to date with contracts/ (else run `npm run build:contracts`)", () => {
    const committed = readFileSync(new URL("../../src/chain/abi/generated.ts", import.meta.url), "utf8");
    expect(compile() === committed, "src/chain/abi/generated.ts is stale: run `npm run build:contracts`").toBe(true);
  }, 120_000);
});
