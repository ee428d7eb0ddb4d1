import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { type Docket, startServer } from "../../src/server.js";
import { externalChainEnv, TestDocket } from "../support/index.js";

/**
 * The network path for real, on loopback: a second IPFS node (Helia, in a process of its own)
 * fetches what docket published, by CID, through docket's trustless gateway; docket (a replica
 * with IPFS_GATEWAYS) reads what only that node has, from the node's gateway, past a lying gateway
 * listed first, which it refuses. Nothing but a configured gateway's /ipfs/{cid} is ever asked.
 */
describe("evidence over the IPFS network (loopback)", () => {
  let t: TestDocket;
  let node: ChildProcessWithoutNullStreams;
  let lines: AsyncIterator<string>;
  let liar: Server;
  let liarUrl: string;
  const asked: string[] = [];
  const replicas: Docket[] = [];
  const next = async () => JSON.parse((await lines.next()).value as string);

  beforeAll(async () => {
    t = await TestDocket.shared();
    // A gateway that answers every block with the wrong bytes.
    liar = createServer((req, res) => {
      asked.push(req.url ?? "");
      res.writeHead(200, { "content-type": "application/vnd.ipld.raw" }).end("not the block you asked for");
    });
    await new Promise<void>((r) => liar.listen(0, "127.0.0.1", r));
    liarUrl = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    node?.stdin.end();
    await Promise.all(replicas.map((r) => r.close()));
    liar?.close();
    await t?.close();
  });

  it("a second Helia node fetches docket's evidence by CID, byte-identical (a two-chunk UnixFS file)", async () => {
    const bytes = Buffer.from("Shipping manifest line.\n".repeat(12_000));
    const published = (await fetch(`${t.url}/evidence`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: bytes,
    }).then((r) => r.json())) as { cid: string };
    node = spawn(process.execPath, ["--import", "tsx", "test/evidence/fixtures/heliaNode.ts"], {
      env: { ...process.env, FROM_GATEWAY: t.url, FETCH_CID: published.cid, ADD_TEXT: "Held only by the second node." },
    });
    lines = createInterface({ input: node.stdout })[Symbol.asyncIterator]();
    const fetched = await next();
    expect(fetched.fetched).toBe(published.cid);
    expect(Buffer.from(fetched.base64, "base64").equals(bytes)).toBe(true);
  }, 60_000);

  it("docket reads what only the second node holds from its gateway, refusing the lying gateway tried first", async () => {
    const { added, gateway } = await next();
    const replica = await startServer(
      loadConfig(
        externalChainEnv(t.devnet, {
          IPFS_GATEWAYS: `${liarUrl},${gateway}`,
          EVIDENCE_DIR: mkdtempSync(join(tmpdir(), "docket-replica-")),
        }),
      ),
    );
    replicas.push(replica);
    const r = await fetch(`${replica.url}/evidence/${added}`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("Held only by the second node.");
    expect(asked).toEqual([`/ipfs/${added}?format=raw`]);
    // Read once, kept: the next read asks nobody.
    expect((await fetch(`${replica.url}/evidence/${added}`)).status).toBe(200);
    expect(asked).toHaveLength(1);

    // With only the liar, nothing is served: not found, and why.
    const fooled = await startServer(
      loadConfig(
        externalChainEnv(t.devnet, {
          IPFS_GATEWAYS: liarUrl,
          EVIDENCE_DIR: mkdtempSync(join(tmpdir(), "docket-fooled-")),
        }),
      ),
    );
    replicas.push(fooled);
    const refused = await fetch(`${fooled.url}/evidence/${added}`);
    expect(refused.status).toBe(404);
    const body = (await refused.json()) as {
      error: { code: string; details: { gateways: { gateway: string; error: string }[] } };
    };
    expect(body.error.code).toBe("EVIDENCE_NOT_FOUND");
    expect(body.error.details.gateways).toEqual([
      { gateway: liarUrl, error: expect.stringContaining("do not hash to") },
    ]);
    expect(asked.every((u) => u === `/ipfs/${added}?format=raw`)).toBe(true);
  }, 60_000);
});
