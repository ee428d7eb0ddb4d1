import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import express from "express";
import { createWalletClient, type Hex, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { makeChain } from "../chain/client.js";
import { devAccount } from "./devAccounts.js";

/**
 * An x402 facilitator for the dev chain: the x402 project's own code (`@x402/core`'s facilitator
 * with `@x402/evm`'s "exact" EVM scheme), served over its HTTP API (`POST /verify`, `POST /settle`,
 * `GET /supported`). docket asks only its `/verify` (the filing transaction settles a token fee);
 * its `/settle`, there as x402 serves it, would submit an authorization to the token first, which
 * the court answers as EIP-3009's front-running (docs/payments.md). `npm start` runs it as a process
 * of its own beside the dev chain, so docket itself still holds no key; on a real chain,
 * X402_FACILITATOR_URL names any facilitator instead.
 */

/** The dev account whose well-known key the dev facilitator pays gas with (the last of the twenty). */
export const FACILITATOR_DEV_INDEX = 19;

export interface FacilitatorOptions {
  rpcUrl: string;
  chainId: number;
  privateKey: Hex;
  host?: string;
  port?: number;
}

/** Serves the facilitator in this process; resolves once it listens. */
export async function serveFacilitator(o: FacilitatorOptions): Promise<{ url: string; close(): Promise<void> }> {
  const account = privateKeyToAccount(o.privateKey);
  const client = createWalletClient({
    account,
    chain: makeChain(o.chainId, [o.rpcUrl]),
    transport: http(o.rpcUrl, { retryCount: 0 }),
  }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (a) => client.readContract(a as Parameters<typeof client.readContract>[0]),
    verifyTypedData: (a) => client.verifyTypedData(a as Parameters<typeof client.verifyTypedData>[0]),
    writeContract: (a) => client.writeContract(a as Parameters<typeof client.writeContract>[0]),
    sendTransaction: (a) => client.sendTransaction(a),
    waitForTransactionReceipt: (a) => client.waitForTransactionReceipt({ ...a, pollingInterval: 100 }),
    getCode: (a) => client.getCode(a),
  });
  const facilitator = registerExactEvmScheme(new x402Facilitator(), {
    signer,
    networks: `eip155:${o.chainId}`,
  });

  const app = express();
  app.use(express.json({ limit: "64kb" }));
  type Body = { paymentPayload?: PaymentPayload; paymentRequirements?: PaymentRequirements };
  const handle =
    (run: (p: PaymentPayload, r: PaymentRequirements) => Promise<unknown>) =>
    async (req: express.Request, res: express.Response) => {
      const { paymentPayload, paymentRequirements } = (req.body ?? {}) as Body;
      if (!paymentPayload || !paymentRequirements) {
        res.status(400).json({ error: "paymentPayload and paymentRequirements are required" });
        return;
      }
      try {
        res.json(await run(paymentPayload, paymentRequirements));
      } catch (err) {
        res.status(500).json({ error: (err as Error).message.split("\n")[0] });
      }
    };
  app.post(
    "/verify",
    handle((p, r) => facilitator.verify(p, r)),
  );
  app.post(
    "/settle",
    handle((p, r) => facilitator.settle(p, r)),
  );
  app.get("/supported", (_req, res) => {
    res.json(facilitator.getSupported());
  });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(o.port ?? 0, o.host ?? "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://${o.host ?? "127.0.0.1"}:${port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The line the facilitator process prints once it listens; its parent reads the URL from it. */
const READY = "x402 facilitator listening on ";

/** `docket facilitator`: serves until killed, and says where. */
export async function runFacilitator(o: FacilitatorOptions, exitWithParent: boolean): Promise<void> {
  const { url } = await serveFacilitator(o);
  if (exitWithParent) {
    // Our parent holds the other end of stdin: when it goes, in any way, so do we.
    process.stdin.on("end", () => process.exit(0)).resume();
  }
  process.stdout.write(`${READY}${url}\n`);
}

/** bin/docket.js, from here: src/devnet/ when run from source, dist/<build>/devnet/ when built. */
function docketBin(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const bin = join(dir, "bin", "docket.js");
    if (existsSync(bin)) return bin;
    if (dirname(dir) === dir) throw new Error("cannot find bin/docket.js to start the x402 facilitator");
  }
}

export interface FacilitatorProcess {
  url: string;
  /** The account whose key the facilitator pays gas with. */
  address: Hex;
  stop(): Promise<void>;
}

/**
 * Starts the dev facilitator as a process of its own (`docket facilitator`), paying gas with dev
 * account #19's well-known key, for the dev chain at `rpcUrl`. It dies with this process (its stdin
 * is our pipe; it exits when the pipe closes).
 */
export async function startDevFacilitator(rpcUrl: string, chainId: number): Promise<FacilitatorProcess> {
  const dev = devAccount(FACILITATOR_DEV_INDEX);
  const bin = docketBin();
  const child: ChildProcess = spawn(process.execPath, [bin, "facilitator"], {
    stdio: ["pipe", "pipe", "pipe"],
    env: {
      ...process.env,
      FACILITATOR_RPC_URL: rpcUrl,
      FACILITATOR_CHAIN_ID: String(chainId),
      FACILITATOR_PRIVATE_KEY: dev.privateKey,
      FACILITATOR_EXIT_WITH_PARENT: "1",
    },
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith(READY));
      if (line) {
        child.stdout?.off("data", onData);
        resolve(line.slice(READY.length).trim());
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the x402 facilitator exited (${code}): ${stderr.trim()}`)));
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  // It must not keep our event loop alive; it watches its stdin and leaves when we do.
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void })?.unref?.();
  return {
    url,
    address: dev.address,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.ref();
      child.kill("SIGTERM");
      await exited;
    },
  };
}
