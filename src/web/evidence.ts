import type { CaseBody } from "../operations/cases.shared.js";

/**
 * A case's evidence as the explorer shows it: each item attributed to its party, its bytes only
 * ever from docket's verified evidence route (`/evidence/{cid}`). Reads both the list of content
 * hashes (`hash`, `submitter`, `submittedAt`) and the richer per-item description (cid, mediaType,
 * size, party role, inline text) when the evidence route serves it.
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
  text: string | null;
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

/** The filing's evidence (the plaintiff's) first, then what the parties added, oldest first. */
export function evidenceItems(c: CaseBody, added: readonly Record<string, unknown>[]): EvidenceItem[] {
  const items: Record<string, unknown>[] = [];
  if (c.evidenceIpfsHash) items.push({ hash: c.evidenceIpfsHash, submitter: c.plaintiff, submittedAt: c.filedAt });
  items.push(...added.filter((e) => e.filing !== true));
  return items.map((e) => {
    const ref = str(e.cid) ?? str(e.hash) ?? str(e.uri) ?? "";
    const cid = cidOf(ref);
    const href = cid === null ? null : `/evidence/${cid}`;
    const mediaType = str(e.mediaType);
    const text = str(e.text) ?? str(e.inlineText);
    const submitter = str(e.submitter) ?? str(e.party) ?? "";
    return {
      ref,
      href,
      submitter,
      role: roleOf(c, submitter, e.role),
      at: typeof e.submittedAt === "number" ? e.submittedAt : c.filedAt,
      show: showOf(mediaType, text, href),
      mediaType,
      size: typeof e.size === "number" ? e.size : null,
      name: str(e.name),
      text,
    };
  });
}
