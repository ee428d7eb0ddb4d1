import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { publishEvidence } from "../../src/evidence/document.js";
import { EvidenceStore } from "../../src/evidence/store.js";

/**
 * The store apart from the server: what survives a restart, what is stored once, and what a
 * pinning service (the IPFS Pinning Service API, here a stand-in endpoint that records requests) is asked.
 */
describe("the evidence store", () => {
  it("content survives a restart (the data directory) and the same bytes are stored once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docket-store-"));
    const a = await EvidenceStore.open({ dir, maxBytes: 1 << 20 });
    const first = await publishEvidence(a, new TextEncoder().encode("# Terms\n\nPay on delivery."), "text/markdown", {
      name: "Terms",
    });
    const again = await publishEvidence(a, new TextEncoder().encode("# Terms\n\nPay on delivery."), "text/markdown", {
      name: "Terms",
    });
    expect(again).toEqual(first);
    await a.close();
    const b = await EvidenceStore.open({ dir, maxBytes: 1 << 20 });
    const back = await b.read(first.uri);
    expect(back).toMatchObject({ cid: first.cid, mediaType: "text/markdown", size: 25 });
    expect(b.loads).toBe(1);
    await b.read(first.cid);
    expect(b.loads).toBe(1);
    await b.close();
  });

  it("every publish is pinned with the Pinning Service API (POST /pins, bearer token); a refusing service does not lose the evidence", async () => {
    const seen: { auth?: string; body: unknown }[] = [];
    let refuse = false;
    const service = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        seen.push({ auth: req.headers.authorization, body: req.url === "/pins" ? JSON.parse(body) : req.url });
        res.writeHead(refuse ? 500 : 202, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((r) => service.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    try {
      const store = await EvidenceStore.open({ maxBytes: 1024, pinning: { url, token: "test-token" } });
      const p = await store.publish(new TextEncoder().encode("pin me"), "text/plain");
      expect(seen).toEqual([{ auth: "Bearer test-token", body: { cid: p.cid, name: `docket evidence ${p.cid}` } }]);
      refuse = true;
      const q = await store.publish(new TextEncoder().encode("pin me too"), "text/plain");
      expect(Buffer.from((await store.read(q.cid)).bytes).toString()).toBe("pin me too");
      expect(seen).toHaveLength(2);
    } finally {
      service.close();
    }
  });
});
