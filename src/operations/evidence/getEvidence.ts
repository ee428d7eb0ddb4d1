import { z } from "zod";
import { DocketError } from "../../errors/errors.js";
import { parseEvidenceRef } from "../../evidence/cid.js";
import { frameEvidence } from "../../evidence/frame.js";
import { isImageType, isTextType, utf8 } from "../../evidence/media.js";
import { Answer, defineOperation } from "../kernel/operation.js";
import { evidenceRef } from "../kernel/schemas.js";
import { evidenceResourceUri, INLINE_TEXT_BYTES } from "./evidence.js";

/** A year: content never changes under its CID. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** Nothing a party uploads runs on docket's origin: no scripts, no plugins, a unique origin. */
export const SANDBOX_CSP = "default-src 'none'; sandbox";

export const getEvidence = defineOperation({
  name: "get_evidence",
  title: "Read one piece of evidence",
  description:
    "The content of one piece of evidence by its CID (or ipfs://<cid>, /ipfs/<cid>), every byte checked against the CID. Over HTTP: the bytes themselves, with their media type, ETag = the CID and Cache-Control immutable (never rendered as active content: a sandboxing CSP, nosniff, a PDF inline under its CID with .pdf, and an attachment for anything but plain text, images and PDFs). Over MCP: its media type and size, text inline when short (quoted as a party's data), and the resource docket://evidence/{cid} to read the rest (images and PDFs as blobs).",
  kind: "read",
  toolset: "cases",
  http: {
    method: "GET",
    path: "/evidence/:cid",
    raw: {
      description: "The verified bytes, as the media type they were published with",
      headers: {
        ETag: "The CID, quoted: the content never changes under it",
        "Cache-Control": IMMUTABLE,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": SANDBOX_CSP,
        "Content-Disposition":
          "inline with a .pdf filename for a PDF (opened in the browser, sandboxed); attachment for anything but text/plain, images and PDFs",
      },
    },
  },
  input: z.object({
    cid: evidenceRef("The evidence's CID, ipfs://<cid> or /ipfs/<cid>"),
  }),
  output: z.object({
    cid: z.string(),
    mediaType: z.string(),
    size: z.number().int(),
    resource: z.string().describe("Its MCP resource (text as text, images and PDFs as blobs)"),
    text: z.string().optional().describe(`Text up to ${INLINE_TEXT_BYTES} bytes, framed as a party's data`),
  }),
  errors: ["EVIDENCE_NOT_FOUND", "INVALID_INPUT"],
  servesOnWrongChain: true,
  example: { cid: "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e" },
  handler: async ({ cid: ref }, ctx) => {
    const cid = parseEvidenceRef(ref).toString();
    const content = await ctx.evidence.read(cid).catch((err: unknown) => {
      // Content over EVIDENCE_MAX_BYTES (a gateway's, or stored under a larger limit) is not served.
      if (err instanceof DocketError && err.code === "PAYLOAD_TOO_LARGE") {
        throw new DocketError("EVIDENCE_NOT_FOUND", err.message, { ...err.details, reason: "too-large" });
      }
      throw err;
    });
    const type = content.mediaType ?? "application/octet-stream";
    const text = isTextType(type) && content.size <= INLINE_TEXT_BYTES ? utf8(content.bytes) : undefined;
    // A PDF opens in the browser's viewer, named so it saves as one, still under the sandboxing CSP.
    const pdf = type === "application/pdf";
    const inline = type === "text/plain" || isImageType(type);
    return new Answer(
      {
        cid,
        mediaType: type,
        size: content.size,
        resource: evidenceResourceUri(cid),
        ...(text !== undefined
          ? { text: frameEvidence(text, { role: "unknown", address: "a party (read by CID)" }, cid) }
          : {}),
      },
      {
        raw: { bytes: content.bytes, contentType: isTextType(type) ? `${type}; charset=utf-8` : type },
        headers: {
          ETag: `"${cid}"`,
          "Cache-Control": IMMUTABLE,
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": SANDBOX_CSP,
          ...(inline
            ? {}
            : { "Content-Disposition": pdf ? `inline; filename="${cid}.pdf"` : `attachment; filename="${cid}"` }),
        },
      },
    );
  },
});
