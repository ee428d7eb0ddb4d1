import { type Address, getAddress, type Hex, parseEventLogs } from "viem";
import { expect } from "vitest";
import { agenticCommerceAbi, courtEvaluatorAbi, testUSDAbi } from "../../src/chain/abi/generated.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { operations } from "../../src/operations/registry.js";
import { extraData, openDispute, testArbitrableAbi } from "../contracts/arbitrationHelpers.js";
import { compileFixture } from "../contracts/refuser.js";
import type { TestDocket } from "./docket.js";

/**
 * The arbitration flow of docs/arbitration.md, written once and driven over either front end: a
 * `Driver` calls docket's operations by name (HTTP: the operation's route; MCP: its tool), and every
 * unsigned transaction it answers is signed by a dev account, mined, and read back through docket.
 */

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
export type Json = any;

/** An operation's answer: its body, and the error code when it refused. */
export interface Reply {
  ok: boolean;
  body: Json;
  code?: string;
  /** The HTTP status (over MCP, the status the error code maps to). */
  status?: number;
}

export type Driver = (name: string, args: Record<string, unknown>) => Promise<Reply>;

/** Calls an operation over HTTP the way a client reads its route: path parameters, then a query (GET) or a JSON body (POST). */
export function httpDriver(t: TestDocket): Driver {
  return async (name, args) => {
    const op = operations.find((o) => o.name === name);
    if (!op) throw new Error(`no operation ${name}`);
    let path = op.http.path;
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args)) {
      if (path.includes(`:${k}`)) path = path.replace(`:${k}`, encodeURIComponent(String(v)));
      else rest[k] = v;
    }
    const r =
      op.http.method === "GET"
        ? await t.get(
            `${path}${Object.keys(rest).length ? `?${new URLSearchParams(rest as Record<string, string>)}` : ""}`,
          )
        : await t.post(path, rest);
    return { ok: r.status === 200, body: r.body, code: r.body?.error?.code, status: r.status };
  };
}

/** A flow over one driver, against one TestDocket (for signing, time travel and reading token balances). */
export class JobFlow {
  constructor(
    readonly t: TestDocket,
    readonly call: Driver,
  ) {}

  get arbitration() {
    const a = this.t.chain.arbitration;
    if (!a) throw new Error("the dev chain deployed no arbitration contracts");
    return a;
  }

  /** Calls an operation that must succeed. */
  async ok(name: string, args: Record<string, unknown> = {}): Promise<Json> {
    const r = await this.call(name, args);
    if (!r.ok) throw new Error(`${name} ${JSON.stringify(args)} refused: ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** Calls a write, signs its transaction as `signer` (an address of a dev account) and waits for it. */
  async write(name: string, args: Record<string, unknown>, signer: Address) {
    const body = await this.ok(name, args);
    const tx = body.unsigned_tx as { to: Address; value: string; data: Hex; chainId: number };
    expect(tx.chainId).toBe(31337);
    return { body, receipt: await this.t.actor(this.indexOf(signer)).send(tx) };
  }

  indexOf(addr: string): number {
    const i = this.t.devnet.accounts.findIndex((a) => a.address.toLowerCase() === addr.toLowerCase());
    if (i < 0) throw new Error(`${addr} is not a dev account`);
    return i;
  }

  async balance(who: Address): Promise<bigint> {
    return this.t.chain.reader.readContract({
      address: this.arbitration.token,
      abi: testUSDAbi,
      functionName: "balanceOf",
      args: [who],
    });
  }

  /** Mints the client `amount` of the job token (the deployer is its minter on the dev chain). */
  async mint(to: Address, amount: bigint): Promise<void> {
    await this.t
      .actor(0)
      .write({ address: this.arbitration.token, abi: testUSDAbi, functionName: "mint", args: [to, amount] });
  }

  async job(id: number): Promise<Json> {
    return (await this.ok("get_job", { id })).job;
  }

  /** create_job, signed by the client: the new job's id from its JobCreated event. */
  async create(
    client: Address,
    provider: Address,
    court: number,
    extra: Record<string, unknown> = {},
  ): Promise<number> {
    const { body, receipt } = await this.write(
      "create_job",
      { from: client, provider, court, description: `Summarize the Q3 shipping logs (${Math.random()})`, ...extra },
      client,
    );
    expect(body.next.operation).toBe("fund_job");
    const [created] = parseEventLogs({ abi: agenticCommerceAbi, eventName: "JobCreated", logs: receipt.logs });
    if (!created) throw new Error("no JobCreated");
    return Number(created.args.jobId);
  }

  /** fund_job until it answers the `fund` step: set the budget, approve the token, escrow. */
  async fund(id: number, client: Address, budget: bigint): Promise<string[]> {
    const steps: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { body } = await this.write("fund_job", { id, from: client, budget: budget.toString() }, client);
      steps.push(body.step);
      if (body.step === "fund") {
        expect(body.next).toBeNull();
        return steps;
      }
      expect(body.next.operation).toBe("fund_job");
    }
    throw new Error(`fund_job never reached the fund step: ${steps}`);
  }

  /** Publishes the provider's work to docket's evidence store and submits its CID. */
  async submit(id: number, provider: Address, text = "Q3 summary: 412 shipments, 3 late."): Promise<string> {
    const published = await this.ok("publish_evidence", { content: text, mediaType: "text/plain" });
    await this.write("submit_job", { id, from: provider, deliverable: published.cid }, provider);
    return published.cid;
  }

  /** How many times the evaluator received `rule` for a dispute (its IArbitrableV2 Ruling event). */
  async rulesReceived(evaluator: Address, disputeId: number): Promise<number> {
    const logs = await this.t.chain.reader.getContractEvents({
      address: evaluator,
      abi: courtEvaluatorAbi,
      eventName: "Ruling",
      fromBlock: 0n,
    });
    return logs.filter((l) => Number(l.args.disputeID) === disputeId).length;
  }

  /**
   * The judges of a case decide for `plaintiffWins` through docket: public votes one by one; hidden
   * votes committed then revealed. Then the appeal window passes and anyone settles.
   */
  async judge(caseAddr: string, plaintiffWins: boolean): Promise<void> {
    const c = (await this.ok("get_case", { address: caseAddr })).case;
    const kits: { judge: Address; salt: Hex }[] = [];
    for (const judge of c.judges as Address[]) {
      // Public votes: a majority decides at once, and a late vote is refused.
      if (!c.hiddenVotes && (await this.ok("get_case", { address: caseAddr })).case.state !== "Deliberating") break;
      const { body } = await this.write(
        "vote_on_case",
        { address: caseAddr, plaintiff_wins: plaintiffWins, from: judge },
        judge,
      );
      if (c.hiddenVotes) kits.push({ judge, salt: body.reveal.salt });
    }
    for (const k of kits) {
      await this.write(
        "reveal_vote",
        { address: caseAddr, plaintiff_wins: plaintiffWins, salt: k.salt, from: k.judge },
        k.judge,
      );
    }
    const decided = (await this.ok("get_case", { address: caseAddr })).case;
    expect(decided).toMatchObject({ state: "Resolved", outcome: plaintiffWins ? "PlaintiffWon" : "DefendantWon" });
    await advanceTime(this.t.chain.reader, 301);
    await this.write("settle_case", { address: caseAddr, from: this.t.address(0) }, this.t.address(0));
  }
}

/** A budget of 25 USDC (six decimals). */
export const BUDGET = 25_000_000n;

/**
 * The disputed path, end to end: a client creates and funds a job in `court`, the provider submits,
 * the client disputes through dispute_job, the provider answers the case, a panel is drawn and
 * decides for `clientWins`, the case is settled, and the ruling moves the escrow to the winner.
 * Returns what the caller may check further (the job id, its case, the evaluator).
 */
export async function disputedJob(f: JobFlow, client: Address, provider: Address, court: number, clientWins: boolean) {
  await f.mint(client, BUDGET);
  const id = await f.create(client, provider, court);
  const created = await f.job(id);
  expect(created).toMatchObject({ id, state: "Open", client, provider, budget: "0" });
  expect(created.evaluation).toMatchObject({ court: { id: court }, phase: "waiting", dispute: null });

  expect(await f.fund(id, client, BUDGET)).toEqual(["set_budget", "approve", "fund"]);
  expect(await f.job(id)).toMatchObject({ state: "Funded", budget: BUDGET.toString() });
  expect(await f.balance(f.arbitration.commerce)).toBeGreaterThanOrEqual(BUDGET);

  const cid = await f.submit(id, provider);
  const submitted = await f.job(id);
  expect(submitted).toMatchObject({ state: "Submitted", deliverableCid: cid });
  expect(submitted.evaluation).toMatchObject({ phase: "in_window", disputable: true });
  const cost = submitted.evaluation.arbitrationCost as string;
  expect((await f.ok("get_arbitration_cost", { court })).cost).toBe(cost);

  // The client's inbox offers the dispute until the window closes (the inbox reads the index).
  await f.t.indexed();
  const inbox = await f.ok("get_inbox", { address: client });
  expect(inbox.jobs).toContainEqual(
    expect.objectContaining({
      job: id,
      operation: "dispute_job",
      as: "client",
      deadline: submitted.evaluation.windowEndsAt,
    }),
  );

  const byProvider = await f.call("dispute_job", { id, from: provider, statement: "I dispute my own work?" });
  expect(byProvider).toMatchObject({
    ok: false,
    code: "JOB_STEP_REFUSED",
    body: { error: { details: { rule: "only_client" } } },
  });
  const clientBefore = await f.balance(client);
  const providerBefore = await f.balance(provider);
  const { body } = await f.write(
    "dispute_job",
    { id, from: client, statement: "The summary covers Q2, not Q3 as the job asked." },
    client,
  );
  expect(body.unsigned_tx.value).toBe(cost);
  const disputed = await f.job(id);
  expect(disputed.evaluation).toMatchObject({ phase: "disputed", disputable: false });
  const d = disputed.evaluation.dispute;
  expect(d).toMatchObject({
    court: { id: court },
    caseState: "Summoned",
    cost,
    ruling: { value: null, delivery: "pending" },
  });

  // The case is a docket case like any other, and links its job.
  const c = (await f.ok("get_case", { address: d.case })).case;
  expect(c).toMatchObject({ plaintiff: client, defendant: provider, court: { id: court } });
  expect(c.arbitration).toMatchObject({ arbitrable: disputed.evaluator, disputeId: d.id, job: { id } });
  expect(c.claimDescription).toContain(cid);
  expect(c.evidenceIpfsHash).toBe(body.evidence);

  await f.write("respond_to_case", { address: d.case, from: provider }, provider);
  await f.write("assign_judges_random", { address: d.case, from: f.t.address(0) }, f.t.address(0));
  await f.judge(d.case, clientWins);

  const ruled = await f.job(id);
  expect(ruled).toMatchObject({ state: clientWins ? "Rejected" : "Completed" });
  expect(ruled.evaluation).toMatchObject({
    phase: "ruled",
    dispute: {
      caseState: "Resolved",
      ruling: { value: clientWins ? 1 : 2, winner: clientWins ? "client" : "provider", delivery: "delivered" },
    },
  });
  // The escrow moved to the winner, and the arbitrable received `rule` exactly once.
  expect(await f.balance(client)).toBe(clientBefore + (clientWins ? BUDGET : 0n));
  expect(await f.balance(provider)).toBe(providerBefore + (clientWins ? 0n : BUDGET));
  expect(await f.rulesReceived(disputed.evaluator, d.id)).toBe(1);
  return { id, caseAddr: d.case as string, evaluator: disputed.evaluator as Address };
}

/** The undisputed path: the window passes, the keeper view lists the job, anyone finalizes, the provider is paid. */
export async function undisputedJob(f: JobFlow, client: Address, provider: Address, keeper: Address) {
  await f.mint(client, BUDGET);
  const id = await f.create(client, provider, 1);
  await f.fund(id, client, BUDGET);
  await f.submit(id, provider);
  const early = await f.call("finalize_job", { id, from: keeper });
  expect(early).toMatchObject({
    ok: false,
    code: "JOB_STEP_REFUSED",
    body: { error: { details: { rule: "window_open" } } },
  });
  const read = await f.ok("get_job", { id });
  await advanceTime(f.t.chain.reader, read.job.evaluation.windowEndsAt - read.chainTime + 1);
  expect((await f.job(id)).evaluation).toMatchObject({ phase: "finalizable", disputable: false, judgeable: true });
  const late = await f.call("dispute_job", { id, from: client, statement: "Too late." });
  expect(late).toMatchObject({
    ok: false,
    code: "JOB_STEP_REFUSED",
    body: { error: { details: { rule: "window_closed" } } },
  });
  await f.t.indexed();
  const keeperView = await f.ok("list_keeper_actions", {});
  expect(keeperView.jobs).toContainEqual(expect.objectContaining({ job: id, operation: "finalize_job", as: "anyone" }));
  const before = await f.balance(provider);
  const { body } = await f.write("finalize_job", { id, from: keeper }, keeper);
  expect(body.pays).toBe(true);
  expect(await f.job(id)).toMatchObject({ state: "Completed", evaluation: { phase: "finalized", dispute: null } });
  expect(await f.balance(provider)).toBe(before + BUDGET);
  return id;
}

/**
 * A ruling whose delivery failed: a test arbitrable (test/contracts/fixtures/TestArbitrable.sol)
 * that refuses `rule` opens a dispute in the General court, `plaintiff` against `defendant`; the
 * case is answered, drawn, decided for the plaintiff and settled through docket. Returns the
 * arbitrable (`setFailing(false)` lets the next delivery through) and the case.
 */
export async function failedRuling(f: JobFlow, plaintiff: Address, defendant: Address) {
  const owner = f.t.actor(0);
  const { bytecode } = compileFixture("TestArbitrable");
  const deployed = await owner.mined(
    await owner.wallet.deployContract({
      abi: [{ type: "constructor", inputs: [{ name: "arbitrator", type: "address" }], stateMutability: "nonpayable" }],
      bytecode,
      args: [f.arbitration.arbitrator],
      account: owner.account,
      chain: owner.chain,
    }),
  );
  const arbitrable = getAddress(deployed.contractAddress as Address);
  await owner.write({ address: arbitrable, abi: testArbitrableAbi, functionName: "setFailing", args: [true] });
  const court = { devnet: f.t.devnet, reader: f.t.chain.reader } as never;
  const { caseAddr } = await openDispute(court, arbitrable, owner, extraData({ court: 1n, plaintiff, defendant }));
  await f.write("respond_to_case", { address: caseAddr, from: defendant }, defendant);
  await f.write("assign_judges_random", { address: caseAddr, from: f.t.address(0) }, f.t.address(0));
  await f.judge(caseAddr, true);
  return { arbitrable, caseAddr: caseAddr as string };
}
