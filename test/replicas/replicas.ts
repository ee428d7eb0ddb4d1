import { pino } from "pino";
import { type Address, createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { loadConfig } from "../../src/config.js";
import type { Devnet } from "../../src/devnet/devnet.js";
import { type Docket, startServer } from "../../src/server.js";

export interface Api {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are checked field by field
  body: any;
}

export interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

/** One docket replica on an external chain, with the log lines it wrote (info and up). */
export interface Replica {
  readonly url: string;
  readonly docket: Docket;
  readonly logs: LogLine[];
  get(path: string): Promise<Api>;
  post(path: string, body: unknown): Promise<Api>;
  /** Log lines at warn (40) or above whose message matches. */
  warnings(re: RegExp): LogLine[];
  close(): Promise<void>;
}

/** The KEY=value lines `npm run devnet` prints, for a devnet started in-process; rpcUrl may be a proxy. */
export function chainEnv(devnet: Devnet, rpcUrl = devnet.rpcUrl): Record<string, string> {
  return {
    RPC_URL: rpcUrl,
    CHAIN_ID: String(devnet.chainId),
    FACTORY_ADDRESS: devnet.deployment.factory,
    REGISTRY_ADDRESS: devnet.deployment.registry,
  };
}

async function call(url: string, init?: RequestInit): Promise<Api> {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** Starts docket as it would run in production against an external chain, logging into memory. */
export async function startReplica(env: Record<string, string>): Promise<Replica> {
  const logs: LogLine[] = [];
  const log = pino(
    { level: "info", base: undefined },
    {
      write: (line: string) => {
        logs.push(JSON.parse(line) as LogLine);
      },
    },
  );
  const docket = await startServer(
    loadConfig({ PORT: "0", LOG_LEVEL: "info", RATE_LIMIT_PER_MINUTE: "0", EVENT_POLL_MS: "0", ...env }),
    { log, graceMs: 1_000 },
  );
  return {
    url: docket.url,
    docket,
    logs,
    get: (path) => call(`${docket.url}${path}`),
    post: (path, body) =>
      call(`${docket.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    warnings: (re) => logs.filter((l) => l.level >= 40 && re.test(l.msg)),
    close: () => docket.close(),
  };
}

export interface UnsignedTx {
  to: Address;
  value: string;
  data: Hex;
  chainId: number;
}

/** Signs and broadcasts as a dev account, as a wallet would, and waits until it is mined. */
export async function signAndSend(devnet: Devnet, index: number, tx: UnsignedTx): Promise<Hex> {
  const dev = devnet.accounts[index];
  if (!dev) throw new Error(`no dev account ${index}`);
  const wallet = createWalletClient({
    account: privateKeyToAccount(dev.privateKey),
    chain: devnet.chain,
    transport: http(devnet.rpcUrl, { retryCount: 0 }),
  });
  const hash = await wallet.sendTransaction({ to: tx.to, value: BigInt(tx.value), data: tx.data });
  const receipt = await devnet.reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  return hash;
}

/** Polls `check` until it returns a value (not undefined) or `ms` pass. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The account index of a dev account's address. */
export function indexOf(devnet: Devnet, address: string): number {
  const i = devnet.accounts.findIndex((a) => a.address.toLowerCase() === address.toLowerCase());
  if (i < 0) throw new Error(`${address} is not a dev account`);
  return i;
}
