import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, type Hex, keccak256, parseEventLogs, toHex } from "viem";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import { loadConfig } from "../../src/config.js";
import { Actor } from "../../src/devnet/actor.js";
import type { Devnet } from "../../src/devnet/devnet.js";
import { rawCid } from "../../src/evidence/cid.js";
import { type Docket, startServer } from "../../src/server.js";

export interface Api {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are checked field by field
  body: any;
}

/**
 * The environment of a docket pointed at a dev chain that runs apart from it (as on a real chain),
 * quiet, on a free port, with no event follower unless `env` asks for one.
 */
export function externalChainEnv(devnet: Devnet, env: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: "0",
    LOG_LEVEL: "silent",
    RPC_URL: devnet.rpcUrl,
    CHAIN_ID: "31337",
    FACTORY_ADDRESS: devnet.deployment.factory,
    REGISTRY_ADDRESS: devnet.deployment.registry,
    EVENT_POLL_MS: "0",
    EVIDENCE_DIR: mkdtempSync(join(tmpdir(), "docket-evidence-")),
    ...arbitrationEnv(devnet),
    ...env,
  };
}

/** The arbitration contracts of a dev chain as a real chain's docket is told them (docs/arbitration.md). */
export function arbitrationEnv(devnet: Devnet): Record<string, string> {
  const a = devnet.deployment.arbitration;
  if (!a) return {};
  return {
    ARBITRATOR_ADDRESS: a.arbitrator,
    JOBS_ADDRESS: a.commerce,
    JOBS_TOKEN_ADDRESS: a.token,
    EVALUATORS: a.evaluators.map((e) => `${e.courtId}:${e.address}`).join(","),
  };
}

/** A docket on its own seeded dev chain, with helpers to call it and to sign as dev accounts. */
export class TestDocket {
  private constructor(readonly docket: Docket) {}

  static async start(env: Record<string, string> = {}): Promise<TestDocket> {
    // Tests send far more than a client may per minute: the rate limit and the evidence upload
    // limit have their own tests.
    // The dev world is `npm start`'s: the General court votes in the open, Agentic Commerce hides
    // votes (a hidden-vote suite files into it: `fileOnChain(..., AGENTIC_COMMERCE_COURT)`).
    // The dev facilitator (a process of its own) runs only for the suites that pay with a token.
    // Evidence goes to a fresh directory of its own: nothing published leaks between runs.
    const base = {
      PORT: "0",
      LOG_LEVEL: "silent",
      RATE_LIMIT_PER_MINUTE: "0",
      EVIDENCE_UPLOADS_PER_MINUTE: "0",
      EVIDENCE_DIR: mkdtempSync(join(tmpdir(), "docket-evidence-")),
      DEV_FACILITATOR: "off",
    };
    return new TestDocket(await startServer(loadConfig({ ...base, ...env })));
  }

  get url(): string {
    return this.docket.url;
  }
  get court() {
    return this.docket.ctx.court;
  }
  get devnet() {
    const d = this.court.devnet;
    if (!d) throw new Error("not on the dev chain");
    return d;
  }

  address(index: number): Address {
    return (this.devnet.accounts[index] as { address: Address }).address;
  }

  actor(index: number): Actor {
    const a = this.devnet.accounts[index];
    if (!a) throw new Error(`no dev account ${index}`);
    return new Actor(a.account, this.court.chain, this.court.reader);
  }

  async get(path: string): Promise<Api> {
    const res = await fetch(`${this.url}${path}`);
    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Api> {
    const res = await fetch(`${this.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  /** POSTs a write, expects an unsigned transaction, signs it as `signer` and waits for it to be mined. */
  async write(path: string, body: Record<string, unknown>, signer: number) {
    const r = await this.post(path, body);
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
    const tx = r.body.unsigned_tx as { to: Address; value: string; data: Hex; chainId: number };
    if (tx.chainId !== this.court.chainId) throw new Error("unsigned_tx is for another chain");
    return this.actor(signer).send(tx);
  }

  /**
   * Files a case straight on chain in `court` (default the General court): pays the filing fee into
   * the factory, then files with its reference.
   */
  async fileOnChain(
    plaintiff: number,
    defendant: number,
    claim = `claim ${Date.now()} ${Math.random()}`,
    court: number | bigint = 1,
  ) {
    const { factory } = this.court;
    const params = await this.court.reader.readContract({
      address: factory,
      abi: caseFactoryAbi,
      functionName: "getParams",
    });
    const p = this.actor(plaintiff);
    const ref = keccak256(toHex(`ref:${claim}:${Math.random()}`));
    await p.write({
      address: factory,
      abi: caseFactoryAbi,
      functionName: "payFilingFee",
      args: [ref],
      value: params.filingFee,
    });
    const receipt = await p.write({
      address: factory,
      abi: caseFactoryAbi,
      functionName: "fileCase",
      args: [BigInt(court), this.address(defendant), claim, rawCid(claim).toString(), ref],
      value: params.terms.minPartyStake,
    });
    const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
    if (!filed) throw new Error("no CaseFiled");
    return filed.args.caseAddr;
  }

  async close(): Promise<void> {
    await this.docket.close();
  }
}
