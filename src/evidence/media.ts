import { DocketError } from "../errors/errors.js";

/**
 * The media types evidence may have (docs/evidence.md, "Safety model"), with the file extension ERC-1497's
 * `fileTypeExtension` names. Anything else is refused at publish (415).
 */
export const MEDIA_TYPES = {
  "text/plain": "txt",
  "text/markdown": "md",
  "application/json": "json",
  "application/pdf": "pdf",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
} as const;

export type MediaType = keyof typeof MEDIA_TYPES;
export const MEDIA_TYPE_LIST = Object.keys(MEDIA_TYPES) as MediaType[];

export const isTextType = (t: string) => t === "text/plain" || t === "text/markdown" || t === "application/json";
export const isImageType = (t: string) => t.startsWith("image/");

/** "Text/Plain; charset=utf-8" → "text/plain". */
export function essence(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

/** The allow-listed media type `declared` names, checked against the bytes; 415 otherwise. */
export function acceptedType(declared: string, bytes: Uint8Array): MediaType {
  const type = essence(declared);
  if (!(type in MEDIA_TYPES)) {
    throw new DocketError("UNSUPPORTED_MEDIA_TYPE", `evidence of type '${type || "(none)"}' is not taken`, {
      accepted: MEDIA_TYPE_LIST,
    });
  }
  const sniffed = sniffBinary(bytes);
  const fits = isTextType(type) ? sniffed === undefined && utf8(bytes) !== undefined : sniffed === type;
  if (!fits) {
    throw new DocketError("UNSUPPORTED_MEDIA_TYPE", `the content is not ${type}`, {
      declared: type,
      ...(sniffed ? { looksLike: sniffed } : {}),
    });
  }
  return type as MediaType;
}

/** The binary allow-listed type whose signature `b` starts with. */
export function sniffBinary(b: Uint8Array): MediaType | undefined {
  const at = (o: number, ...xs: number[]) => xs.every((x, i) => b[o + i] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  if (at(0, 0x25, 0x50, 0x44, 0x46, 0x2d)) return "application/pdf";
  return undefined;
}

/**
 * What bytes read back by CID are, when docket did not publish them itself (a CID carries no media
 * type): a known binary signature, else JSON or plain text if they are UTF-8, else undefined.
 */
export function sniff(b: Uint8Array): MediaType | undefined {
  const bin = sniffBinary(b);
  if (bin) return bin;
  const text = utf8(b);
  if (text === undefined) return undefined;
  try {
    JSON.parse(text);
    return "application/json";
  } catch {
    return "text/plain";
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true });
/** The bytes as text, or undefined when they are not UTF-8 (or hold NULs: binary). */
export function utf8(b: Uint8Array): string | undefined {
  try {
    const s = decoder.decode(b);
    return s.includes("\u0000") ? undefined : s;
  } catch {
    return undefined;
  }
}
