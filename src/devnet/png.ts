import { crc32, deflateSync } from "node:zlib";

/**
 * A valid PNG of `width` x `height` RGB pixels, `pixel(x, y)` giving each one's [r, g, b]: enough
 * for the seed to publish real images (a chart, a photo stand-in) without shipping binary files.
 */
export function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    rows[row] = 0; // filter: none
    for (let x = 0; x < width; x++) rows.set(pixel(x, y), row + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** One PNG chunk: its length, type, data and CRC (scripts/pngSmall.ts writes its chunks with it too). */
export function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A bar chart: one bar per value (0..1 of the height), red past `limit`, green within. */
export function barChart(values: number[], limit: number): Buffer {
  const bar = 8;
  const height = 64;
  return png(values.length * bar, height, (x, y) => {
    const v = values[Math.floor(x / bar)] ?? 0;
    if (x % bar === bar - 1 || height - y > v * height) return [255, 255, 255];
    return v > limit ? [200, 40, 40] : [40, 160, 60];
  });
}
