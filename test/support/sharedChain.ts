import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { makeChain, makePublicClient } from "../../src/chain/client.js";
import type { Deployment } from "../../src/chain/deployments.js";
import { loadConfig } from "../../src/config.js";
import { devAccounts } from "../../src/devnet/devAccounts.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import type { SeedSummary } from "../../src/devnet/seed.js";
import { openEvidence } from "../../src/server.js";
import { rpc } from "./chain.js";

/**
 * The shared dev chains of a test run (docs/testing.md, "The shared chain").
 *
 * Booting and seeding a dev chain costs seconds; a suite that only needs HTTP answers should not
 * pay it. The run's global setup (`test/support/globalSetup.ts`) starts a lender in vitest's main
 * process. A suite leases a seeded chain from it (`TestDocket.shared`), starts its docket on it (in
 * its own process, a few milliseconds) and gives the chain back when the docket closes. A chain is
 * lent to one lease at a time, so suites running side by side never share one; before it is lent
 * again it is reverted (`evm_revert`) to the snapshot taken right after the seed, which restores
 * state, block number and timestamp: every lease starts in the freshly seeded world, whatever the
 * last one mined, filed or time-travelled. The lender boots a chain only when every chain it has is
 * out, so a run holds as many as the most leases ever out at once (one per worker, usually), and a
 * lease a crashed suite never returned costs only a chain of its own.
 */

/** What a lease carries across processes (v8-serialized: the seed has bigints). */
interface LeaseWire {
  id: number;
  rpcUrl: string;
  nodeUrl: string;
  chainId: number;
  deployment: Deployment;
  seed?: SeedSummary;
  /** The seed's evidence store (its cases' documents, the courts' policies): copied, never written. */
  evidenceDir: string;
}

interface Lent {
  devnet: Devnet;
  evidenceDir: string;
  /** The `evm_snapshot` of the freshly seeded world, taken again after each revert (a revert spends it). */
  snapshot: string;
  out: boolean;
  /** Lent since its last revert. */
  used: boolean;
  /** The seeded head (number and timestamp): what a revert must bring back. */
  head: string;
}

/** The latest block's number and timestamp, as one string to compare. */
async function headOf(nodeUrl: string): Promise<string> {
  const b = (await rpc(nodeUrl, "eth_getBlockByNumber", ["latest", false])) as { number: string; timestamp: string };
  return `${Number(b.number)}@${Number(b.timestamp)}`;
}

/** The lender of the run's shared chains, in vitest's main process. */
export async function startChainLender(): Promise<{ url: string; close(): Promise<void> }> {
  const chains: Lent[] = [];

  const boot = async (): Promise<Lent> => {
    const evidenceDir = mkdtempSync(join(tmpdir(), "docket-shared-evidence-"));
    const evidence = await openEvidence(loadConfig({ EVIDENCE_DIR: evidenceDir, LOG_LEVEL: "silent" }));
    try {
      const devnet = await startDevnet({ evidence });
      const snapshot = (await rpc(devnet.nodeUrl, "evm_snapshot")) as string;
      return { devnet, evidenceDir, snapshot, out: true, used: false, head: await headOf(devnet.nodeUrl) };
    } finally {
      await evidence.close();
    }
  };

  /** Reverts a chain to its seeded snapshot (and snapshots again); false if it did not come back to the seeded head. */
  const revert = async (c: Lent): Promise<boolean> => {
    try {
      const reverted = await rpc(c.devnet.nodeUrl, "evm_revert", [c.snapshot]);
      if (reverted !== true || (await headOf(c.devnet.nodeUrl)) !== c.head) return false;
      c.snapshot = (await rpc(c.devnet.nodeUrl, "evm_snapshot")) as string;
      return true;
    } catch {
      return false;
    }
  };

  const lease = async (): Promise<LeaseWire> => {
    // Taken before any await: two leases asked at once never get the same chain.
    let lent = chains.find((c) => !c.out);
    if (lent) lent.out = true;
    // A chain that does not come back to its seeded world is never lent again (it stays out): boot another.
    if (lent?.used && !(await revert(lent))) lent = undefined;
    if (!lent) {
      lent = await boot();
      chains.push(lent);
    }
    lent.used = true;
    const { devnet } = lent;
    return {
      id: chains.indexOf(lent),
      rpcUrl: devnet.rpcUrl,
      nodeUrl: devnet.nodeUrl,
      chainId: devnet.chainId,
      deployment: devnet.deployment,
      seed: devnet.seed,
      evidenceDir: lent.evidenceDir,
    };
  };

  const server = createServer((req, res) => {
    const release = /^\/release\/(\d+)$/.exec(req.url ?? "");
    const answer: Promise<Buffer> =
      req.method === "POST" && req.url === "/lease"
        ? lease().then((l) => serialize(l))
        : req.method === "POST" && release
          ? Promise.resolve().then(() => {
              const c = chains[Number(release[1])];
              if (c) c.out = false;
              return Buffer.alloc(0);
            })
          : Promise.reject(new Error(`no such lender call: ${req.method} ${req.url}`));
    answer.then(
      (body) => res.writeHead(200, { "content-type": "application/octet-stream" }).end(body),
      (err: Error) => res.writeHead(500, { "content-type": "text/plain" }).end(err.message),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await Promise.all(chains.map((c) => c.devnet.stop()));
      for (const c of chains) rmSync(c.evidenceDir, { recursive: true, force: true });
    },
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared chains' lender (test/support/globalSetup.ts). */
    chainLender: string;
  }
}

/** A seeded dev chain lent to one docket: its `Devnet`, an evidence directory of its own, and the way back. */
export interface ChainLease {
  devnet: Devnet;
  /** A fresh copy of the seed's evidence store, for this docket alone. */
  evidenceDir: string;
  release(): Promise<void>;
}

/** Leases one of the run's shared chains, reverted to the freshly seeded world. */
export async function leaseChain(): Promise<ChainLease> {
  // Imported here, not at the top: the bench imports this module outside vitest.
  const { inject } = await import("vitest");
  const lender = inject("chainLender");
  if (!lender) throw new Error("no shared chain lender: run the suite through vitest (vitest.config.ts globalSetup)");
  const res = await fetch(`${lender}/lease`, { method: "POST" });
  if (!res.ok) throw new Error(`the shared chain lender answered ${res.status}: ${await res.text()}`);
  const wire = deserialize(Buffer.from(await res.arrayBuffer())) as LeaseWire;
  const evidenceDir = mkdtempSync(join(tmpdir(), "docket-evidence-"));
  cpSync(wire.evidenceDir, evidenceDir, { recursive: true });
  // What startDevnet hands its booter: docket reads anvil itself, wallets go through the time-travel proxy.
  const chain = makeChain(wire.chainId, wire.nodeUrl, { name: "docket dev chain" });
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await fetch(`${lender}/release/${wire.id}`, { method: "POST" });
    // The docket on it serves no more by now (its doors close before its chain), so nothing writes to the store.
    rmSync(evidenceDir, { recursive: true, force: true });
  };
  const devnet: Devnet = {
    rpcUrl: wire.rpcUrl,
    nodeUrl: wire.nodeUrl,
    chainId: wire.chainId,
    chain,
    reader: makePublicClient(chain),
    deployment: wire.deployment,
    accounts: devAccounts(),
    seed: wire.seed,
    // The chain is the lender's: stopping it only gives it back.
    stop: release,
  };
  return { devnet, evidenceDir, release };
}
