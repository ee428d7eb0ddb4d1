import type { Address } from "viem";
import type { ChainAccess } from "../../chain/access.js";
import { readCaseFacts } from "../../chain/reads/cases.js";
import { awaitsDraw, type DueRow } from "../../index/queries/due.js";

/**
 * The index's statuses with those awaiting a draw read fresh: a draw's randomness comes with blocks,
 * not events (pending, ready some blocks on, expired 256 blocks later with BlockhashEntropy; another
 * IDrawEntropy has its own clock), so the stored drawStatus may be past. One multicall for all of
 * them, none when no case awaits a draw; a case whose read fails keeps its stored status.
 */
export async function withFreshDraws<R extends DueRow>(chain: ChainAccess, rows: R[]): Promise<R[]> {
  const drawing = rows.filter((r) => awaitsDraw(r.status)).map((r) => r.address as Address);
  if (drawing.length === 0) return rows;
  const fresh = await readCaseFacts(chain, drawing, []);
  return rows.map((r) => {
    const status = fresh.get(r.address)?.status;
    return status ? { ...r, status } : r;
  });
}
