/**
 * Compiles contracts/ (every .sol in its folders, docs/contracts.md names them) with solc-js and
 * writes src/chain/abi/generated.ts: typed `as const`
 * ABIs and bytecode. A struct's fields or an ABI item that several places have is written once, as a
 * const the ABIs name (`as const` keeps viem's literal types). The output is committed, so a fresh
 * `npm install` needs no compile step; `npm run build:contracts` regenerates it, and a test fails if
 * it is stale.
 *
 *   npm run build:contracts            write the file
 *   npm run build:contracts -- --check exit 1 if the committed file differs
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const contractsDir = join(root, "contracts");
const outFile = join(root, "src/chain/abi/generated.ts");
/** CourtRegistry's fallback runs RegistryBook's code (court administration, the paged reads). */
const reachedThrough: Record<string, string[]> = { CourtRegistry: ["RegistryBook"] };
/**
 * The contracts written out. A linked library (DisputeCase's roles) comes with its bytecode's link
 * references, and so does every contract whose bytecode calls one (`<name>LinkReferences`: library
 * name -> byte offsets of its placeholder); deployers link them with src/deploy/link.ts.
 */
const wanted = [
  "CourtRegistry",
  "CaseFactory",
  "DisputeCase",
  "CasePayouts",
  "CaseVoting",
  "BlockhashEntropy",
  "Multicall3",
  "IdentityRegistry",
  "ReputationRegistry",
  "CourtReputation",
  "TestUSD",
  "UsdcLike",
  "DocketArbitrator",
  "AgenticCommerce",
  "CourtEvaluator",
  "ValidationRegistry",
] as const;

/** Where a library's address goes in a bytecode: source file -> library -> byte ranges. */
type LinkReferences = Record<string, Record<string, { start: number; length: number }[]>>;

/** One compiled contract; `devdoc` and `userdoc` (its NatSpec) only when asked for. */
export interface SolcContract {
  abi: unknown[];
  evm: {
    bytecode: { object: string; linkReferences: LinkReferences };
    deployedBytecode: { linkReferences: LinkReferences };
  };
  devdoc?: Record<string, unknown>;
  userdoc?: Record<string, unknown>;
}

export interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, SolcContract>>;
  /** Each source's AST, only with `natspec` (which contract inherits which, which getters are there). */
  sources?: Record<string, { ast?: unknown }>;
}

/**
 * Every .sol under contracts/, by its path there with "/" ("courts/CourtRegistry.sol"): the source
 * unit names solc compiles them under, which a file's relative imports resolve against and which
 * the bytecode's metadata records.
 */
export function contractSources(): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  for (const f of readdirSync(contractsDir, { recursive: true, encoding: "utf8" })
    .filter((n) => n.endsWith(".sol"))
    .map((n) => n.split(sep).join("/"))
    .sort()) {
    sources[f] = { content: readFileSync(join(contractsDir, f), "utf8") };
  }
  return sources;
}

/**
 * Compiles every .sol under contracts/. `natspec` also asks solc for each contract's devdoc and userdoc and
 * each source's AST: extra outputs that leave the bytecode as it is, so one compile serves both the
 * ABI and the docs.
 */
export function solcOutput(natspec = false): SolcOutput {
  const compiled = ["abi", "evm.bytecode.object", "evm.bytecode.linkReferences", "evm.deployedBytecode.linkReferences"];
  const input = {
    language: "Solidity",
    sources: contractSources(),
    settings: {
      evmVersion: "cancun",
      optimizer: { enabled: true, runs: 200 },
      outputSelection: {
        "*": natspec ? { "*": [...compiled, "devdoc", "userdoc"], "": ["ast"] } : { "*": compiled },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  }
  for (const w of output.errors ?? []) process.stderr.write(`${w.formattedMessage}\n`);
  return output;
}

/**
 * Contract `name` in a compile's output, from whichever file of contracts/ declares it (a name is
 * declared once); throws if solc produced none.
 */
function contractOf(output: SolcOutput, name: string): SolcContract {
  const [c, ...more] = Object.values(output.contracts).flatMap((file) => (file[name] ? [file[name]] : []));
  if (!c || more.length > 0) throw new Error(`solc produced ${c ? "more than one" : "no"} ${name}`);
  return c;
}

/** Appends to `abi` the `items` it does not have yet (by signature). */
function addMissing(abi: unknown[], items: readonly unknown[]): void {
  const seen = new Set(abi.map(signature));
  for (const item of items) {
    const sig = signature(item);
    if (seen.has(sig)) continue;
    seen.add(sig);
    abi.push(item);
  }
}

/** The text of src/chain/abi/generated.ts for a compile's output. */
export function compile(output: SolcOutput = solcOutput()): string {
  const abis = new Map<string, unknown[]>();
  for (const name of wanted) {
    const abi = [...contractOf(output, name).abi];
    // A contract whose fallback runs another's code on its own storage answers that one's functions too.
    for (const extra of reachedThrough[name] ?? []) addMissing(abi, contractOf(output, extra).abi);
    // A library its code runs by DELEGATECALL emits its events and reverts with its errors from this
    // contract's address: they are part of this contract's ABI (solc lists only its own).
    const own = abi.length;
    for (const lib of delegatedTo(output, name)) {
      addMissing(
        abi,
        contractOf(output, lib).abi.filter((i) => ["event", "error"].includes((i as { type: string }).type)),
      );
    }
    if (abi.length > own) abi.sort(byKindAndName);
    abis.set(name, abi);
  }
  const shared = sharedParts([...abis.values()]);

  let ts = `// Generated by scripts/build-contracts.ts from contracts/ (solc ${solc.version()}).\n`;
  ts += "// Do not edit: run `npm run build:contracts`.\n\n";
  // What several places have (a struct's fields, an ERC-20 function, a shared interface's event) is written once.
  for (const [json, id] of shared) ts += `const ${id} = ${shared.write(JSON.parse(json), true)} as const;\n\n`;
  for (const name of wanted) {
    const items = (abis.get(name) ?? []).map((item) => `  ${shared.write(item).replace(/\n/g, "\n  ")}`);
    const { bytecode } = contractOf(output, name).evm;
    ts += `export const ${lowerFirst(name)}Abi = [\n${items.join(",\n")}\n] as const;\n\n`;
    ts += `export const ${lowerFirst(name)}Bytecode = "0x${bytecode.object}" as const;\n\n`;
    const links = byLibrary(bytecode.linkReferences ?? {});
    if (Object.keys(links).length > 0) {
      ts += `export const ${lowerFirst(name)}LinkReferences = ${JSON.stringify(links, null, 2)} as const;\n\n`;
    }
  }
  return ts;
}

/** Link references keyed by library name alone (each library's name is unique in contracts/). */
function byLibrary(refs: LinkReferences): Record<string, { start: number; length: number }[]> {
  return Object.assign({}, ...Object.values(refs));
}

/** The libraries `name`'s runtime code DELEGATECALLs, directly or through another library. */
function delegatedTo(output: SolcOutput, name: string, found = new Set<string>()): Set<string> {
  for (const lib of Object.keys(byLibrary(contractOf(output, name).evm.deployedBytecode.linkReferences ?? {}))) {
    if (!found.has(lib)) delegatedTo(output, lib, found.add(lib));
  }
  return found;
}

/** solc's order of ABI items: by kind, then by name (code unit order, not locale order). */
function byKindAndName(a: unknown, b: unknown): number {
  const key = (i: unknown) => {
    const { type, name } = i as { type: string; name?: string };
    return `${type}:${name ?? ""}`;
  };
  const [x, y] = [key(a), key(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

interface Param {
  internalType?: string;
  components?: Param[];
}

/**
 * The parts found in more than one place of `abis`, by their whole JSON: a struct's fields (named
 * after the struct, "caseViewFields"; also where a getter's outputs list them), then whole ABI items (named after the item and its kind,
 * "transferEvent"), numbered when two share a name; in an order where each comes after the parts
 * it uses. `write` gives a value's source with every shared part in it named.
 */
function sharedParts(abis: unknown[][]) {
  const seen = new Map<string, { count: number; name: string }>();
  const note = (json: string, name: string) => {
    const s = seen.get(json);
    seen.set(json, { count: (s?.count ?? 0) + 1, name });
  };
  const visit = (params: Param[] = []) => {
    for (const p of params) {
      if (!p.components) continue;
      visit(p.components);
      const struct = (p.internalType ?? "")
        .replace(/^struct /, "")
        .replace(/\[\d*\]/g, "")
        .split(".")
        .pop();
      note(JSON.stringify(p.components), `${lowerFirst(struct || "tuple")}Fields`);
    }
  };
  for (const abi of abis) {
    for (const item of abi) {
      const { inputs, outputs } = item as { inputs?: Param[]; outputs?: Param[] };
      visit(inputs);
      visit(outputs);
    }
  }
  // A struct's public getter answers its fields one by one: its outputs are the same list.
  for (const abi of abis) {
    for (const item of abi) {
      const { inputs, outputs } = item as { inputs?: Param[]; outputs?: Param[] };
      for (const json of [inputs, outputs].map((list) => JSON.stringify(list))) {
        const struct = seen.get(json);
        if (struct) note(json, struct.name);
      }
    }
  }
  for (const abi of abis) {
    for (const json of new Set(abi.map((item) => JSON.stringify(item)))) {
      const { type, name } = JSON.parse(json) as { type: string; name?: string };
      const kind = type.charAt(0).toUpperCase() + type.slice(1);
      // "transferEvent", "MAX_HASH_LENGTHFunction", "constructorItem"
      note(json, name ? `${/^[A-Z][a-z]/.test(name) ? lowerFirst(name) : name}${kind}` : `${type}Item`);
    }
  }
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const [json, { count, name }] of seen) {
    if (count < 2) continue;
    let id = name;
    for (let k = 2; taken.has(id); k++) id = `${name}${k}`;
    taken.add(id);
    ids.set(json, id);
  }
  const write = (value: unknown, root = false) =>
    JSON.stringify(
      value,
      (key, v) => {
        if (key === "" && root) return v;
        const id = ["", "components", "inputs", "outputs"].includes(key) ? ids.get(JSON.stringify(v)) : undefined;
        return id ? `@shared ${id}` : v;
      },
      2,
    ).replace(/"@shared ([\w$]+)"/g, "$1");
  return Object.assign(ids, { write });
}

/** An ABI item's kind, name and input types: the same item in two contracts has one signature. */
function signature(item: unknown): string {
  const { type, name, inputs } = item as { type: string; name?: string; inputs?: { type: string }[] };
  return `${type} ${name ?? ""}(${(inputs ?? []).map((i) => i.type).join(",")})`;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ts = compile();
  if (process.argv.includes("--check")) {
    const current = readFileSync(outFile, "utf8");
    if (current !== ts) {
      process.stderr.write("src/chain/abi/generated.ts is stale: run `npm run build:contracts`\n");
      process.exit(1);
    }
    process.stdout.write("generated ABIs are up to date\n");
  } else {
    writeFileSync(outFile, ts);
    process.stdout.write(`wrote ${outFile.slice(root.length + 1)}\n`);
  }
}
