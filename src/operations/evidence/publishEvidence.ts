import { z } from "zod";
import { DocketError } from "../../errors/errors.js";
import { evidenceDocument, publishEvidence as publish } from "../../evidence/document.js";
import { MEDIA_TYPE_LIST } from "../../evidence/media.js";
import { defineOperation } from "../kernel/operation.js";

/** Characters of a file sent in JSON at most (EVIDENCE_MAX_BYTES, at most 1 GiB, in base64). */
const MAX_FILE_CHARS = 1_431_655_768;

const published = {
  cid: z.string().describe("The content's IPFS CID (CIDv1): file it, or submit it as evidence"),
  uri: z.string().describe("ipfs://<cid>"),
  size: z.number().int().describe("Bytes"),
  mediaType: z.string().describe("The media type it is stored and served as"),
};

export const publishEvidence = defineOperation({
  name: "publish_evidence",
  title: "Publish evidence",
  description: `Stores a file of evidence in docket's IPFS store (no chain write, nothing to sign) and answers its CID, plus the CID of an ERC-1497 evidence document docket builds for it (name, description, fileURI, fileHash, fileTypeExtension, mediaType, size). File that document's CID with file_case (evidenceIpfsHash) or submit_evidence. Over HTTP send the file as the raw body with its Content-Type (name and description in the query), or as multipart/form-data (a \`file\` part), or a JSON body with \`content\` (text) or \`contentBase64\` (a JSON body is always this form: send a JSON file as \`content\`); over MCP, text or base64. Taken: ${MEDIA_TYPE_LIST.join(", ")} (others 415), up to EVIDENCE_MAX_BYTES (413). The same bytes give the same CID and are stored once. Read it back with GET /evidence/{cid} or the resource docket://evidence/{cid}.`,
  kind: "write",
  toolset: "cases",
  http: {
    method: "POST",
    path: "/evidence",
    upload: { bytesField: "contentBase64", typeField: "mediaType", types: MEDIA_TYPE_LIST },
  },
  input: z.object({
    // Bounded where the body is read (EVIDENCE_MAX_BYTES, 413); these caps only stop the absurd.
    content: z
      .string()
      .max(MAX_FILE_CHARS)
      .optional()
      .describe("The evidence as text (UTF-8), for text/plain, text/markdown, application/json"),
    contentBase64: z
      .string()
      .max(MAX_FILE_CHARS)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: "must be base64" })
      .optional()
      .describe("The evidence's bytes, base64 (images, PDF, any allowed type)"),
    mediaType: z
      .string()
      .min(1)
      .max(100)
      .describe(`Its media type: one of ${MEDIA_TYPE_LIST.join(", ")}`),
    name: z.string().max(200).optional().describe("A short title for the evidence document (ERC-1497 name)"),
    description: z.string().max(4096).optional().describe("What it shows, in your words (ERC-1497 description)"),
  }),
  output: z.object({
    ...published,
    document: z
      .object({ ...published, content: evidenceDocument })
      .describe("The ERC-1497 evidence document docket published for the file: file this CID"),
  }),
  okDescription: "Stored: the file's CID and its evidence document's",
  errors: ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "INVALID_INPUT"],
  servesOnWrongChain: true,
  example: { content: "Delivery was due on 1 March; nothing arrived.", mediaType: "text/plain", name: "Statement" },
  handler: async (i, ctx) => {
    if ((i.content === undefined) === (i.contentBase64 === undefined)) {
      throw new DocketError("INVALID_INPUT", "give the evidence as exactly one of content (text) or contentBase64");
    }
    const bytes =
      i.content !== undefined ? Buffer.from(i.content, "utf8") : Buffer.from(i.contentBase64 as string, "base64");
    const e = await publish(ctx.evidence, bytes, i.mediaType, { name: i.name, description: i.description });
    return {
      cid: e.cid,
      uri: e.uri,
      size: e.size,
      mediaType: e.mediaType,
      document: {
        cid: e.document.cid,
        uri: e.document.uri,
        size: e.document.size,
        mediaType: e.document.mediaType,
        content: e.document.content,
      },
    };
  },
});
