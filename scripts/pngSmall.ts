/**
 * Makes a screenshot PNG small: decodes the 8-bit RGB(A) PNG Chromium writes, maps its colours onto
 * a palette of at most 256 (the most frequent after rounding each channel to a step of 8, each the
 * mean of its pixels: a page's flat colours survive, antialiased edges move by a shade) and writes an indexed PNG at zlib level 9.
 */
import { deflateSync, inflateSync } from "node:zlib";
import { chunk } from "../src/devnet/png.js";

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** The pixels of an 8-bit, non-interlaced RGB or RGBA PNG, as RGB triples. */
function decode(png: Buffer): { width: number; height: number; rgb: Uint8Array } {
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.toString("ascii", at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + len);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error("not an 8-bit non-interlaced PNG");
      channels = body[9] === 6 ? 4 : body[9] === 2 ? 3 : 0;
      if (!channels) throw new Error("not an RGB or RGBA PNG");
    } else if (type === "IDAT") data.push(body);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] as number;
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x] as number;
      const a = x >= channels ? (out[y * stride + x - channels] as number) : 0;
      const b = y > 0 ? (out[(y - 1) * stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (out[(y - 1) * stride + x - channels] as number) : 0;
      let p = 0;
      if (filter === 1) p = a;
      else if (filter === 2) p = b;
      else if (filter === 3) p = (a + b) >> 1;
      else if (filter === 4) {
        const e = a + b - c;
        const [pa, pb, pc] = [Math.abs(e - a), Math.abs(e - b), Math.abs(e - c)];
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = (v + p) & 0xff;
    }
  }
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) for (let k = 0; k < 3; k++) rgb[i * 3 + k] = out[i * channels + k] as number;
  return { width, height, rgb };
}

export function smallPng(png: Buffer): Buffer {
  const { width, height, rgb } = decode(png);
  const key = (i: number) =>
    (((rgb[i] as number) >> 3) << 10) | (((rgb[i + 1] as number) >> 3) << 5) | ((rgb[i + 2] as number) >> 3);
  // Each bucket's pixel count and colour sums: a bucket shows as the mean of the colours in it.
  const sums = new Map<number, [number, number, number, number]>();
  for (let i = 0; i < rgb.length; i += 3) {
    const s = sums.get(key(i)) ?? [0, 0, 0, 0];
    s[0]++;
    s[1] += rgb[i] as number;
    s[2] += rgb[i + 1] as number;
    s[3] += rgb[i + 2] as number;
    sums.set(key(i), s);
  }
  const colour = (k: number) => {
    const [n, r, g, b] = sums.get(k) as [number, number, number, number];
    return [Math.round(r / n), Math.round(g / n), Math.round(b / n)];
  };
  const palette = [...sums.entries()]
    .sort((x, y) => y[1][0] - x[1][0])
    .slice(0, 256)
    .map(([k]) => k);
  const rgbs = palette.map(colour);
  const index = new Map<number, number>();
  const nearest = (k: number): number => {
    let n = index.get(k);
    if (n !== undefined) return n;
    const [r, g, b] = colour(k) as [number, number, number];
    let best = Number.POSITIVE_INFINITY;
    n = 0;
    rgbs.forEach(([pr, pg, pb], i) => {
      const d = (r - (pr as number)) ** 2 + (g - (pg as number)) ** 2 + (b - (pb as number)) ** 2;
      if (d < best) [best, n] = [d, i];
    });
    index.set(k, n);
    return n;
  };
  const rows = Buffer.alloc(height * (width + 1));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rows[y * (width + 1) + 1 + x] = nearest(key((y * width + x) * 3));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 3;
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", ihdr),
    chunk("PLTE", Buffer.from(rgbs.flat())),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
