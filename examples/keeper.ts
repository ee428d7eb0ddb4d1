/**
 * The court's keeper: executes every permissionless step docket lists (draws, defaults, deadline
 * resolutions, settlements), so no case stalls. Anyone may run it; it earns nothing but progress.
 *
 *   PRIVATE_KEY=0x... npx tsx examples/keeper.ts            # loop every 5 s
 *   PRIVATE_KEY=0x... npx tsx examples/keeper.ts --once     # one sweep, then exit
 *
 * DOCKET_URL (default http://127.0.0.1:8787); the JSON-RPC URL comes from RPC_URL, or from
 * docket's /health on the dev chain. Prints one JSON line per step executed.
 */
import { createPublicClient, createWalletClient, defineChain, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const DOCKET = process.env.DOCKET_URL ?? "http://127.0.0.1:8787";
const key = process.env.PRIVATE_KEY as Hex | undefined;
if (!key) throw new Error("set PRIVATE_KEY (a dev account key printed by `npm start`)");
const health = (await (await fetch(`${DOCKET}/health`)).json()) as { rpcUrl?: string; chainId: number };
const rpcUrl = process.env.RPC_URL ?? health.rpcUrl;
if (!rpcUrl) throw new Error("no JSON-RPC URL: set RPC_URL");
const chain = defineChain({
  id: health.chainId,
  name: `chain ${health.chainId}`,
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } },
});
const account = privateKeyToAccount(key);
const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
const reader = createPublicClient({ chain, transport: http(rpcUrl) });
const headers = { "content-type": "application/json" };

interface Step {
  case: string;
  operation: string;
  http: string;
}

/** One sweep over every page of keeper steps; returns how many were executed. */
async function sweep(): Promise<number> {
  let done = 0;
  for (let offset: number | null = 0; offset !== null; ) {
    const page = (await (await fetch(`${DOCKET}/keeper/actions?offset=${offset}`)).json()) as {
      actions: Step[];
      nextOffset: number | null;
    };
    for (const step of page.actions) {
      const [method, path] = step.http.split(" ");
      const body = JSON.stringify({ from: account.address });
      const built = (await (await fetch(DOCKET + path, { method, headers, body })).json()) as { unsigned_tx?: unknown };
      // Another keeper may have been first: docket's simulation then refuses, and we move on.
      if (!built.unsigned_tx) continue;
      const tx = built.unsigned_tx as { to: Hex; value: string; data: Hex };
      const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
      const { status } = await reader.waitForTransactionReceipt({ hash });
      process.stdout.write(`${JSON.stringify({ case: step.case, operation: step.operation, hash, status })}\n`);
      done++;
    }
    offset = page.nextOffset;
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
