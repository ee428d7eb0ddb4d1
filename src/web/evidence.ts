import type { CaseBody } from "../operations/cases/case.js";

/**
 * A case's evidence as the explorer shows it: each item attributed to its party, its bytes only
 * ever from docket's verified evidence route (`/evidence/{cid}`).
 */
export interface EvidenceItem {
  /** The content reference as the chain holds it. */
  ref: string;
  /** `/evidence/{cid}` when the reference is a bare CID docket can serve; null otherwise. */
  href: string | null;
  submitter: string;
  role: "plaintiff" | "defendant" | "other";
  /** Unix seconds (chain time). */
  at: number;
  /** How it is shown: inline text, inline image, a link (PDF, anything else), or the reference alone. */
  show: "text" | "image" | "link" | "ref";
  mediaType: string | null;
  size: number | null;
  name: string | null;
  /** What the party says the item is (an ERC-1497 document's description). */
  description: string | null;
  text: string | null;
  /** Why docket could not read it, when it could not. */
  unavailable: string | null;
}

/** A CID (v0 base58 or v1 base32) as docket's evidence route takes it; anything else is never made a URL. */
const CID = /^(Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{20,120})$/;

/** The bare CID of an `ipfs://`, `/ipfs/` or bare reference, when it is one. */
export function cidOf(ref: string): string | null {
  const bare = ref.replace(/^ipfs:\/\//, "").replace(/^\/ipfs\//, "");
  return CID.test(bare) ? bare : null;
}

function str(v: unknown): string | null {
  return typeof v === "string" && v.length > 0 ? v : null;
}

function obj(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/**
 * A party's text without the frame docket puts around it for LLMs (a first and a last line naming
 * a random boundary, src/evidence/frame.ts): people read the words themselves, and the page already
 * says whose they are. Text in no frame comes back as it is.
 */
export function unframe(text: string | null): string | null {
  if (text === null) return null;
  const m = /^\[evidence ([0-9a-f]{8,64}) begins: [^\n]*\]\n([\s\S]*)\n\[evidence \1 ends\]$/.exec(text);
  return m ? (m[2] as string) : text;
}

function showOf(mediaType: string | null, text: string | null, href: string | null): EvidenceItem["show"] {
  if (text !== null && (mediaType === null || mediaType.startsWith("text/") || mediaType === "application/json")) {
    return "text";
  }
  if (href === null) return "ref";
  if (mediaType !== null && /^image\/(png|jpeg|webp)$/.test(mediaType)) return "image";
  return "link";
}

function roleOf(c: CaseBody, who: string, given: unknown): EvidenceItem["role"] {
  if (given === "plaintiff" || given === "defendant") return given;
  if (who.toLowerCase() === c.plaintiff.toLowerCase()) return "plaintiff";
  if (who.toLowerCase() === c.defendant.toLowerCase()) return "defendant";
  return "other";
}

/**
 * The case's evidence, oldest first, the filing's first. `listed` is get_case_evidence's list: with
 * the evidence route it holds every item read and checked (the filing's included, an ERC-1497
 * document with its file); without it, the content hashes added after filing.
 */
export function evidenceItems(c: CaseBody, listed: readonly Record<string, unknown>[]): EvidenceItem[] {
  const read = listed.some((e) => "filing" in e);
  const items: Record<string, unknown>[] = read ? [...listed] : [];
  if (!read) {
    if (c.evidenceIpfsHash) items.push({ hash: c.evidenceIpfsHash, submitter: c.plaintiff, submittedAt: c.filedAt });
    items.push(...listed);
  }
  return items.map((e) => {
    const doc = obj(e.document);
    // A document shows its file; anything else shows itself.
    const content = obj(doc?.file) ?? e;
    const ref = str(e.reference) ?? str(e.cid) ?? str(e.hash) ?? "";
    const cid = cidOf(str(content.cid) ?? (doc ? "" : ref));
    const href = cid === null ? null : `/evidence/${cid}`;
    const mediaType = str(content.mediaType);
    const text = unframe(str(content.text));
    const submitter = str(e.submitter) ?? "";
    const unavailable = obj(content.unavailable);
    return {
      ref,
      href,
      submitter,
      role: roleOf(c, submitter, e.role),
      at: typeof e.submittedAt === "number" ? e.submittedAt : c.filedAt,
      show: showOf(mediaType, text, href),
      mediaType,
      size: typeof content.size === "number" ? content.size : null,
      name: unframe(str(doc?.name)),
      description: unframe(str(doc?.description)),
      text,
      unavailable: content.available === false ? (str(unavailable?.message) ?? "could not be read") : null,
    };
  });
}
