import { type Address, getAddress, type Hex, type TransactionReceipt } from "viem";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi } from "../../src/chain/abi/generated.js";
import { makeChain, makePublicClient } from "../../src/chain/client.js";
import { loadConfig } from "../../src/config.js";
import { Actor } from "../../src/devnet/actor.js";
import { devAccounts } from "../../src/devnet/devAccounts.js";
import type { Devnet } from "../../src/devnet/devnet.js";
import { operations } from "../../src/operations/registry.js";
import { type Docket, startServer } from "../../src/server.js";
import { chainEnv, request } from "./docket.js";

/**
 * docket against `rpcUrl` (a proxy in front of `devnet`), its follower polled by the test only:
 * the interval is an hour, so "one poll" is exactly one call of `follower.poll()`. Without an index
 * unless `env` asks for one (`TEST_INDEX`): these suites count the follower's own requests, and a
 * backfill from the deployment's block would be in them.
 */
export async function startBehind(rpcUrl: string, devnet: Devnet, env: Record<string, string> = {}): Promise<Docket> {
  return startServer(
    loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      RATE_LIMIT_PER_MINUTE: "0",
      ...chainEnv(devnet, rpcUrl),
      EVENT_POLL_MS: "3600000",
      INDEX: "off",
      ...env,
    }),
  );
}

/** One raw JSON-RPC request (anvil's own methods included). */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export async function mine(url: string, blocks: number): Promise<void> {
  for (let i = 0; i < blocks; i++) await rpc(url, "evm_mine");
}

/** Casts a vote for the plaintiff straight on chain (never through docket) as the first judge who may. */
export async function voteOnChain(devnet: Devnet, caseAddr: Address): Promise<void> {
  const [, view] = await devnet.reader.readContract({
    address: devnet.deployment.factory,
    abi: caseFactoryAbi,
    functionName: "getCase",
    args: [caseAddr],
  });
  for (const judge of view.judges) {
    const dev = devAccounts().find((a) => a.address === getAddress(judge));
    if (!dev) continue;
    const ok = await devnet.reader
      .simulateContract({ address: caseAddr, abi: disputeCaseAbi, functionName: "vote", args: [true], account: judge })
      .then(
        () => true,
        () => false,
      );
    if (!ok) continue;
    await new Actor(dev.account, devnet.chain, devnet.reader).write({
      address: caseAddr,
      abi: disputeCaseAbi,
      functionName: "vote",
      args: [true],
    });
    return;
  }
  throw new Error(`no judge of ${caseAddr} may vote`);
}

/** Dev account `account` stakes as a judge straight on chain: the minimum of the dev terms (0.1 ETH) plus `extraWei`. */
export async function stakeOnChain(devnet: Devnet, account: number, extraWei = 0n): Promise<void> {
  const a = devnet.accounts[account];
  if (!a) throw new Error(`no dev account ${account}`);
  await new Actor(a.account, devnet.chain, devnet.reader).write({
    address: devnet.deployment.registry,
    abi: courtRegistryAbi,
    functionName: "stakeAsJudge",
    args: [0n],
    value: 100_000_000_000_000_000n + extraWei,
  });
}

export function seeded(devnet: Devnet, label: string): Address {
  const c = devnet.seed?.cases.find((x) => x.label.startsWith(label));
  if (!c) throw new Error(`no seeded case ${label}`);
  return c.address;
}

/**
 * A path for every GET read route of the registry, its `:address` filled with something the seeded
 * dev chain knows: a deliberating case, its first judge (judge and validator routes) or its plaintiff;
 * its `:cid` with evidence published to `d` (POST /evidence), which `GET /evidence/:cid` serves; its
 * `:id` the General court.
 */
export async function everyReadPath(d: Docket, devnet: Devnet): Promise<string[]> {
  const kase = seeded(devnet, "deliberating");
  const view = (await request(d, `/cases/${kase}`)).body.case as { plaintiff: string; judges: string[] };
  const published = await request(d, "/evidence", { content: "every read route", mediaType: "text/plain" });
  if (published.status !== 200) throw new Error(`POST /evidence: ${JSON.stringify(published.body)}`);
  const cid = published.body.cid as string;
  return (
    operations
      .filter((op) => op.kind === "read" && op.http.method === "GET")
      // The chain's reads: what the index alone answers (a timeline, a history) reads no chain, and
      // without an index (INDEX=off) what needs it says 503 INDEX_UNAVAILABLE.
      .filter((op) => !op.errors?.includes("INDEX_UNAVAILABLE") || (op.errors.includes("RPC_ERROR") && !!d.ctx.index))
      .map((op) =>
        op.http.path
          .replace(":cid", cid)
          .replace(":id", "1")
          .replace(":address", () => {
            if (op.http.path.startsWith("/cases/")) return kase;
            if (op.http.path.startsWith("/judges/") || op.http.path.startsWith("/validate/"))
              return view.judges[0] as string;
            return view.plaintiff;
          }),
      )
  );
}

/** What a write answers in `unsigned_tx`. */
export interface UnsignedTx {
  to: Address;
  value: string;
  data: Hex;
  chainId: number;
}

/**
 * Signs an unsigned_tx as a dev account (by address or index), broadcasts it to `rpcUrl` as the
 * caller's wallet does, and waits until it is mined; a revert throws.
 */
export async function signAndSend(
  rpcUrl: string,
  signer: string | number,
  tx: UnsignedTx,
): Promise<TransactionReceipt> {
  const account =
    typeof signer === "number"
      ? devAccounts()[signer]
      : devAccounts().find((a) => a.address.toLowerCase() === signer.toLowerCase());
  if (!account) throw new Error(`${signer} is not a dev account`);
  const chain = makeChain(tx.chainId, rpcUrl);
  return new Actor(account.account, chain, makePublicClient(chain)).send(tx);
}

/** The account index of a dev account's address (any case). */
export function indexOf(devnet: { accounts: readonly { address: string }[] }, address: string): number {
  const i = devnet.accounts.findIndex((a) => a.address.toLowerCase() === address.toLowerCase());
  if (i < 0) throw new Error(`${address} is not a dev account`);
  return i;
}
