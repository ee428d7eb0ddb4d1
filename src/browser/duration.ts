/** Shared by the server's pages and the live script (src/browser/live.ts), so both count alike. */

/** "1d 2h", "3m 20s", "45s": the two largest units. */
export function duration(seconds: number): string {
  const units: [string, number][] = [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
    ["s", 1],
  ];
  const parts: string[] = [];
  let rest = Math.floor(seconds);
  for (const [name, size] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || (parts.length === 0 && size === 1)) parts.push(`${n}${name}`);
    if (parts.length === 2) break;
  }
  return parts.join(" ");
}
