import type { Address } from "viem";
import type { ChainAccess } from "../chain/access.js";
import type { Config } from "../config.js";
import type { Lifecycle } from "../lifecycle.js";
import type { Logger } from "../log.js";
import { DirInUse } from "../store/dirLock.js";
import { IN_MEMORY, openStore } from "../store/store.js";
import type { IndexAccess } from "./access.js";
import { PRUNE_EVERY_MS, pruneEvents } from "./retention.js";
import { IndexWriter } from "./writer.js";
import { AdvisoryWriterLock, soleWriter, type WriterRole } from "./writerLock.js";

/**
 * The block the court was deployed in: the first block where both the registry and the factory
 * have code (the registry comes first; its courts are its first events), by bisection on
 * eth_getCode: about 2 log2(head) requests, once, on a first start. A node that keeps no old state
 * answers nothing for old blocks: then INDEX_FROM_BLOCK must say.
 */
export async function deploymentBlock(chain: ChainAccess, log: Logger): Promise<bigint> {
  const head = await chain.reader.getBlockNumber();
  const firstWithCode = async (address: Address): Promise<bigint> => {
    let lo = 0n;
    let hi = head;
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      const code = await chain.reader.getCode({ address, blockNumber: mid });
      if (code && code !== "0x") hi = mid;
      else lo = mid + 1n;
    }
    return lo;
  };
  try {
    const [registry, factory] = await Promise.all([firstWithCode(chain.registry), firstWithCode(chain.factory)]);
    // biome-ignore lint/complexity/useMathMinMax: block numbers are bigints
    return registry < factory ? registry : factory;
  } catch (err) {
    log.warn(
      { err: (err as Error).message.split("\n")[0] },
      "index: the node cannot say when the court was deployed (no old state?): backfilling from block 0; set INDEX_FROM_BLOCK",
    );
    return 0n;
  }
}

/**
 * The index as a part of docket: the store opened and migrated (closed with docket), and this
 * replica's writer. The follower drives the writer (`anchor`, `persist`); undefined with INDEX=off.
 */
export async function startIndex(
  config: Config,
  life: Lifecycle,
  chain: ChainAccess,
  log: Logger,
  /** The chain is the embedded dev chain this docket booted (a new one at each start). */
  devChain = false,
): Promise<IndexAccess | undefined> {
  if (config.INDEX === "off") return undefined;
  const store = await life.start(
    "index store",
    async () => {
      const s = await openStore(config, log).catch((err: Error) => {
        // `docket mcp` beside a `docket start` on the same INDEX_DIR: this one keeps its index in memory.
        if (!(err instanceof DirInUse)) throw err;
        log.warn({ err: err.message }, "index: INDEX_DIR is another process's; this one keeps its index in memory");
        return openStore({ ...config, DATABASE_URL: IN_MEMORY }, log);
      });
      try {
        await s.migrate();
      } catch (err) {
        await s.close();
        throw err;
      }
      return s;
    },
    (s) => s.close(),
  );
  const from = config.INDEX_FROM_BLOCK;
  const writer = new IndexWriter(store, chain, log, {
    fromBlock: from !== undefined ? async () => BigInt(from) : () => deploymentBlock(chain, log),
    devChain,
  });
  // One writer among replicas on one Postgres (docs/replicas.md); PGlite's one process always writes.
  const role = await life.start(
    "index writer lock",
    async () => {
      const r: WriterRole =
        store.engine === "postgres" && config.DATABASE_URL
          ? new AdvisoryWriterLock(config.DATABASE_URL, log)
          : soleWriter;
      await r.acquire();
      if (!r.writer) log.info("index: another replica writes the index; this one reads it");
      return r;
    },
    (r) => {
      clearInterval(duties);
      return r.close();
    },
  );
  const key = { chain_id: chain.chainId, factory: chain.factory.toLowerCase() };
  const retention = config.INDEX_RETENTION;
  let duties: NodeJS.Timeout | undefined;
  let lastPrune = 0;
  const prune = async () => {
    if (!retention || !role.writer) return undefined;
    lastPrune = Date.now();
    const done = await pruneEvents(store.db, key, retention);
    if (done && done.events > 0) log.info(done, "index: pruned the events older than INDEX_RETENTION");
    return done;
  };
  return {
    db: store.db,
    store,
    get writer() {
      return role.writer ? writer : undefined;
    },
    role: () => (role.writer ? "writer" : "reader"),
    async cursor() {
      const c = await writer.cursor();
      return c ? { block: c.block_number, hash: c.block_hash } : undefined;
    },
    async state() {
      const c = await writer.cursor();
      return {
        role: role.writer ? "writer" : "reader",
        cursor: c?.block_number ?? null,
        prunedBelow: c?.pruned_below ?? null,
        backfill: writer.backfill.state(),
      };
    },
    prune,
    keepRole(intervalMs, onWriter) {
      clearInterval(duties);
      duties = setInterval(() => {
        void role
          .acquire()
          .then(
            async (became) => {
              if (became) {
                onWriter();
                lastPrune = 0;
              }
              if (retention && role.writer && Date.now() - lastPrune >= PRUNE_EVERY_MS) await prune();
            },
            () => {},
          )
          .catch((err: Error) => log.warn({ err: err.message }, "index: prune failed; trying again later"));
      }, intervalMs);
      duties.unref();
    },
  };
}
