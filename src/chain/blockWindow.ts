import type { Hex } from "viem";

/**
 * The follower's memory of the recent blocks it has acted on: each block's hash and the cache keys
 * its court events touched. A reorg is found by comparing these hashes with the node's; the keys of
 * the blocks it orphans are what must be invalidated.
 */
export class BlockWindow {
  private readonly blocks = new Map<bigint, { hash: Hex; keys: Set<string> }>();

  constructor(readonly size = 64) {}

  /** Remembers a block's hash (the latest seen wins) and adds the keys its events touched. */
  record(n: bigint, hash: Hex, keys: Iterable<string> = []): void {
    const b = this.blocks.get(n) ?? { hash, keys: new Set<string>() };
    b.hash = hash;
    for (const k of keys) b.keys.add(k);
    this.blocks.set(n, b);
  }

  hashOf(n: bigint): Hex | undefined {
    return this.blocks.get(n)?.hash;
  }

  /** Remembered block numbers, highest first. */
  numbers(): bigint[] {
    return [...this.blocks.keys()].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
  }

  /** Forgets the blocks above `fork` and returns the keys their events had touched. */
  rollback(fork: bigint): string[] {
    const keys = new Set<string>();
    for (const [n, b] of this.blocks) {
      if (n <= fork) continue;
      for (const k of b.keys) keys.add(k);
      this.blocks.delete(n);
    }
    return [...keys];
  }

  /** Keeps only the `size` blocks up to `head`. */
  prune(head: bigint): void {
    for (const n of this.blocks.keys()) if (n <= head - BigInt(this.size)) this.blocks.delete(n);
  }

  clear(): void {
    this.blocks.clear();
  }
}
