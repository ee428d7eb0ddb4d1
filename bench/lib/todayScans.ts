import type { Address, PublicClient } from "viem";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";

/**
 * The two reads issue #34 replaced, as docket answered them before its index, kept here so the bench
 * can put them beside the index (bench/items/indexChain.ts): the explorer's filtered case list,
 * which read the newest 500 cases (SCAN_MAX, in chunks of 50) through the unfiltered list and each
 * case's view and kept those of the party; and the inbox's first page, the factory's
 * getInvolvedCases page of 100 in its own order (oldest first). Both over docket's HTTP doors or the
 * chain, as they were.
 */
const SCAN_MAX = 500;
const SCAN_CHUNK = 50;

export interface ScanAnswer {
  total: number;
  addresses: string[];
  /** Cases read to find them. */
  scanned: number;
}

/** The explorer's party filter before the index: the newest SCAN_MAX cases, read and filtered. */
export async function partyScan(url: string, party: Address): Promise<ScanAnswer> {
  const get = async <T>(path: string) => (await (await fetch(`${url}${path}`)).json()) as T;
  const { total } = await get<{ total: number }>("/cases?limit=1&offset=0");
  const p = party.toLowerCase();
  const found: string[] = [];
  let scanned = 0;
  let end = total;
  while (end > 0 && scanned < SCAN_MAX) {
    const start = Math.max(0, end - SCAN_CHUNK);
    const page = await get<{ cases: string[] }>(`/cases?offset=${start}&limit=${end - start}`);
    const views = await Promise.all(
      page.cases.map((a) =>
        get<{ case: { address: string; plaintiff: string; defendant: string; judges: string[] } }>(`/cases/${a}`),
      ),
    );
    for (const { case: c } of views.reverse()) {
      if ([c.plaintiff, c.defendant, ...c.judges].some((x) => x.toLowerCase() === p)) found.push(c.address);
    }
    scanned += page.cases.length;
    end = start;
  }
  return { total: found.length, addresses: found, scanned };
}

/** The inbox's first page before the index: the factory's getInvolvedCases(who, 0, 100). */
export async function involvedFirstPage(reader: PublicClient, factory: Address, who: Address): Promise<ScanAnswer> {
  const [total, , page] = await reader.readContract({
    address: factory,
    abi: caseFactoryAbi,
    functionName: "getInvolvedCases",
    args: [who, 0n, 100n],
  });
  return { total: Number(total), addresses: page.map((s) => s.addr), scanned: page.length };
}
