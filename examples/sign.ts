/**
 * Signs and broadcasts one docket `unsigned_tx`, the way any wallet would.
 *
 *   export DOCKET_URL=http://127.0.0.1:8787   # the line `npm start` prints, whatever its PORT
 *   curl -s -XPOST $DOCKET_URL/cases/$CASE/vote -H 'content-type: application/json' \
 *     -d '{"plaintiff_wins":true}' | PRIVATE_KEY=0x... npx tsx examples/sign.ts
 *
 * Reads the docket response (or a bare unsigned_tx) on stdin; the key comes from PRIVATE_KEY only.
 * The JSON-RPC URL comes from RPC_URL, or from docket's /health (DOCKET_URL, default
 * http://127.0.0.1:8787, `npm start`'s default PORT), which reports the dev chain's URL.
 */
import { createPublicClient, createWalletClient, defineChain, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";

async function stdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const key = process.env.PRIVATE_KEY as Hex | undefined;
if (!key) throw new Error("set PRIVATE_KEY (a dev account key printed by `npm start`)");
const input = JSON.parse(await stdin());
// A 402 carries docket's envelope in docketError (x402 v1's `error` is a string); any other refusal in error.
const refused = input.docketError ?? input.error;
if (refused) throw new Error(`docket refused: ${refused.code}: ${refused.message}`);
const tx = (input.unsigned_tx ?? input) as { to: Hex; value: string; data: Hex; chainId: number };

let rpcUrl = process.env.RPC_URL;
if (!rpcUrl) {
  const docket = process.env.DOCKET_URL ?? "http://127.0.0.1:8787";
  const res = await fetch(`${docket}/health`).catch((err: Error) => {
    throw new Error(
      `cannot reach docket at ${docket} (${err.message}): run the \`export DOCKET_URL=...\` line \`npm start\` printed, or set RPC_URL`,
    );
  });
  rpcUrl = ((await res.json()) as { rpcUrl?: string }).rpcUrl;
}
if (!rpcUrl) throw new Error("no JSON-RPC URL: set RPC_URL");

const chain = defineChain({
  id: tx.chainId,
  name: `chain ${tx.chainId}`,
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } },
});
const account = privateKeyToAccount(key);
const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
const reader = createPublicClient({ chain, transport: http(rpcUrl) });
const hash = await wallet.sendTransaction({ to: tx.to, value: BigInt(tx.value), data: tx.data });
const receipt = await reader.waitForTransactionReceipt({ hash });
process.stdout.write(`${JSON.stringify({ hash, status: receipt.status, blockNumber: Number(receipt.blockNumber) })}\n`);
if (receipt.status !== "success") process.exit(1);
