import { MemoryBlockstore } from "blockstore-core/memory";
import { importBytes } from "ipfs-unixfs-importer";
import { describe, expect, it } from "vitest";
import { parseEvidenceRef, rawCid } from "../../src/evidence/cid.js";
import { EvidenceStore, IMPORT_OPTIONS } from "../../src/evidence/store.js";

/**
 * docket's CIDs are IPFS's: the same bytes give what IPFS's own tools publish. The figures are
 * IPFS's, not ours:
 * - "hello world" (11 bytes) with CIDv1 and raw leaves: `SmallFileCID` in kubo's
 *   test/cli/cid_profiles_test.go (github.com/ipfs/kubo), what `ipfs add` gives it.
 * - "hello world\n" with `ipfs add` (CIDv0, the classic defaults): the go-ipfs (now kubo) README,
 *   "Some things to try": QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o. Same importer, other
 *   settings: it shows docket chunks and wraps with the importer `ipfs add` uses.
 */
describe("CIDs agree with IPFS's published examples", () => {
  const hello = new TextEncoder().encode("hello world");

  it('"hello world": kubo\'s CIDv1 raw-leaf CID, from the store and from rawCid', async () => {
    const store = await EvidenceStore.open({ maxBytes: 1024 });
    const published = await store.publish(hello, "text/plain");
    expect(published.cid).toBe("bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e");
    expect(rawCid("hello world").toString()).toBe(published.cid);
    expect(Buffer.from((await store.read(published.uri)).bytes).toString()).toBe("hello world");
  });

  it("\"hello world\\n\" through the same importer with ipfs add's CIDv0 defaults: the go-ipfs README's CID", async () => {
    const { cid } = await importBytes(new TextEncoder().encode("hello world\n"), new MemoryBlockstore(), {
      ...IMPORT_OPTIONS,
      cidVersion: 0,
      rawLeaves: false,
      reduceSingleLeafToSelf: true,
    });
    expect(cid.toString()).toBe("QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o");
  });

  it("references: a CID, ipfs://<cid>, /ipfs/<cid>; nothing else", () => {
    const cid = "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e";
    for (const ok of [cid, `ipfs://${cid}`, `/ipfs/${cid}`, "QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o"]) {
      expect(parseEvidenceRef(ok).toString()).toMatch(/^(bafk|Qm)/);
    }
    for (const bad of [
      "",
      " bafk",
      `https://ipfs.io/ipfs/${cid}`,
      `ipfs://${cid}/a.txt`,
      `${cid}?x=1`,
      "bafy-x",
      "x".repeat(129),
    ]) {
      expect(() => parseEvidenceRef(bad), bad).toThrow(/not an evidence reference/);
    }
  });
});
