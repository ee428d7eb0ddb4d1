/**
 * Whether a JSON text nests arrays and objects deeper than `max` (the outermost counts 1). One pass
 * over the bytes, no recursion, so a 10,000-level body costs what its length costs; brackets inside
 * strings do not count.
 */
export function nestedDeeperThan(body: Buffer | string, max: number): boolean {
  const b = typeof body === "string" ? Buffer.from(body) : body;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
