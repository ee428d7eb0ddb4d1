import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/**
 * The real headless Chromium the browser suites drive: /usr/bin/chromium (Debian's package). CI
 * installs it (.ci/run), so there a missing browser is a failure, while elsewhere those suites are
 * skipped.
 */
export const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
const inCi = Boolean(process.env.CI) && process.env.CI !== "false" && process.env.CI !== "0";

/** Whether a browser suite is skipped here (no browser, and not CI), with a warning naming `suite`. */
export function skipWithoutChromium(suite: string): boolean {
  const skip = !hasChromium && !inCi;
  if (skip) console.warn(`${suite} SKIPPED: ${CHROMIUM} is missing (install Debian's chromium package to run it)`);
  return skip;
}

/** Launches it on a fresh temporary profile of its own (removed on close), quiet and offline-minded. */
export async function launchChromium(): Promise<Browser> {
  if (!hasChromium) throw new Error(`CI is set but ${CHROMIUM} is missing: .ci/run should have installed chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
