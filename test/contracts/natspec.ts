import { formatAbiItem } from "viem/utils";
import type { SolcOutput } from "../../scripts/build-contracts.js";

interface AbiParam {
  name: string;
  type: string;
  components?: AbiParam[];
}
interface AbiItem {
  type: string;
  name?: string;
  inputs?: AbiParam[];
  outputs?: AbiParam[];
}
/** What solc's devdoc/userdoc say of one function, event or error (errors come as a list). */
interface DocEntry {
  notice?: string;
  params?: Record<string, string>;
  returns?: Record<string, string>;
}
type Docs = Record<string, DocEntry | DocEntry[]>;
interface AstNode {
  nodeType?: string;
  id?: number;
  name?: string;
  nodes?: AstNode[];
  linearizedBaseContracts?: number[];
  stateVariable?: boolean;
  visibility?: string;
}

const section = { function: "methods", event: "events", error: "errors" } as const;

/**
 * Every NatSpec gap in a compile with devdoc, userdoc and the AST (`solcOutput(true)`), one line each
 * ("File.sol:Contract function f(uint256): no @param amount"): an external or public function (a
 * public state variable's getter included), event or custom error in any contract's ABI without a
 * `@notice`, a named parameter without its `@param`, a return value without its `@return`, or a
 * parameter with no name to document. A getter's mapping keys have no names in Solidity and are exempt.
 */
export function natspecGaps(output: SolcOutput): string[] {
  const decls = contractDeclarations(output);
  const gaps: string[] = [];
  for (const [file, contracts] of Object.entries(output.contracts)) {
    for (const [name, c] of Object.entries(contracts)) {
      const user = (c.userdoc ?? {}) as Record<string, Docs>;
      const dev = (c.devdoc ?? {}) as Record<string, Docs>;
      // A getter's @return is in the devdoc of the contract that declares the variable: solc does
      // not copy it into the contracts that inherit it, as it does a function's.
      const bases = (decls.get(`${file}:${name}`)?.bases ?? []).map((b) => decls.get(b)).filter((b) => b !== undefined);
      const getterDoc = (variable: string): DocEntry | undefined => {
        const base = bases.find((b) => b.getters.has(variable));
        if (!base) return undefined;
        const [f, n] = [base.file, base.name];
        const doc = output.contracts[f]?.[n]?.devdoc as { stateVariables?: Record<string, DocEntry> } | undefined;
        return doc?.stateVariables?.[variable] ?? {};
      };
      for (const item of c.abi as AbiItem[]) {
        if (item.type !== "function" && item.type !== "event" && item.type !== "error") continue;
        const inputs = item.inputs ?? [];
        // The canonical signature solc keys its docs by: a struct is its members' types in parentheses.
        const sig = formatAbiItem(item as Parameters<typeof formatAbiItem>[0]);
        const where = `${file}:${name} ${item.type} ${sig}`;
        const getter = item.type === "function" ? getterDoc(item.name ?? "") : undefined;
        const d = getter ?? first(dev[section[item.type]]?.[sig]) ?? {};
        if (!first(user[section[item.type]]?.[sig])?.notice?.trim()) gaps.push(`${where}: no @notice`);
        inputs.forEach((input, i) => {
          if (input.name === "") {
            if (!getter) gaps.push(`${where}: parameter ${i} has no name to document`);
          } else if (!d.params?.[input.name]?.trim()) gaps.push(`${where}: no @param ${input.name}`);
        });
        (item.outputs ?? []).forEach((out, i) => {
          if (!d.returns?.[out.name || `_${i}`]?.trim())
            gaps.push(`${where}: no @return for ${out.name || `value ${i}`}`);
        });
      }
    }
  }
  return gaps;
}

interface Declaration {
  file: string;
  name: string;
  /** "File.sol:Name" of the contract and everything it inherits, most derived first. */
  bases: string[];
  /** Its own public state variables (each has a getter). */
  getters: Set<string>;
}

/** Every contract's declaration in the AST, by "File.sol:Name". */
function contractDeclarations(output: SolcOutput): Map<string, Declaration> {
  const byId = new Map<number, { file: string; node: AstNode }>();
  for (const [file, source] of Object.entries(output.sources ?? {})) {
    for (const node of (source.ast as AstNode | undefined)?.nodes ?? []) {
      if (node.nodeType === "ContractDefinition" && node.id !== undefined) byId.set(node.id, { file, node });
    }
  }
  const key = (id: number) => {
    const d = byId.get(id);
    return d ? `${d.file}:${d.node.name}` : "";
  };
  const out = new Map<string, Declaration>();
  for (const [id, { file, node }] of byId) {
    const getters = new Set(
      (node.nodes ?? [])
        .filter((n) => n.nodeType === "VariableDeclaration" && n.stateVariable && n.visibility === "public")
        .map((n) => n.name ?? ""),
    );
    const bases = (node.linearizedBaseContracts ?? [id]).map(key);
    out.set(key(id), { file, name: node.name ?? "", bases, getters });
  }
  return out;
}

function first(doc: DocEntry | DocEntry[] | undefined): DocEntry | undefined {
  return Array.isArray(doc) ? doc[0] : doc;
}
