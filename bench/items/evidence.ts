import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address } from "viem";
import { disputeCaseAbi } from "../../src/chain/abi/generated.js";
import { loadConfig } from "../../src/config.js";
import { Actor } from "../../src/devnet/actor.js";
import { startDevnet } from "../../src/devnet/devnet.js";
import { EvidenceStore } from "../../src/evidence/store.js";
import { startServer } from "../../src/server.js";
import { startRpcProxy } from "../../test/support/index.js";
import { docketEnv } from "../lib/docket.js";
import { median, round } from "../lib/stats.js";

/**
 * Item 9: evidence (issue #20). Publishing and reading files of 1 MiB and 10 MiB through the store
 * (import into UnixFS blocks on disk; a read from a fresh store: every block read and verified),
 * against hashing the same bytes alone (sha2-256). Then `GET /cases/{address}/evidence` for a case
 * with 10 items, cold and cached, through a JSON-RPC proxy that counts requests: the chain read is
 * one request, and each CID's content is loaded once (a later cold read of the case reads the chain
 * again, never the content).
 */
export interface SizeFigures {
  bytes: number;
  hashMBps: number;
  publishMBps: number;
  readMBps: number;
}

export interface CaseEvidenceFigures {
  items: number;
  cids: number;
  cold: { ms: number; rpc: number; contentLoads: number };
  cached: { ms: number; rpc: number; contentLoads: number };
  /** The case's answer dropped from the cache (as when a write invalidates it): the chain again, not the content. */
  chainAgain: { ms: number; rpc: number; contentLoads: number };
}

export interface EvidenceBenchResult {
  sizes: SizeFigures[];
  caseEvidence: CaseEvidenceFigures;
  pass: boolean;
}

const MB = 1024 * 1024;
const mbps = (bytes: number, ms: number) => round(bytes / MB / (ms / 1000), 1);

async function timed<T>(fn: () => Promise<T> | T): Promise<[T, number]> {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
}

async function sizeFigures(bytes: number, rounds: number): Promise<SizeFigures> {
  const hash: number[] = [];
  const publish: number[] = [];
  const read: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const dir = mkdtempSync(join(tmpdir(), "docket-bench-evidence-"));
    try {
      // A PDF by its signature (the store checks the bytes are what the type says), random after it.
      const data = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(bytes - 9)]);
      hash.push((await timed(() => createHash("sha256").update(data).digest()))[1]);
      const store = await EvidenceStore.open({ dir, maxBytes: 16 * MB });
      const [published, ms] = await timed(() => store.publish(data, "application/pdf"));
      publish.push(ms);
      await store.close();
      const fresh = await EvidenceStore.open({ dir, maxBytes: 16 * MB });
      const [back, readMs] = await timed(() => fresh.read(published.cid));
      if (!Buffer.from(back.bytes).equals(data)) throw new Error("read back other bytes");
      read.push(readMs);
      await fresh.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return {
    bytes,
    hashMBps: mbps(bytes, median(hash)),
    publishMBps: mbps(bytes, median(publish)),
    readMBps: mbps(bytes, median(read)),
  };
}

async function caseEvidence(log: (line: string) => void): Promise<CaseEvidenceFigures> {
  const dir = mkdtempSync(join(tmpdir(), "docket-bench-case-evidence-"));
  const seedStore = await EvidenceStore.open({ dir, maxBytes: 16 * MB });
  const devnet = await startDevnet({ seed: true, evidence: seedStore });
  const proxy = await startRpcProxy(devnet.nodeUrl);
  const docket = await startServer(
    loadConfig({ ...docketEnv(proxy.url, devnet.deployment), EVENT_POLL_MS: "0", EVIDENCE_DIR: dir }),
  );
  try {
    const active = devnet.seed?.cases.find((c) => c.label === "active")?.address as Address;
    const plaintiff = await devnet.reader.readContract({
      address: active,
      abi: disputeCaseAbi,
      functionName: "plaintiff",
    });
    const account = devnet.accounts.find((a) => a.address === plaintiff);
    if (!account) throw new Error("the active case's plaintiff is not a dev account");
    const party = new Actor(account.account, devnet.chain, devnet.reader);
    const listed = (await (await fetch(`${docket.url}/cases/${active}/evidence`)).json()) as { evidence: unknown[] };
    let items = listed.evidence.length;
    for (let i = 0; items < 10; i++, items++) {
      const r = await fetch(`${docket.url}/evidence`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: `Bench statement ${i}: the crate was dented on arrival.`,
      });
      const { document } = (await r.json()) as { document: { cid: string } };
      await party.write({ address: active, abi: disputeCaseAbi, functionName: "submitEvidence", args: [document.cid] });
    }
    // Cold: nothing cached, neither the case's answer nor any content.
    await docket.ctx.cache.invalidate(["*"], { hold: false });
    const cold = await EvidenceStore.open({ dir, maxBytes: 16 * MB });
    docket.ctx.evidence = cold;
    const read = async () => {
      proxy.reset();
      const loads = cold.loads;
      const [body, ms] = await timed(async () => (await fetch(`${docket.url}/cases/${active}/evidence`)).json());
      return { body, figures: { ms: round(ms, 1), rpc: proxy.count, contentLoads: cold.loads - loads } };
    };
    const first = await read();
    const second = await read();
    await docket.ctx.cache.invalidate(["*"], { hold: false });
    const third = await read();
    const evidence = (first.body as { evidence: { cid: string; document?: { file?: { cid: string } } }[] }).evidence;
    const cids = new Set(evidence.flatMap((e) => [e.cid, e.document?.file?.cid].filter(Boolean)));
    log(
      `  ${evidence.length} items (${cids.size} CIDs): cold ${first.figures.ms} ms, ${first.figures.rpc} JSON-RPC, ${first.figures.contentLoads} loads; cached ${second.figures.ms} ms, ${second.figures.rpc} JSON-RPC; after invalidation ${third.figures.ms} ms, ${third.figures.rpc} JSON-RPC, ${third.figures.contentLoads} loads`,
    );
    return {
      items: evidence.length,
      cids: cids.size,
      cold: first.figures,
      cached: second.figures,
      chainAgain: third.figures,
    };
  } finally {
    await docket.close();
    await proxy.close();
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchEvidence(rounds: number, log: (line: string) => void): Promise<EvidenceBenchResult> {
  const sizes: SizeFigures[] = [];
  for (const bytes of [MB, 10 * MB]) {
    const f = await sizeFigures(bytes, rounds);
    log(
      `  ${bytes / MB} MiB: sha2-256 alone ${f.hashMBps} MB/s, publish ${f.publishMBps} MB/s, verified read ${f.readMBps} MB/s`,
    );
    sizes.push(f);
  }
  const c = await caseEvidence(log);
  const pass =
    c.items === 10 &&
    c.cold.rpc === 1 &&
    c.cold.contentLoads === c.cids &&
    c.cached.rpc === 0 &&
    c.chainAgain.contentLoads === 0;
  return { sizes, caseEvidence: c, pass };
}
