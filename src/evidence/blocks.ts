import { equals } from "multiformats/bytes";
import type { CID } from "multiformats/cid";
import { sha256 } from "multiformats/hashes/sha2";
import { DocketError } from "../errors/errors.js";

/** The largest block a trustless gateway may answer with (the IPFS block limit: 2 MiB). */
export const MAX_BLOCK_BYTES = 2 * 1024 * 1024;

/** Whether `bytes` are the block `cid` names: their sha2-256 is its multihash (the only hash docket takes). */
export async function verifyBlock(cid: CID, bytes: Uint8Array): Promise<boolean> {
  if (cid.multihash.code !== sha256.code) return false;
  const digest = await sha256.digest(bytes);
  return equals(digest.bytes, cid.multihash.bytes);
}

/** Why one gateway did not give a block. */
export interface GatewayFailure {
  gateway: string;
  error: string;
}

/**
 * Fetches one block from trustless gateways (IPFS_GATEWAYS), in order, and returns the first answer
 * that hashes to `cid`; a gateway that answers other bytes is refused (logged by the caller through
 * `onFailure`) and the next one tried. The only URL ever fetched is a configured gateway's
 * `/ipfs/{cid}?format=raw`; redirects are not followed.
 */
export async function fetchBlock(
  cid: CID,
  gateways: readonly string[],
  opts: { timeoutMs: number; onFailure?: (f: GatewayFailure) => void; fetch?: typeof fetch },
): Promise<Uint8Array> {
  const failures: GatewayFailure[] = [];
  const doFetch = opts.fetch ?? fetch;
  for (const gateway of gateways) {
    const fail = (error: string) => {
      const f = { gateway, error };
      failures.push(f);
      opts.onFailure?.(f);
    };
    try {
      const res = await doFetch(`${gateway.replace(/\/+$/, "")}/ipfs/${cid.toString()}?format=raw`, {
        headers: { Accept: "application/vnd.ipld.raw" },
        redirect: "error",
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      if (res.status === 404) {
        fail("not found");
        await res.body?.cancel();
        continue;
      }
      if (!res.ok) {
        fail(`answered HTTP ${res.status}`);
        await res.body?.cancel();
        continue;
      }
      const bytes = await readBounded(res, MAX_BLOCK_BYTES);
      if (!bytes) {
        fail(`answered more than ${MAX_BLOCK_BYTES} bytes for one block`);
        continue;
      }
      if (!(await verifyBlock(cid, bytes))) {
        fail(`answered bytes that do not hash to ${cid.toString()}: refused`);
        continue;
      }
      return bytes;
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err));
    }
  }
  throw new DocketError(
    "EVIDENCE_NOT_FOUND",
    gateways.length === 0
      ? `no block ${cid.toString()} in docket's store, and no IPFS_GATEWAYS to ask`
      : `no gateway gave block ${cid.toString()} with the right hash`,
    { cid: cid.toString(), gateways: failures },
  );
}

/** A response body, or undefined past `max` bytes (read no further). */
async function readBounded(res: Response, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(res.headers.get("content-length") ?? 0);
  if (declared > max) {
    await res.body?.cancel();
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!res.body) return new Uint8Array();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
