/**
 * The test-only RejectingParty (fixtures/RejectingParty.sol), compiled with solc-js: a party that
 * forwards calls as itself and refuses plain ETH until told to accept it.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";
import type { Abi, Hex } from "viem";

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

export const refuserAbi = [
  {
    type: "function",
    name: "exec",
    stateMutability: "payable",
    inputs: [
      { name: "target", type: "address" },
      { name: "data", type: "bytes" },
    ],
    outputs: [{ name: "ret", type: "bytes" }],
  },
  {
    type: "function",
    name: "setAccepting",
    stateMutability: "nonpayable",
    inputs: [{ name: "accepting_", type: "bool" }],
    outputs: [],
  },
  {
    type: "function",
    name: "accepting",
    stateMutability: "view",
    inputs: [],
    outputs: [{ name: "", type: "bool" }],
  },
] as const;

export function compileRefuser(): Compiled {
  return compileFixture("RejectingParty");
}

/** Compiles the test-only contract `name` of fixtures/`name`.sol with solc-js. */
export function compileFixture(name: string): Compiled {
  const file = `${name}.sol`;
  const input = {
    language: "Solidity",
    sources: { [file]: { content: readFileSync(join(fixtures, file), "utf8") } },
    settings: { evmVersion: "cancun", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"));
  }
  const c = out.contracts[file][name];
  return { abi: c.abi as Abi, bytecode: `0x${c.evm.bytecode.object}` };
}
