/**
 * The court's keeper: executes every permissionless step docket lists (draws, defaults, deadline
 * resolutions, settlements, failed ruling deliveries, and ERC-8183 jobs to finalize once their
 * challenge window closed undisputed), so no case and no job stalls. Anyone may run it; it earns nothing but progress.
 *
 *   PRIVATE_KEY=0x... npx tsx examples/keeper.ts            # loop every 5 s
 *   PRIVATE_KEY=0x... npx tsx examples/keeper.ts --once     # one sweep, then exit
 *
 * DOCKET_URL (default http://127.0.0.1:8787); the JSON-RPC URL comes from RPC_URL, or from
 * docket's /health on the dev chain. Prints one JSON line per step executed.
 */
import type { Hex } from "viem";
import { connectWallet } from "./wallet.js";

const DOCKET = process.env.DOCKET_URL ?? "http://127.0.0.1:8787";
const { account, wallet, reader } = await connectWallet(DOCKET, "a dev account key");
const headers = { "content-type": "application/json" };

interface Step {
  operation: string;
  http: string;
  /** A case's step names the case; a job's, the job. */
  case?: string;
  job?: number;
}

/** One sweep over every page of keeper actions; returns how many were executed. */
async function sweep(): Promise<number> {
  let done = 0;
  for (let cursor: string | null = ""; cursor !== null; ) {
    const page = (await (await fetch(`${DOCKET}/keeper/actions${cursor ? `?cursor=${cursor}` : ""}`)).json()) as {
      actions: Step[];
      jobs?: Step[];
      nextCursor: string | null;
    };
    for (const step of [...page.actions, ...(page.jobs ?? [])]) {
      const [method, path] = step.http.split(" ");
      const body = JSON.stringify({ from: account.address });
      const built = (await (await fetch(DOCKET + path, { method, headers, body })).json()) as { unsigned_tx?: unknown };
      // Another keeper may have been first: docket's simulation then refuses, and we move on.
      if (!built.unsigned_tx) continue;
      const tx = built.unsigned_tx as { to: Hex; value: string; data: Hex };
      const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
      const { status } = await reader.waitForTransactionReceipt({ hash });
      const what = step.job === undefined ? { case: step.case } : { job: step.job };
      process.stdout.write(`${JSON.stringify({ ...what, operation: step.operation, hash, status })}\n`);
      done++;
    }
    cursor = page.nextCursor;
  }
  return done;
}

if (process.argv.includes("--once")) {
  await sweep();
} else {
  for (;;) {
    await sweep().catch((err: Error) => process.stderr.write(`keeper: ${err.message}\n`));
    await new Promise((r) => setTimeout(r, 5_000));
  }
}
