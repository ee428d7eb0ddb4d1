import { z } from "zod";
import { refProblem } from "./cid.js";
import { MEDIA_TYPES, type MediaType } from "./media.js";
import type { EvidencePublisher, Published } from "./store.js";

/**
 * An evidence document in ERC-1497's shape (https://eips.ethereum.org/EIPS/eip-1497), so
 * Kleros-style readers understand docket's: `fileURI` is `/ipfs/<cid>` and `fileHash` the file's
 * CID (a self-describing multihash). docket adds `mediaType` and `size`.
 */
export const evidenceDocument = z.object({
  name: z.string().max(200).describe("Short title of the evidence"),
  description: z.string().max(10_000).describe("What it shows, in the party's words"),
  fileURI: z.string().max(200).optional().describe("The file: /ipfs/<cid>"),
  fileHash: z.string().max(200).optional().describe("The file's CID"),
  fileTypeExtension: z.string().max(16).optional().describe("The file's extension, e.g. pdf"),
  mediaType: z.string().max(100).optional().describe("The file's media type (docket's addition)"),
  size: z.number().int().nonnegative().optional().describe("The file's size in bytes (docket's addition)"),
});
export type EvidenceDocument = z.infer<typeof evidenceDocument>;

/** The document describing `file`, with the fields in ERC-1497's order (same inputs, same bytes, same CID). */
export function buildEvidenceDocument(
  file: Published,
  meta: { name?: string; description?: string },
): EvidenceDocument {
  return {
    name: meta.name ?? `Evidence ${file.cid}`,
    description: meta.description ?? "",
    fileURI: `/ipfs/${file.cid}`,
    fileHash: file.cid,
    fileTypeExtension: MEDIA_TYPES[file.mediaType],
    mediaType: file.mediaType,
    size: file.size,
  };
}

/** The ERC-1497 document JSON `text` holds, or undefined when it holds none (plain JSON evidence). */
export function parseEvidenceDocument(text: string): EvidenceDocument | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = evidenceDocument.safeParse(value);
  if (!parsed.success) return undefined;
  // A name with neither a file nor a description is some other JSON that happens to have a name.
  if (parsed.data.fileURI === undefined && parsed.data.description === "") return undefined;
  return parsed.data;
}

/** The CID a document's fileURI names, or why it names none (docket fetches nothing but CIDs). */
export function documentFile(doc: EvidenceDocument): { cid: string } | { problem: string } | undefined {
  if (doc.fileURI === undefined) return undefined;
  const r = refProblem(doc.fileURI);
  return typeof r === "string" ? { problem: `its fileURI is not an IPFS reference: ${r}` } : { cid: r.toString() };
}

/** A file and the ERC-1497 document docket published for it: file either CID. */
export interface PublishedEvidence extends Published {
  document: Published & { content: EvidenceDocument };
}

/**
 * Publishes a file and its ERC-1497 document; what `publish_evidence` does, and what the seed and
 * other helpers call. The document's CID is the one to file (it names, describes and points at the file).
 *
 * @example
 * const e = await publishEvidence(store, bytes, "image/png", { name: "Photo of the parcel" });
 * // file_case with evidenceIpfsHash: e.document.cid
 */
export async function publishEvidence(
  store: EvidencePublisher,
  bytes: Uint8Array,
  mediaType: string,
  meta: { name?: string; description?: string } = {},
): Promise<PublishedEvidence> {
  const file = await store.publish(bytes, mediaType);
  const content = buildEvidenceDocument(file, meta);
  const doc = await store.publish(new TextEncoder().encode(JSON.stringify(content)), "application/json");
  return { ...file, document: { ...doc, content } };
}

export type { MediaType };
