import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, type Hex, keccak256, parseEventLogs, toHex } from "viem";
import { caseFactoryAbi } from "../../src/chain/abi/generated.js";
import { type ArbitrationDeployment, arbitrationEnvLines } from "../../src/chain/deployments.js";
import { loadConfig } from "../../src/config.js";
import { Actor } from "../../src/devnet/actor.js";
import type { Devnet } from "../../src/devnet/devnet.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { rawCid } from "../../src/evidence/cid.js";
import { type Docket, startServer } from "../../src/server.js";
import { indexOf } from "./chain.js";
import { type DocketProcess, spawnDocket } from "./process.js";
import { type ChainLease, leaseChain } from "./sharedChain.js";
import { until } from "./wait.js";

export interface Api {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are checked field by field
  body: any;
}

/**
 * One HTTP request to a docket (`to` its base URL, or anything with a `url`): a GET, or a POST of
 * `post` as JSON (a string is sent as it is). The body is parsed as JSON when the answer says it is
 * JSON, else kept as text (`GET /evidence/:cid` answers the content itself).
 */
export async function request(
  to: string | { url: string },
  path: string,
  post?: unknown,
  headers: Record<string, string> = {},
): Promise<Api> {
  const res = await fetch(`${typeof to === "string" ? to : to.url}${path}`, {
    method: post === undefined ? "GET" : "POST",
    headers: post === undefined ? headers : { "content-type": "application/json", ...headers },
    body: post === undefined ? undefined : typeof post === "string" ? post : JSON.stringify(post),
  });
  const json = res.headers.get("content-type")?.includes("json") ?? false;
  return { status: res.status, headers: res.headers, body: json ? await res.json() : await res.text() };
}

/** A chain docket can be pointed at: the dev chain (a `Devnet`), or its node and deployment as the bench has them. */
export interface ChainAt {
  rpcUrl: string;
  chainId?: number;
  deployment: { factory: Address; registry: Address; arbitration?: ArbitrationDeployment };
}

/**
 * The KEY=value lines `npm run devnet` prints for `chain` (what any docket on an external chain
 * needs); `rpcUrl` may be a proxy in front of it.
 */
export function chainEnv(chain: ChainAt, rpcUrl = chain.rpcUrl): Record<string, string> {
  return {
    RPC_URL: rpcUrl,
    CHAIN_ID: String(chain.chainId ?? 31337),
    FACTORY_ADDRESS: chain.deployment.factory,
    REGISTRY_ADDRESS: chain.deployment.registry,
    ...arbitrationEnv(chain),
  };
}

/** The arbitration contracts of a chain, as `docket devnet` prints them for another docket (docs/arbitration.md). */
export function arbitrationEnv(chain: ChainAt): Record<string, string> {
  const a = chain.deployment.arbitration;
  return Object.fromEntries((a ? arbitrationEnvLines(a) : []).map((l) => l.split("=") as [string, string]));
}

/**
 * The environment of a docket pointed at a dev chain that runs apart from it (as on a real chain),
 * quiet, on a free port, with no event follower unless `env` asks for one.
 */
export function externalChainEnv(devnet: ChainAt, env: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: "0",
    LOG_LEVEL: "silent",
    ...TEST_INDEX,
    ...chainEnv(devnet),
    EVENT_POLL_MS: "0",
    EVIDENCE_DIR: mkdtempSync(join(tmpdir(), "docket-evidence-")),
    ...env,
  };
}

/**
 * The index of a test docket: in memory, its own (a directory would be the repo's data/index, one
 * process's at a time). The suites of the index itself (test/index/) choose PGlite in a directory
 * or a real Postgres; the end-to-end suites spawn docket with the default.
 */
export const TEST_INDEX = { DATABASE_URL: "memory://" } as const;

/** What the chain's side of a test needs of a docket: its dev chain's definition and reader, the factory, the chain id. */
export interface DevChainAccess {
  definition: Devnet["chain"];
  reader: Devnet["reader"];
  factory: Address;
  chainId: number;
}

/** Helpers to call a docket on a seeded dev chain and to sign as dev accounts, wherever that docket runs. */
abstract class OnDevChain {
  abstract get url(): string;
  abstract get chain(): DevChainAccess;
  abstract get devnet(): Devnet;
  abstract close(): Promise<void>;

  /** Resolves once docket's index holds every block mined so far (where the test can see it). */
  async indexed(_ms?: number): Promise<void> {}

  address(index: number): Address {
    return (this.devnet.accounts[index] as { address: Address }).address;
  }

  /** The dev account index of `address`. */
  indexOf(address: string): number {
    return indexOf(this.devnet, address);
  }

  actor(index: number): Actor {
    const a = this.devnet.accounts[index];
    if (!a) throw new Error(`no dev account ${index}`);
    return new Actor(a.account, this.chain.definition, this.chain.reader);
  }

  get(path: string): Promise<Api> {
    return request(this, path);
  }

  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Api> {
    return request(this, path, body, headers);
  }

  /** POSTs a write, expects an unsigned transaction, signs it as `signer` and waits for it to be mined. */
  async write(path: string, body: Record<string, unknown>, signer: number) {
    const r = await this.post(path, body);
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
    const tx = r.body.unsigned_tx as { to: Address; value: string; data: Hex; chainId: number };
    if (tx.chainId !== this.chain.chainId) throw new Error("unsigned_tx is for another chain");
    return this.actor(signer).send(tx);
  }

  /**
   * Runs the draws waiting in `court` (issue #31: a waiting draw holds every judge whose stake counts
   * there, so nobody may unstake), as the keeper view lists them, signed by `signer`. A draw armed
   * over 256 blocks ago re-arms first, so it takes rounds. A draw the pool cannot seat (which of the
   * seeded judges were slashed depends on the draws' entropy) waits until its deadline, when anyone
   * ends the round (as it ends any round already past its deadline): the chain time moves on a day
   * for it, so call this only where the suite's later steps do not mind the day.
   */
  async runWaitingDraws(court: number, signer: number): Promise<void> {
    const from = { from: this.address(signer) };
    for (let round = 0; round < 5; round++) {
      // The keeper view answers from the index: it must hold what was just sent.
      await this.indexed();
      const steps = (await this.get(`/keeper/actions?court=${court}`)).body.actions as {
        case: string;
        operation: string;
        http: string;
      }[];
      const draws = steps.filter((s) => s.operation === "assign_judges_random");
      // A round past its deadline without a panel is ended by anyone, which ends its draw's wait too.
      const ends = steps.filter((s) => s.operation === "resolve_after_deadline");
      if (draws.length === 0 && ends.length === 0) return;
      for (const end of ends) await this.write(end.http.split(" ")[1] as string, from, signer);
      let waiting = false;
      for (const draw of draws) {
        const tried = await this.post(`/cases/${draw.case}/assign-judges-random`, from);
        if (tried.body.error?.details?.reason !== "NotEnoughJudges") {
          if (tried.status !== 200)
            throw new Error(`assign-judges-random answered ${tried.status}: ${JSON.stringify(tried.body)}`);
          await this.actor(signer).send(tried.body.unsigned_tx);
          continue;
        }
        waiting = true;
      }
      if (!waiting) continue;
      await advanceTime(this.chain.reader, 24 * 3600);
      const now = Number((await this.chain.reader.getBlock({ blockTag: "latest" })).timestamp);
      await until(
        "the keeper view at the chain time reached",
        async () => (await this.get(`/keeper/actions?court=${court}`)).body.chainTime >= now,
        20_000,
      );
    }
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
    const { factory } = this.chain;
    const params = await this.chain.reader.readContract({
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
}

/** A docket in this process on its own seeded dev chain (or a shared one), with the helpers of `OnDevChain`. */
export class TestDocket extends OnDevChain {
  private constructor(readonly docket: Docket) {
    super();
  }

  /**
   * docket on its own seeded dev chain, booted for it (seconds): for a suite that needs a chain of
   * its own (docs/testing.md says which).
   */
  static async start(env: Record<string, string> = {}): Promise<TestDocket> {
    return new TestDocket(await startServer(loadConfig({ ...TestDocket.base(), ...env })));
  }

  /**
   * docket on one of the run's shared seeded dev chains (test/support/sharedChain.ts), leased for
   * this docket alone and reverted to the freshly seeded world: the same world `start` boots, in
   * milliseconds. Closing the docket gives the chain back.
   */
  static async shared(env: Record<string, string> = {}): Promise<TestDocket> {
    const lease = await leaseChain();
    try {
      // Served as a dev chain docket booted itself (its facilitator with it when DEV_FACILITATOR=on);
      // closing docket stops it, which gives the lease back.
      const config = loadConfig({ ...TestDocket.base(lease.evidenceDir), ...env });
      return new TestDocket(await startServer(config, { devnet: lease.devnet }));
    } catch (err) {
      await lease.release();
      throw err;
    }
  }

  /** The settings every test docket starts with, its evidence in `evidenceDir` (a fresh directory unless given). */
  static base(evidenceDir = mkdtempSync(join(tmpdir(), "docket-evidence-"))): Record<string, string> {
    // Tests send far more than a client may per minute: the rate limit and the evidence upload
    // limit have their own tests.
    // The dev world is `npm start`'s: the General court votes in the open, Agentic Commerce hides
    // votes (a hidden-vote suite files into it: `fileOnChain(..., AGENTIC_COMMERCE_COURT)`).
    // The dev facilitator (a process of its own) runs only for the suites that pay with a token.
    // Evidence goes to a fresh directory of its own: nothing published leaks between runs.
    return {
      PORT: "0",
      LOG_LEVEL: "silent",
      ...TEST_INDEX,
      RATE_LIMIT_PER_MINUTE: "0",
      EVIDENCE_UPLOADS_PER_MINUTE: "0",
      EVIDENCE_DIR: evidenceDir,
      DEV_FACILITATOR: "off",
    };
  }

  get url(): string {
    return this.docket.url;
  }
  get chain() {
    return this.docket.ctx.chain;
  }

  /**
   * Resolves once the index holds every block mined so far: the follower polled (it writes the
   * index) until the index's cursor reaches the head as it was when called.
   */
  override async indexed(ms = 30_000): Promise<void> {
    const index = this.docket.ctx.index;
    if (!index) throw new Error("this docket has no index (INDEX=off)");
    const head = Number(await this.chain.reader.getBlockNumber());
    await until(
      `the index at block ${head}`,
      async () => {
        await this.docket.follower?.poll().catch(() => {});
        const c = await index.cursor();
        return c !== undefined && c.block >= head;
      },
      ms,
    );
  }
  get devnet() {
    const d = this.docket.dev?.devnet;
    if (!d) throw new Error("not on the dev chain");
    return d;
  }

  async close(): Promise<void> {
    await this.docket.close();
  }
}

/**
 * docket as users start it: `node bin/docket.js start` (the build included), a process of its own,
 * on one of the run's shared seeded dev chains (leased as `TestDocket.shared` does, pointed at it as
 * at any chain: RPC_URL and the deployment's addresses). For the end-to-end suites (the explorer in
 * Chromium): what they test is what `npm start` runs.
 */
export class BuiltDocket extends OnDevChain {
  private constructor(
    readonly process: DocketProcess,
    private readonly lease: ChainLease,
  ) {
    super();
  }

  static async shared(env: Record<string, string> = {}): Promise<BuiltDocket> {
    const lease = await leaseChain();
    try {
      const { devnet } = lease;
      const process = await spawnDocket({
        // docket reads anvil itself; wallets go through the dev chain's time-travel proxy.
        ...chainEnv(devnet, devnet.nodeUrl),
        ...TestDocket.base(lease.evidenceDir),
        LOG_LEVEL: "warn",
        ...env,
      });
      return new BuiltDocket(process, lease);
    } catch (err) {
      await lease.release();
      throw err;
    }
  }

  get url(): string {
    return this.process.url;
  }
  get devnet(): Devnet {
    return this.lease.devnet;
  }

  /**
   * Resolves once the index of the docket process holds every block mined so far, as its `/health`
   * tells (its follower writes the index; nothing here can make it poll sooner).
   */
  override async indexed(ms = 30_000): Promise<void> {
    const head = Number(await this.chain.reader.getBlockNumber());
    await until(
      `the index at block ${head}`,
      async () => {
        const { body } = await this.get("/health");
        const cursor = body?.index?.cursor;
        if (cursor === undefined) throw new Error("this docket has no index (INDEX=off)");
        return cursor !== null && cursor >= head;
      },
      ms,
    );
  }
  get chain(): DevChainAccess {
    const d = this.lease.devnet;
    return { definition: d.chain, reader: d.reader, factory: d.deployment.factory, chainId: d.chainId };
  }

  async close(): Promise<void> {
    await this.process.stop();
    await this.lease.release();
  }
}
