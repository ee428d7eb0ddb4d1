/**
 * The invariant fuzz's runner: boots a court and the world every sequence starts from (a snapshot
 * after a scripted prologue), sends each planned transaction signed by its agent, mines refusals
 * too, and after every step checks the chain against the model.
 */

import {
  type Address,
  decodeErrorResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from "viem";
import type { HDAccount } from "viem/accounts";
import type { CourtParams } from "../../../src/deploy/terms.js";
import type { Actor } from "../../../src/devnet/actor.js";
import * as kit from "../../contracts/helpers.js";
import { compileRefuser, refuserAbi } from "../../contracts/refuser.js";
import { type Action, AGENTS, REFUSER_OPERATORS } from "./actions.js";
import { checkWorld, readWorld } from "./checks.js";
import { BLOCKHASH_WINDOW, type CaseM, CourtModel } from "./model.js";
import { freshRef, pickCase, plan, resetRefs } from "./planner.js";
import {
  type Agent,
  agent,
  agents,
  bump,
  c,
  coverage,
  fail,
  log,
  model,
  P,
  resetCoverage,
  rpc,
  setRun,
  stateName,
  tag,
} from "./state.js";

/**
 * Every transaction gets this much gas (refusals are mined too, so no estimate). A final verdict on
 * appeal scores eight judges and credits rewards, each a write to the sortition tree's
 * checkpoints: the heaviest transaction, printed with the coverage. Far below anvil's block limit.
 */
const GAS_LIMIT = 12_000_000n;
const MAX_FEE = parseEther("0.00000005"); // 50 gwei, far above the dev chain's base fee

let snapshotId: Hex;
let baseNonces = new Map<Address, number>();
const nonces = new Map<Address, number>();
/** The model as it was when the chain snapshot was taken. */
let modelAtSnapshot: CourtModel;

// ------------------------------------------------------------- transactions

interface Sent {
  receipt: TransactionReceipt;
  /** The revert data of a failed transaction (from the trace of the mined transaction). */
  revert?: Hex;
}

/**
 * Anvil mines on send but may index the receipt a moment later; viem's waitForTransactionReceipt
 * would then wait for a next block that never comes, so this asks again until it is there.
 */
async function receiptOf(hash: Hex): Promise<TransactionReceipt> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await c.reader.getTransactionReceipt({ hash });
    } catch (e) {
      if (!(e instanceof TransactionReceiptNotFoundError) || attempt >= 500) throw e;
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}

let txCounter = 0;
async function send(from: Agent, to: Address, data: Hex, value: bigint): Promise<Sent> {
  const [txTo, txData] = from.refuser
    ? [from.addr, encodeFunctionData({ abi: refuserAbi, functionName: "exec", args: [to, data] })]
    : [to, data];
  const signer = from.signer;
  const nonce = nonces.get(signer.address) ?? 0;
  nonces.set(signer.address, nonce + 1);
  const signed = await signer.signTransaction({
    chainId: c.devnet.chainId,
    type: "eip1559",
    nonce,
    to: txTo,
    data: txData,
    value,
    gas: GAS_LIMIT,
    // Unique per transaction: after evm_revert a replayed transaction would otherwise have the
    // hash of one in a reverted block, and anvil would look up (or never find) the stale receipt.
    // With no priority fee the price paid is the base fee either way.
    maxFeePerGas: MAX_FEE + BigInt(++txCounter),
    maxPriorityFeePerGas: 0n,
  });
  const hash = await c.reader.sendRawTransaction({ serializedTransaction: signed });
  const receipt = await receiptOf(hash);
  if (receipt.transactionHash !== hash || getAddress(receipt.from) !== signer.address)
    fail(`stale receipt for ${hash}`);
  if (receipt.status === "success") return { receipt };
  const trace = await rpc("debug_traceTransaction", [hash, { tracer: "callTracer" }]);
  return { receipt, revert: (trace?.output ?? "0x") as Hex };
}

const knownErrors = [...kit.courtRegistryAbi, ...kit.caseFactoryAbi, ...kit.disputeCaseAbi, ...kit.testUSDAbi].filter(
  (x) => x.type === "error",
);
/** Error(string) reverts the contracts are known to use (a transfer a recipient refuses). */
const knownReasons = new Set(["DisputeCase: withdrawal transfer failed"]);

/** A revert's name, failing on anything but a named error of the contracts. */
function revertName(data: Hex): string {
  if (data === "0x") fail("a refusal reverted with empty data");
  let decoded: { errorName: string; args?: readonly unknown[] };
  try {
    decoded = decodeErrorResult({ abi: knownErrors, data });
  } catch {
    return fail(`a refusal reverted with data no ABI names: ${data}`);
  }
  if (decoded.errorName === "Panic") fail(`Panic(${String(decoded.args?.[0])})`);
  if (decoded.errorName === "Error") {
    const reason = String(decoded.args?.[0]);
    if (!knownReasons.has(reason)) fail(`a refusal reverted with an unexpected reason string: ${reason}`);
    return `Error: ${reason}`;
  }
  return decoded.errorName;
}

// ------------------------------------------------------------------ running

/** Back to the snapshot every sequence starts from, checked. */
export async function resetChain(): Promise<void> {
  const ok = await rpc("evm_revert", [snapshotId]);
  if (!ok) throw new Error("evm_revert failed");
  snapshotId = await rpc("evm_snapshot");
  nonces.clear();
  for (const [a, n] of baseNonces) nonces.set(a, n);
  setRun({ model: modelAtSnapshot.clone(), log: [] });
  checkWorld(await readWorld());
}

/** The model of the world as set up so far, read from the chain (before any case exists). */
async function modelFromChain(): Promise<void> {
  // On the dev chain the deployer (the owner) receives the filing fees.
  setRun({ model: new CourtModel(P, c.registry, c.factory, c.owner.address, c.owner.address) });
  model.block = await c.reader.getBlockNumber();
  const w = await readWorld();
  model.now = w.time;
  for (const [a, b] of w.balances) {
    model.balances.set(a, b);
    model.initialTotal += b;
  }
  for (const [a, b] of w.tokens) model.tokens.set(a, b);
  model.recipientTokensAtStart = w.tokens.get(model.feeRecipient) ?? 0n;
  model.tokenFee = await c.reader.readContract({
    address: c.factory,
    abi: kit.caseFactoryAbi,
    functionName: "tokenFilingFee",
  });
  for (const [a, j] of w.judges) {
    // Every draw the sequences run reads a pool block after these stakes: one checkpoint will do.
    const weights: [bigint, bigint][] = [[0n, w.weights.get(a) ?? 0n]];
    // The setup staked in the General court only.
    const courts: [bigint, bigint][] = j.stake > 0n ? [[1n, j.stake]] : [];
    model.judges.set(a, { stake: j.stake, courts, activeCases: j.activeCases, inList: w.pool.includes(a), weights });
  }
  model.treasury = w.overview.treasury;
  model.totalJudgeStake = w.overview.totalJudgeStake;
  model.agentCount = w.overview.agentCount;
  for (const a of agents) {
    const v = await c.reader.readContract({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "getAgent",
      args: [a.addr],
    });
    if (v.registered) model.registered.add(a.addr);
  }
  for (const [a, on] of w.accepting) model.accepting.set(a, on);
  checkWorld(w);
}

/**
 * Cases every sequence starts with, made by the same checked steps: Defaulted, owing the refusing
 * plaintiff R0 its stake (R0 v 1); Dismissed with its two silent judges slashed as no-shows (5 v
 * 6), which drops #7 (at the minimum stake) out of the eligible pool; Summoned (1 v 2); Active
 * (3 v 4); Deliberating with one vote or commitment (5 v refusing R0); Resolved with the appeal
 * window open (refusing R1 v 6, R1 lost); Appealed (2 v 3); and deliberating on appeal with a
 * (revealed) vote each way (4 v 1, plaintiff won round one). Votes are commit-reveal on a
 * hidden-votes court, which also starts with a case whose round waits for its last commitment to
 * be opened though two of three revealed for the defendant (6 v 2): its third reveal (either
 * way) decides it, or `resolveAfterDeadline` gives the revealed majority's verdict at the reveal
 * deadline, with the silent judge a no-show.
 */
async function prologue(): Promise<void> {
  const file = (by: number, def: number): Action => ({
    t: "file",
    by,
    def,
    claim: "ok",
    hash: "ok",
    ref: "prepaid",
    stake: P.minPartyStake + BigInt(by),
  });
  const respond: Action = { t: "respond", c: 0, who: "defendant", stake: P.minPartyStake * 2n };
  const assign: Action = { t: "assign", c: 0, by: "owner", mode: "valid", picks: [], shuffle: 7, unknown: false };
  const draw: Action = { t: "draw", c: 0, by: 15, unknown: false };
  const time = (seconds: bigint): Action => ({ t: "time", seconds: Number(seconds) + 1 });
  /**
   * The panel's first judges (in panel order) cast `votes`: publicly, or all commit first and then
   * the first `reveal` of them reveal (a panel only reveals early once all of it committed).
   */
  const cast = (votes: boolean[], reveal = votes.length): Action[] =>
    P.hiddenVotes
      ? [
          ...votes.map((v): Action => ({ t: "commit", c: 0, who: "fresh", pick: 0, plaintiffWins: v, zero: false })),
          ...votes
            .slice(0, reveal)
            .map((): Action => ({ t: "reveal", c: 0, who: "committed", pick: 0, mode: "ok", why: "short" })),
        ]
      : votes.slice(0, reveal).map((v): Action => ({ t: "vote", c: 0, who: "fresh", pick: 0, plaintiffWins: v }));
  const on = (k: number, actions: Action[]): [number, Action][] => actions.map((x) => [k, x]);
  // Case 1: #8 votes (hidden: commits, and reveals once the commit phase is over); #7 and #9 never do.
  const dismissed: Action[] = P.hiddenVotes
    ? [
        { t: "commit", c: 0, who: "panel", pick: 1, plaintiffWins: true, zero: false },
        time(P.commitPeriod),
        { t: "reveal", c: 0, who: "committed", pick: 0, mode: "ok", why: "none" },
        time(P.revealPeriod),
      ]
    : [{ t: "vote", c: 0, who: "panel", pick: 1, plaintiffWins: true }, time(P.deliberationPeriod)];
  const script: [number | null, Action][] = [
    [null, file(20, 1)],
    [null, time(P.responseWindow)],
    [0, { t: "default", c: 0, by: 9 }],
    [null, file(5, 6)],
    [1, respond],
    // Judge #7 holds exactly the minimum stake: a no-show here, it is slashed below it and stays
    // in the pool, ineligible.
    [1, { ...assign, mode: "random", picks: [7, 8, 9] }],
    ...on(1, dismissed),
    [1, { t: "resolve", c: 0, by: 9 }],
    [null, file(1, 2)],
    [null, file(3, 4)],
    [3, respond],
    [null, file(5, 20)],
    [4, respond],
    [4, assign],
    ...on(4, cast([true], P.hiddenVotes ? 0 : 1)),
    [null, file(21, 6)],
    [5, respond],
    [5, assign],
    ...on(5, cast([false, true, false])),
    [null, file(2, 3)],
    [6, respond],
    [6, draw],
    ...on(6, cast([true, false, true])),
    [6, { t: "appeal", c: 0, who: "loser", bond: "exact" }],
    [null, file(4, 1)],
    [7, respond],
    [7, draw],
    ...on(7, cast([true, true, false])),
    [7, { t: "appeal", c: 0, who: "loser", bond: "exact" }],
    [7, draw],
    ...on(7, cast([true, false, true, false, true], 2)),
    ...(P.hiddenVotes
      ? ([[null, file(6, 2)], [8, respond], [8, assign], ...on(8, cast([false, false, true], 2))] as [
          number | null,
          Action,
        ][])
      : []),
  ];
  for (const [n, [target, action]] of script.entries()) {
    setRun({ forcedCase: target === null ? undefined : model.cases[target] });
    await runStep(action, 1000 + n);
  }
  setRun({ forcedCase: undefined });
  const states = model.cases.map((k) => k.state);
  if (model.eligible(agent(7).addr) || !model.judge(agent(7).addr).inList) throw new Error("prologue: #7 not slashed");
  const want = [
    kit.State.Defaulted,
    kit.State.Dismissed,
    kit.State.Summoned,
    kit.State.Active,
    kit.State.Deliberating,
    kit.State.Resolved,
    kit.State.Appealed,
    kit.State.Deliberating,
    ...(P.hiddenVotes ? [kit.State.Deliberating] : []),
  ];
  if (model.owedTotal(model.cases[0] as CaseM) !== P.minPartyStake + 20n) throw new Error("prologue: R0 is not owed");
  if (states.join() !== want.join()) throw new Error(`prologue left states ${states}, not ${want}\n${log.join("\n")}`);
}

export async function runStep(a: Action, step: number): Promise<void> {
  coverage.actions++;
  if (a.t === "edge") {
    await runEdge(a, step);
    return;
  }
  if (a.t === "file" && a.ref === "prepaid" && !a.refHex) {
    // Two steps, as a plaintiff does it: pay the fee under a fresh reference, then file with it.
    const refHex = freshRef();
    await runStep({ t: "pay", by: a.by, ref: "fresh", amount: "exact", refHex }, step);
    await runStep({ ...a, refHex }, step);
    return;
  }
  if (a.t === "tokenFile" && a.ref === "frontrun" && !a.refHex) {
    // Someone hands the plaintiff's authorization to the token first (a facilitator that settles,
    // a front-runner who saw it), then the plaintiff files with it.
    const refHex = freshRef();
    const via = (a.by * 7 + step) % 20;
    await runStep({ t: "tokenPay", by: a.by, via, to: "factory", amount: "exact", ref: "fresh", refHex }, step);
    await runStep({ ...a, refHex }, step);
    return;
  }
  if (a.t === "time") {
    await kit.advance(c, a.seconds);
    model.now += BigInt(a.seconds);
    model.block += 1n;
    log.push(`${step}: time +${a.seconds}s`);
    bump(coverage.passed, "time");
  } else if (a.t === "mine") {
    await kit.mineBlocks(c, a.blocks);
    model.now += BigInt(a.blocks);
    model.block += BigInt(a.blocks);
    log.push(`${step}: mine ${a.blocks} blocks`);
    bump(coverage.passed, "mine");
  } else {
    const t = model.now + 1n; // one block per transaction, one second apart
    const b = model.block + 1n;
    const p = await plan(a, step, t, b);
    if (typeof p === "string") {
      coverage.skipped++;
      log.push(`${step}: ${a.t} skipped (${p})`);
      return;
    }
    const sent = await send(p.from, p.to, p.data, p.value);
    model.now = t;
    model.block = b;
    model.chargeGas(p.from.signer.address, sent.receipt.gasUsed * sent.receipt.effectiveGasPrice);
    if (sent.revert === undefined) {
      log.push(`${step}: ${p.desc} → ok`);
      if (p.expect !== null) fail(`${p.desc}: expected a refusal with ${p.expect}, but it succeeded`);
      const before = model.cases.map((k) => stateName(k));
      p.onSuccess?.(sent.receipt);
      for (const [n, k] of model.cases.entries()) {
        const now = stateName(k);
        if (before[n] !== undefined && before[n] !== now) bump(coverage.transitions, `${before[n]}>${now}`);
      }
      countEvents(sent.receipt);
      bump(coverage.passed, a.t);
      if (sent.receipt.gasUsed > coverage.maxGas) {
        coverage.maxGas = sent.receipt.gasUsed;
        coverage.maxGasWhat = p.desc;
      }
    } else {
      const name = revertName(sent.revert);
      log.push(`${step}: ${p.desc} → ${name}`);
      if (p.expect === null) fail(`${p.desc}: expected success, but it reverted with ${name}`);
      if (name !== p.expect) fail(`${p.desc}: expected ${p.expect}, but it reverted with ${name}`);
      bump(coverage.refused, `${a.t}:${name}`);
    }
  }
  checkWorld(await readWorld());
}

/**
 * Moves time so that the next transaction runs exactly `d` seconds after the deadline that matters
 * for the case now (0 is the last second allowed, 1 the first refused), then takes the action that
 * deadline guards, on that case.
 */
async function runEdge(a: Extract<Action, { t: "edge" }>, step: number): Promise<void> {
  const k = pickCase(a.c);
  if (!k) {
    coverage.skipped++;
    log.push(`${step}: edge skipped (no case)`);
    return;
  }
  let deadline: bigint;
  let follow: Action;
  const c0 = 0;
  switch (k.state) {
    case kit.State.Summoned:
      deadline = k.responseDeadline;
      follow = a.alt
        ? { t: "default", c: c0, by: a.pick }
        : { t: "respond", c: c0, who: "defendant", stake: P.minPartyStake };
      break;
    case kit.State.Active:
    case kit.State.Appealed:
      if (!a.alt && a.pick % 2 === 0) {
        // The entropy's edge instead: the draw lands in the last block whose hash of the arming
        // block is readable (d = 0, it seats) or after it (d >= 1, it expired and re-arms).
        const blocks = k.drawTicket + BLOCKHASH_WINDOW + BigInt(a.d) - 1n - model.block;
        if (blocks >= 1n) await runStep({ t: "mine", blocks: Number(blocks) }, step);
        setRun({ forcedCase: k });
        try {
          await runStep({ t: "draw", c: c0, by: a.pick, unknown: false }, step);
        } finally {
          setRun({ forcedCase: undefined });
        }
        return;
      }
      deadline = k.deliberationDeadline;
      follow = a.alt ? { t: "resolve", c: c0, by: a.pick } : { t: "draw", c: c0, by: a.pick, unknown: false };
      break;
    case kit.State.Deliberating:
      if (P.hiddenVotes) {
        // The commit deadline guards commits and (unless all committed) the opening of reveals;
        // the reveal deadline guards reveals and the dismissal.
        const reveal: Action = { t: "reveal", c: c0, who: "committed", pick: a.pick, mode: "ok", why: "short" };
        const commit: Action = {
          t: "commit",
          c: c0,
          who: "fresh",
          pick: a.pick,
          plaintiffWins: a.plaintiffWins,
          zero: false,
        };
        const first = a.pick % 2 === 0;
        deadline = a.alt ? k.revealDeadline : k.commitDeadline;
        follow = a.alt ? (first ? { t: "resolve", c: c0, by: a.pick } : reveal) : first ? commit : reveal;
      } else {
        deadline = k.deliberationDeadline;
        follow = a.alt
          ? { t: "resolve", c: c0, by: a.pick }
          : { t: "vote", c: c0, who: "fresh", pick: a.pick, plaintiffWins: a.plaintiffWins };
      }
      break;
    case kit.State.Resolved:
      deadline = k.appealDeadline;
      follow = a.alt ? { t: "settle", c: c0, by: a.pick } : { t: "appeal", c: c0, who: "loser", bond: "exact" };
      break;
    default:
      deadline = k.resolvedAt;
      follow = { t: "withdraw", c: c0, who: "party", pick: a.pick % 2 };
  }
  // The next transaction is mined one second after the latest block.
  const seconds = deadline + BigInt(a.d) - 1n - model.now;
  if (seconds >= 1n) await runStep({ t: "time", seconds: Number(seconds) }, step);
  setRun({ forcedCase: k });
  try {
    await runStep(follow, step);
  } finally {
    setRun({ forcedCase: undefined });
  }
}

/** Payout and deferral events, per case, from a successful transaction. */
function countEvents(r: TransactionReceipt): void {
  const events = parseEventLogs({ abi: kit.disputeCaseAbi, logs: r.logs, strict: false });
  for (const ev of events) {
    const k = model.byAddr(getAddress(ev.address));
    if (!k) continue;
    if (ev.eventName === "Settled" || ev.eventName === "Defaulted" || ev.eventName === "Dismissed") {
      k.payoutEvents++;
      if (k.payoutEvents > 1) fail(`${tag(k.addr)} paid out twice (${ev.eventName})`);
    }
    if (ev.eventName === "PaymentDeferred") {
      model.deferredEvents++;
      coverage.deferred++;
    }
  }
}

// ------------------------------------------------------------------- setup

/** Boots a court with terms `params` and builds the world and the snapshot every sequence starts from. */
export async function setup(params: CourtParams): Promise<void> {
  setRun({ P: params, model: undefined });
  nonces.clear();
  resetRefs();
  coverage.sequences = 0;
  coverage.maxCases = 0;
  const refuser = compileRefuser();
  setRun({ c: await kit.bootCourt(params) });
  const implementation = await c.reader.readContract({
    address: c.factory,
    abi: kit.caseFactoryAbi,
    functionName: "implementation",
  });
  // The first 20 dev accounts act; the refusers take agent indices 20 and 21 (the dev chain's
  // accounts 20 and 21, the seeded jobs' parties, stay out of the fuzz).
  const eoas: Agent[] = c.devnet.accounts.slice(0, AGENTS - REFUSER_OPERATORS.length).map((a) => ({
    i: a.index,
    addr: a.address,
    signer: a.account,
    refuser: false,
  }));
  const refusers: Agent[] = [];
  for (const [n, op] of REFUSER_OPERATORS.entries()) {
    const operator = kit.actor(c, op);
    const hash = await operator.wallet.deployContract({ abi: refuser.abi, bytecode: refuser.bytecode, args: [] });
    const r = await operator.mined(hash);
    refusers.push({
      i: 20 + n,
      addr: getAddress(r.contractAddress as Address),
      signer: c.devnet.accounts[op]?.account as HDAccount,
      refuser: true,
    });
  }
  setRun({ implementation, agents: [...eoas, ...refusers] });
  if (agents.length !== AGENTS) throw new Error(`expected ${AGENTS} agents, got ${agents.length}`);

  // The world every sequence starts from: eleven staked judges (two at or near the minimum, so one
  // slash drops them out of the pool), a refusing judge and three registered agents. Both refusing
  // parties start out refusing ETH.
  const stakeAs = (a: Actor, value: bigint) =>
    a.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "stakeAsJudge", args: [0n], value });
  const stakes = [P.minJudgeStake, P.minJudgeStake + 1n, parseEther("0.2"), parseEther("0.3")];
  for (let i = 7; i <= 17; i++) await stakeAs(kit.actor(c, i), stakes[i - 7] ?? parseEther("1"));
  const r0 = refusers[0] as Agent;
  await kit.actor(c, REFUSER_OPERATORS[0]).write({
    address: r0.addr,
    abi: refuserAbi,
    functionName: "exec",
    args: [c.registry, encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "stakeAsJudge", args: [0n] })],
    value: P.minJudgeStake,
  });
  for (const i of [1, 2, 3]) {
    await kit.actor(c, i).write({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "selfRegister",
      args: [`party-${i}`, ""],
    });
  }
  // Four token fees for every account but the owner's (the fee recipient): a busy payer runs out.
  const tokenFee = await c.reader.readContract({
    address: c.factory,
    abi: kit.caseFactoryAbi,
    functionName: "tokenFilingFee",
  });
  for (const a of eoas.slice(1))
    await c.owner.write({
      address: c.feeToken,
      abi: kit.testUSDAbi,
      functionName: "mint",
      args: [a.addr, 4n * tokenFee],
    });
  for (const a of eoas) nonces.set(a.addr, await c.reader.getTransactionCount({ address: a.addr }));
  await modelFromChain();
  await prologue();
  snapshotId = await rpc("evm_snapshot");
  baseNonces = new Map(nonces);
  modelAtSnapshot = model.clone();
  resetCoverage();
}
