import { createHash } from "node:crypto";
import { CID } from "multiformats/cid";
import * as raw from "multiformats/codecs/raw";
import * as Digest from "multiformats/hashes/digest";
import { sha256 } from "multiformats/hashes/sha2";
import { DocketError } from "../errors/errors.js";

/** The longest reference the contracts keep (DisputeCase.MAX_HASH_LENGTH, bytes). */
export const MAX_REF_BYTES = 128;

/** What an evidence reference may look like, for messages and docs. */
export const REF_FORMS = "a CID (e.g. bafkrei...), ipfs://<cid> or /ipfs/<cid>";

/**
 * The CID an evidence reference names: a bare CID, `ipfs://<cid>` or `/ipfs/<cid>`. Anything else
 * (a URL, a path inside a directory, text, a CID that does not decode) is 400 INVALID_INPUT.
 *
 * @example parseEvidenceRef("ipfs://bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e")
 */
export function parseEvidenceRef(ref: string): CID {
  const why = refProblem(ref);
  if (typeof why === "string") throw new DocketError("INVALID_INPUT", `not an evidence reference: ${why}`, { ref });
  return why;
}

/** The CID `ref` names, or why it names none. */
export function refProblem(ref: string): CID | string {
  if (Buffer.byteLength(ref, "utf8") > MAX_REF_BYTES) return `longer than ${MAX_REF_BYTES} bytes`;
  let s = ref.trim();
  if (s !== ref) return "surrounding spaces";
  if (s.startsWith("ipfs://")) s = s.slice("ipfs://".length);
  else if (s.startsWith("/ipfs/")) s = s.slice("/ipfs/".length);
  else if (/^[a-z][a-z0-9+.-]*:/i.test(s)) return `only ${REF_FORMS} are taken, not other URLs`;
  if (s.includes("/") || s.includes("?") || s.includes("#"))
    return `a path or query after the CID is not taken; give ${REF_FORMS}`;
  try {
    return CID.parse(s);
  } catch {
    return `expected ${REF_FORMS}`;
  }
}

/**
 * The CID of bytes stored as one raw block: CIDv1, raw codec, sha2-256 (text is taken as UTF-8).
 * It is also what the store gives any content of at most one chunk (256 KiB), as
 * `ipfs add --cid-version 1` does; larger content is a UnixFS DAG with another CID (publish it).
 *
 * @example rawCid("hello world").toString() // "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e"
 */
export function rawCid(bytes: Uint8Array | string): CID {
  const hash = createHash("sha256").update(bytes).digest();
  return CID.create(1, raw.code, Digest.create(sha256.code, hash));
}

/** `ipfs://<cid>`: the URI the publish answer gives. */
export const ipfsUri = (cid: string | CID) => `ipfs://${cid.toString()}`;

/**
 * The CID a 32-byte sha2-256 digest names as one raw block (CIDv1, raw): how an ERC-8183
 * deliverable (a bytes32) reads as content, the inverse of `digestOfCid`.
 */
export function cidOfDigest(digest: `0x${string}`): string {
  return CID.create(1, raw.code, Digest.create(sha256.code, Buffer.from(digest.slice(2), "hex"))).toString();
}

/**
 * The sha2-256 digest of a raw-block CID (what `publish_evidence` gives content of up to 256 KiB),
 * as the bytes32 an ERC-8183 deliverable holds; a string saying why not for any other CID.
 */
export function digestOfCid(cid: CID): `0x${string}` | string {
  if (cid.version !== 1 || cid.code !== raw.code)
    return "only a CIDv1 of a raw block (bafkrei..., what publish_evidence gives up to 256 KiB) fits in a bytes32";
  if (cid.multihash.code !== sha256.code) return "only a sha2-256 CID fits in a bytes32";
  return `0x${Buffer.from(cid.multihash.digest).toString("hex")}`;
}
