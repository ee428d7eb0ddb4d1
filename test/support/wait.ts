/** Polls `check` until it returns a value (not undefined) or `ms` pass; `what` names it in the timeout. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  ms = 10_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Polls `cond` until it holds or `ms` pass. */
export async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  await waitFor(what, async () => ((await cond()) ? true : undefined), ms);
}
