import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MemoryBlockstore } from "blockstore-core/memory";
import { FsBlockstore } from "blockstore-fs";
import { exporter, type ReadableStorage } from "ipfs-unixfs-exporter";
import { type ImporterOptions, importBytes } from "ipfs-unixfs-importer";
import { fixedSize } from "ipfs-unixfs-importer/chunker";
import { balanced } from "ipfs-unixfs-importer/layout";
import { LRUCache } from "lru-cache";
import type { CID } from "multiformats/cid";
import { DocketError } from "../errors/errors.js";
import type { Logger } from "../log.js";
import { fetchBlock, verifyBlock } from "./blocks.js";
import { ipfsUri, parseEvidenceRef } from "./cid.js";
import { acceptedType, type MediaType, sniff } from "./media.js";
import { type PinningService, pin } from "./pinning.js";

/**
 * How docket chunks and addresses content: what `ipfs add --cid-version 1` does (kubo's defaults
 * with CIDv1, which turns raw leaves on): sha2-256, 256 KiB fixed-size chunks, raw leaves, a
 * balanced DAG of at most 174 links per node, a single chunk stored as the raw block itself. So a
 * file of at most 256 KiB has the CID `CID.create(1, raw.code, sha256(bytes))` (see `rawCid`).
 */
export const IMPORT_OPTIONS: ImporterOptions = {
  cidVersion: 1,
  rawLeaves: true,
  reduceSingleLeafToSelf: true,
  chunker: fixedSize({ chunkSize: 262_144 }),
  layout: balanced({ maxChildrenPerNode: 174 }),
};

/** What publishing gives: enough to file the evidence and for anyone to read it back. */
export interface Published {
  cid: string;
  /** `ipfs://<cid>` */
  uri: string;
  size: number;
  mediaType: MediaType;
}

/** Evidence read back, every byte checked against its CID. */
export interface EvidenceContent {
  cid: string;
  bytes: Uint8Array;
  size: number;
  /** What docket was told at publish, or what the bytes are (sniffed) when it was not; undefined: neither. */
  mediaType: MediaType | undefined;
}

/** What publishing evidence needs (the seed takes any store). */
export interface EvidencePublisher {
  publish(bytes: Uint8Array, mediaType: string): Promise<Published>;
}

export interface EvidenceStoreOptions {
  /** The data directory: blocks under `blocks/`, media types docket was told under `types/`. None: memory only. */
  dir?: string;
  /** Largest content published or read (EVIDENCE_MAX_BYTES). */
  maxBytes: number;
  /** Bytes of content kept in memory, by CID, with no TTL (content never changes). */
  cacheBytes?: number;
  /** Trustless gateways read, in order, for what the store lacks (IPFS_GATEWAYS). */
  gateways?: readonly string[];
  /** Where published content is also pinned (IPFS_PINNING_URL, IPFS_PINNING_TOKEN). */
  pinning?: PinningService;
  timeoutMs?: number;
  log?: Logger;
}

/**
 * docket's evidence: a content-addressed store on disk (a Helia-compatible blockstore), read
 * through trustless gateways for anything it lacks, every block verified against its CID before
 * it is kept or served. Content is cached in memory by CID, bounded by bytes, with no TTL.
 *
 * @example
 * const store = await EvidenceStore.open({ dir: "data/evidence", maxBytes: 10 << 20 });
 * const { cid } = await store.publish(new TextEncoder().encode("hello"), "text/plain");
 * const { bytes } = await store.read(cid);
 */
export class EvidenceStore implements EvidencePublisher {
  /** Contents loaded from blocks (not from the memory cache): one per CID while the cache holds it. */
  loads = 0;
  private readonly content: LRUCache<string, EvidenceContent>;
  private readonly inflight = new Map<string, Promise<EvidenceContent>>();
  private readonly timeoutMs: number;

  /** Media types docket was told, when there is no data directory to keep them in. */
  private readonly types = new Map<string, MediaType>();

  private constructor(
    private readonly blocks: FsBlockstore | MemoryBlockstore,
    private readonly opts: EvidenceStoreOptions,
  ) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.content = new LRUCache({
      maxSize: Math.max(opts.cacheBytes ?? 64 * 1024 * 1024, 1),
      sizeCalculation: (c) => Math.max(c.size, 1),
    });
  }

  static async open(opts: EvidenceStoreOptions): Promise<EvidenceStore> {
    if (!opts.dir) return new EvidenceStore(new MemoryBlockstore(), opts);
    const blocks = new FsBlockstore(join(opts.dir, "blocks"));
    await blocks.open();
    await mkdir(join(opts.dir, "types"), { recursive: true });
    return new EvidenceStore(blocks, opts);
  }

  get maxBytes(): number {
    return this.opts.maxBytes;
  }

  /**
   * Stores `bytes` as evidence of `mediaType` (allow-listed, and the bytes must be of it: 415
   * otherwise; over EVIDENCE_MAX_BYTES: 413) and answers its CID. The same bytes give the same CID
   * and are stored once.
   */
  async publish(bytes: Uint8Array, mediaType: string): Promise<Published> {
    if (bytes.length > this.opts.maxBytes) {
      throw new DocketError(
        "PAYLOAD_TOO_LARGE",
        `evidence is at most ${this.opts.maxBytes} bytes (EVIDENCE_MAX_BYTES)`,
        {
          size: bytes.length,
          maxBytes: this.opts.maxBytes,
        },
      );
    }
    const type = acceptedType(mediaType, bytes);
    const { cid } = await importBytes(bytes, this.blocks, IMPORT_OPTIONS);
    const text = cid.toString();
    if (this.opts.dir) await writeFile(join(this.opts.dir, "types", text), type);
    else this.types.set(text, type);
    this.content.set(text, { cid: text, bytes, size: bytes.length, mediaType: type });
    if (this.opts.pinning) {
      await pin(this.opts.pinning, text, `docket evidence ${text}`, this.timeoutMs).catch((err: unknown) =>
        this.opts.log?.warn(
          { cid: text, err: String(err) },
          "pinning service refused evidence; kept in docket's store",
        ),
      );
    }
    return { cid: text, uri: ipfsUri(text), size: bytes.length, mediaType: type };
  }

  /**
   * The content `ref` names (a CID or an ipfs:// or /ipfs/ URI), every block verified: from memory,
   * docket's store, or the gateways (whatever they give is kept in the store). Reads of one CID at
   * the same time share one load. EVIDENCE_NOT_FOUND when nobody has it; PAYLOAD_TOO_LARGE past
   * EVIDENCE_MAX_BYTES; INVALID_INPUT for a directory or a reference that names no CID.
   */
  read(ref: string | CID): Promise<EvidenceContent> {
    const cid = typeof ref === "string" ? parseEvidenceRef(ref) : ref;
    const key = cid.toString();
    const hit = this.content.get(key);
    if (hit) return Promise.resolve(hit);
    let p = this.inflight.get(key);
    if (!p) {
      p = this.load(cid).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  /** One verified block, from the store or the gateways (docket's own trustless gateway serves these). */
  async block(cid: CID, opts: { localOnly?: boolean } = {}): Promise<Uint8Array> {
    if (await this.blocks.has(cid)) {
      const chunks: Uint8Array[] = [];
      for await (const c of this.blocks.get(cid)) chunks.push(c);
      const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
      // A block on disk is checked too: a shared data directory is only as honest as its writers.
      if (await verifyBlock(cid, bytes)) return bytes;
      this.opts.log?.warn({ cid: cid.toString() }, "a stored block does not hash to its CID; ignored");
    }
    if (opts.localOnly || !this.opts.gateways?.length) {
      throw new DocketError("EVIDENCE_NOT_FOUND", `no evidence ${cid.toString()} in docket's store`, {
        cid: cid.toString(),
      });
    }
    const bytes = await fetchBlock(cid, this.opts.gateways, {
      timeoutMs: this.timeoutMs,
      onFailure: (f) => this.opts.log?.warn({ cid: cid.toString(), ...f }, "gateway did not give a verified block"),
    });
    await this.blocks.put(cid, bytes);
    return bytes;
  }

  async close(): Promise<void> {
    if (this.blocks instanceof FsBlockstore) await this.blocks.close();
  }

  private async load(cid: CID): Promise<EvidenceContent> {
    const text = cid.toString();
    const source: ReadableStorage = {
      get: (c: CID) =>
        (async function* (store: EvidenceStore) {
          yield await store.block(c);
        })(this),
    } as ReadableStorage;
    let entry: Awaited<ReturnType<typeof exporter>>;
    try {
      entry = await exporter(cid, source, { signal: AbortSignal.timeout(this.timeoutMs * 4) });
    } catch (err) {
      if (err instanceof DocketError) throw err;
      throw new DocketError("EVIDENCE_NOT_FOUND", `evidence ${text} could not be read: ${(err as Error).message}`, {
        cid: text,
      });
    }
    if (entry.type !== "file" && entry.type !== "raw") {
      throw new DocketError("INVALID_INPUT", `${text} is a ${entry.type}, not a file`, { cid: text });
    }
    if (Number(entry.size) > this.opts.maxBytes) {
      throw new DocketError("PAYLOAD_TOO_LARGE", `evidence ${text} is larger than EVIDENCE_MAX_BYTES`, {
        cid: text,
        size: Number(entry.size),
        maxBytes: this.opts.maxBytes,
      });
    }
    const chunks: Uint8Array[] = [];
    let read = 0;
    for await (const chunk of entry.content()) {
      // The root's size is authentic (hashed), but a crafted DAG's leaves may hold more: stop at the limit.
      read += chunk.length;
      if (read > this.opts.maxBytes) {
        throw new DocketError("PAYLOAD_TOO_LARGE", `evidence ${text} is larger than EVIDENCE_MAX_BYTES`, {
          cid: text,
          maxBytes: this.opts.maxBytes,
        });
      }
      chunks.push(chunk);
    }
    const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
    this.loads++;
    const told = this.opts.dir
      ? await readFile(join(this.opts.dir, "types", text), "utf8").catch(() => undefined)
      : this.types.get(text);
    const content = {
      cid: text,
      bytes,
      size: bytes.length,
      mediaType: (told as MediaType | undefined) ?? sniff(bytes),
    };
    this.content.set(text, content);
    return content;
  }
}
