import type { Address, Hex } from "viem";

/** Where solc left each library's address to fill in a bytecode: library name -> byte ranges. */
export type LinkReferences = Readonly<Record<string, readonly { readonly start: number; readonly length: number }[]>>;

/**
 * Links `bytecode`: writes each library's address over the placeholders solc left for it at
 * `references` (scripts/build-contracts.ts writes them beside the bytecode). Throws if a library has
 * no address or a placeholder is left, so nothing unlinked is ever sent to a chain.
 */
export function linkBytecode(
  bytecode: Hex,
  references: LinkReferences,
  libraries: Readonly<Record<string, Address>>,
): Hex {
  let hex = bytecode.slice(2);
  for (const [name, places] of Object.entries(references)) {
    const address = libraries[name];
    if (!address) throw new Error(`no address for library ${name}: deploy it first`);
    for (const { start, length } of places) {
      hex = hex.slice(0, start * 2) + address.slice(2).toLowerCase() + hex.slice((start + length) * 2);
    }
  }
  // solc's placeholder is __$<hash>$__; a linked bytecode is hex digits only.
  if (hex.includes("__$")) throw new Error("bytecode has a library placeholder left unlinked");
  return `0x${hex}`;
}
