import { afterAll, beforeAll } from "vitest";

/** Anything a suite starts and must close: a docket, a chain, a server. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * Starts what a suite runs against before its first test and closes it after its last, also when
 * a test or the start failed part way. `start` usually assigns the suite's variable as well:
 * `let t: TestDocket; forSuite(async () => (t = await TestDocket.shared()));`
 */
export function forSuite(start: () => Promise<Closable | undefined>): void {
  let started: Closable | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
  });
}
