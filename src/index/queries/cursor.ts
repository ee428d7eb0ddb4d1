/**
 * The keyset cursor every list of the index pages by: the last row's key (whole numbers) joined by
 * dots, as a page's `nextCursor` gives it. Any string of that shape (CURSOR_PATTERN, checked at the
 * door) is a place in the list: a key of another size reads as far as it goes.
 */
export function encodeCursor(key: readonly number[]): string {
  return key.map((k) => String(Math.trunc(k))).join(".");
}

/** The key a cursor names, `size` numbers long (missing parts are 0, extra ones ignored); undefined for none. */
export function decodeCursor(cursor: string | undefined, size: number): number[] | undefined {
  if (cursor === undefined) return undefined;
  const parts = cursor.split(".").map(Number);
  return Array.from({ length: size }, (_, i) => (Number.isSafeInteger(parts[i]) ? (parts[i] as number) : 0));
}
