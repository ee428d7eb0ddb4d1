/**
 * Invariants under random use: fast-check generates sequences of lifecycle actions by random
 * actors (most of them wrong in some way), drives them against the real contracts on one dev
 * chain (reverted to a snapshot before each sequence), and after every step checks the chain
 * against an independent model (court-model.ts) and against itself:
 *
 * - a refused action reverts with the named error the model expects, never a Panic or empty data;
 *   an action the model expects to pass passes;
 * - every tracked balance is what the model says, to the wei, gas included; the total of all of
 *   them is conserved up to the gas spent;
 * - a case holds plaintiffStake + defendantStake + appealBondPaid until it pays out, and exactly
 *   its `owed` payments after; it emits one payout event (Settled, Defaulted or Dismissed) once;
 * - the registry holds totalJudgeStake + treasury, and totalJudgeStake is the sum of the stakes;
 * - getStats counts by state match the states read from every case, and getOpenCases lists
 *   exactly the cases that can still change; so does getCaseStatuses, and each agent's index of
 *   involved cases (getInvolvedCases) is exactly the open cases it is a party to or judged in;
 *   each case's getStatus agrees with its getCase, says who may appeal and where its draw stands;
 * - every judge's draw weight (registry.weightAt) is its stake while eligible, else 0, and stake,
 *   activeCases, eligibility and the pool match the model: slashes and rewards land when the
 *   outcome is final (settle, the appeal verdict, dismissal, a hidden-vote verdict at the reveal deadline), for every round's judges;
 * - a draw runs only once its entropy exists (DrawNotReady before), re-arms when it expired (257
 *   blocks on), and the panel it seats (read back: sampling is the contract's) has the right
 *   size, no party, no duplicate, no round-one judge on appeal, and only judges eligible now
 *   who had weight in the block that armed it; refused with NotEnoughJudges exactly when fewer
 *   such judges exist;
 * - filing fees go to the fee recipient, and fileCase wants one paid by its caller, unused;
 * - token fees (EIP-3009 authorizations submitted by fileCaseWithAuthorization itself): every
 *   tracked token balance is the model's after every step; the fee recipient holds exactly the token
 *   fees of the cases filed with one; the factory holds no token but what reached it outside a
 *   filing (an authorization to it submitted to the token first), until the owner refunds it; a
 *   filing takes only the caller's own authorization to the factory, of at least the token fee,
 *   inside its window, once (reused, front-run, below the fee, expired, premature, another's: each
 *   refused by name); each reference files at most one case, whichever way it was paid
 *   (paymentRefUsedBy read back for every paid reference). Token fees are drawn on the public court
 *   (its fee path does not depend on the kind of vote); both courts check them;
 * - hidden votes: commitments, reveals (with their reasons) and the counts of each round are as
 *   modelled, and a view never shows a vote before it is revealed; a round is decided only once
 *   every commitment is opened, or at the reveal deadline by a majority of the panel among the
 *   revealed votes; whoever did not reveal is a no-show at the final outcome.
 *
 * It runs twice: on a court with public votes and on one with hidden votes (the dev terms).
 *
 * Every sequence starts from the same snapshot: staked judges (one in the pool below the minimum),
 * two refusing contracts as parties (payments to them are deferred to `owed`), and a case in each
 * state, made by a prologue that ran through the same checked steps. Actions pick a case where
 * they can apply three times in four; `edge` actions jump to exactly a deadline (or one second
 * past it) and act on it. Refused transactions are mined too (fixed gas, no estimate), so their
 * gas counts, and their revert data comes from a trace of the mined transaction.
 *
 * INVARIANT_SEED, INVARIANT_RUNS (per court), INVARIANT_MAX_ACTIONS, INVARIANT_LOG=1 (print every
 * sequence's steps) and INVARIANT_SHRINK=1 (shrink a failure instead of stopping at it) override
 * the defaults. A failure prints the seed, fast-check's path
 * and the last steps. Which judges a random draw seats depends on chain entropy (block hashes,
 * which include wall-clock timestamps), so a replay of the seed may seat other judges.
 */

import fc from "fast-check";
import {
  type Abi,
  type Address,
  type ContractFunctionParameters,
  decodeErrorResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  parseSignature,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  toHex,
} from "viem";
import type { HDAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multicall3Abi } from "../../src/chain/abi/generated.js";
import { MULTICALL3_ADDRESS } from "../../src/chain/client.js";
import { voteCommitment } from "../../src/chain/votes.js";
import type { Actor } from "../../src/devnet/actor.js";
import { type CourtParams, caseTerms } from "../../src/devnet/terms.js";
import { BLOCKHASH_WINDOW, type CaseM, CourtModel } from "./court-model.js";
import {
  actor,
  advance,
  bootCourt,
  type Court,
  caseFactoryAbi,
  courtRegistryAbi,
  disputeCaseAbi,
  HP,
  mineBlocks,
  P as PUBLIC,
  State,
  saltOf,
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  type TransferAuthorization,
  testUSDAbi,
} from "./helpers.js";
import { type Action, AGENTS, actionArb, REFUSER_OPERATORS, type Variant } from "./invariant-actions.js";
import { checkStatusViews, type StatusWorld, statusCalls } from "./invariant-status.js";
import { compileRefuser, refuserAbi } from "./refuser.js";

const SEED = Number(process.env.INVARIANT_SEED ?? 72_024);
const RUNS = Number(process.env.INVARIANT_RUNS ?? 18);
const MIN_ACTIONS = 20;
const MAX_ACTIONS = Number(process.env.INVARIANT_MAX_ACTIONS ?? 40);
/**
 * Every transaction gets this much gas (refusals are mined too, so no estimate). A final verdict on
 * appeal scores eight judges and credits rewards, each a write to the sortition tree's
 * checkpoints: the heaviest transaction, printed with the coverage. Far below anvil's block limit.
 */
const GAS_LIMIT = 12_000_000n;
const MAX_FEE = parseEther("0.00000005"); // 50 gwei, far above the dev chain's base fee

// ------------------------------------------------------------------ agents

interface Agent {
  i: number;
  addr: Address;
  /** The key that signs: the account itself, or a refusing contract's operator. */
  signer: HDAccount;
  refuser: boolean;
}

/** The terms of the court the current describe runs on. */
let P: CourtParams = PUBLIC;
let c: Court;
let agents: Agent[] = [];
let implementation: Address;
let snapshotId: Hex;
let baseNonces = new Map<Address, number>();
const nonces = new Map<Address, number>();
// biome-ignore lint/suspicious/noExplicitAny: anvil methods are not in viem's public schema
const rpc = (method: string, params: unknown[] = []): Promise<any> => (c.reader.request as any)({ method, params });

const agent = (i: number): Agent => agents[((i % AGENTS) + AGENTS) % AGENTS] as Agent;
const tag = (a: Address): string => {
  const found = agents.find((x) => x.addr === a);
  if (found) return found.refuser ? `R${found.i - 20}` : `#${found.i}`;
  return a.slice(0, 8);
};

// ------------------------------------------------------------ bookkeeping

/** What the runs covered, printed at the end. */
const coverage = {
  sequences: 0,
  actions: 0,
  passed: new Map<string, number>(),
  refused: new Map<string, number>(),
  skipped: 0,
  reached: new Set<string>(),
  transitions: new Map<string, number>(),
  deferred: 0,
  maxCases: 0,
  /** The most gas a successful transaction used, and what it was. */
  maxGas: 0n,
  maxGasWhat: "",
};
function resetCoverage(): void {
  coverage.actions = 0;
  coverage.passed.clear();
  coverage.refused.clear();
  coverage.skipped = 0;
  coverage.reached.clear();
  coverage.transitions.clear();
  coverage.deferred = 0;
  coverage.maxGas = 0n;
  coverage.maxGasWhat = "";
}
const stateName = (k: CaseM) =>
  `${Object.keys(State)[k.state]}${k.settled ? "+paid" : ""}${k.round === 2 ? "(r2)" : ""}`;
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

class InvariantError extends Error {}

let log: string[] = [];
function fail(msg: string): never {
  throw new InvariantError(`${msg}\n  last steps:\n    ${log.slice(-20).join("\n    ")}`);
}
function same(got: unknown, want: unknown, what: string): void {
  if (got !== want) fail(`${what}: chain has ${String(got)}, expected ${String(want)}`);
}

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

const knownErrors = [...courtRegistryAbi, ...caseFactoryAbi, ...disputeCaseAbi, ...testUSDAbi].filter(
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

// ----------------------------------------------------------------- planning

interface Plan {
  desc: string;
  from: Agent;
  to: Address;
  data: Hex;
  value: bigint;
  /** The refusal the model expects at chain time `t`, or null for success. */
  expect: string | null;
  onSuccess?: (r: TransactionReceipt) => void;
}

let model: CourtModel;
/** The model as it was when the chain snapshot was taken. */
let modelAtSnapshot: CourtModel;
/** Set by the prologue and by edge actions to aim the next action at one case. */
let forcedCase: CaseM | undefined;
let refCounter = 0;
const freshRef = (): Hex => keccak256(toHex(`invariant-ref-${++refCounter}`));

/**
 * The case an action targets: three times in four one where it can apply (when there is one),
 * otherwise any case, so that refusals of every kind keep coming too.
 */
function pickCase(idx: number, fits: (k: CaseM) => boolean = (k) => model.isOpen(k)): CaseM | undefined {
  if (forcedCase) return forcedCase;
  const fitting = model.cases.filter(fits);
  if (fitting.length > 0 && idx % 4 !== 0) return fitting[(idx >> 2) % fitting.length];
  if (model.cases.length === 0) return undefined;
  return model.cases[idx % model.cases.length];
}
const inState =
  (...states: number[]) =>
  (k: CaseM) =>
    states.includes(k.state);

const claimOf = (v: Variant, n: number) =>
  v === "ok" ? `Claim ${n}: goods not delivered` : v === "empty" ? "" : "c".repeat(2001);
const hashOf = (v: Variant, n: number) => (v === "ok" ? `bafy-${n}` : v === "empty" ? "" : "h".repeat(129));
const caseCall = (functionName: string, args: readonly unknown[] = []) =>
  encodeFunctionData({ abi: disputeCaseAbi as Abi, functionName, args });

function agentOf(a: Address): Agent {
  const found = agents.find((x) => x.addr === a);
  if (!found) fail(`no agent for ${a}`);
  return found;
}

const ZERO_REF: Hex = `0x${"0".repeat(64)}`;
const ZERO_ADDR: Address = `0x${"0".repeat(40)}`;

/** Every `${ref}:${payer}` a fee was paid under, in ETH or in the token (to the factory or not). */
const paidKeys = (): Set<string> => new Set([...model.feesPaid.keys(), ...model.tokenAuths.keys()]);
const isPaid = (key: string) => model.feesPaid.has(key) || model.tokenAuths.has(key);

/** References `by` paid a fee under (either way), unused (`used` false) or used; or those only others paid. */
function refsOf(by: Address, which: "unused" | "used" | "others"): Hex[] {
  const out: Hex[] = [];
  for (const key of paidKeys()) {
    const [ref, payer] = key.split(":") as [Hex, Address];
    if (which === "others") {
      if (payer !== by && !isPaid(`${ref}:${by}`)) out.push(ref);
    } else if (payer === by && model.usedRefs.has(key) === (which === "used")) out.push(ref);
  }
  return out;
}

/** `signer` signs an EIP-3009 transfer authorization in TestUSD's EIP-712 domain. */
function signAuthorization(signer: Agent["signer"], auth: TransferAuthorization): Promise<Hex> {
  return signer.signTypedData({
    domain: { name: "Docket Test USD", version: "1", chainId: c.devnet.chainId, verifyingContract: c.feeToken },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message: auth,
  });
}

/**
 * The token nonce a fee action pays under: fresh (or the one the action names), one `from` paid in
 * ETH, or one it used in the token.
 */
function tokenNonce(from: Address, ref: "fresh" | "native" | "again" | "frontrun", fresh: Hex): Hex {
  const own = (m: Map<string, unknown>) =>
    [...m.keys()].filter((k) => k.endsWith(`:${from}`)).map((k) => k.split(":")[0] as Hex);
  if (ref === "native") return own(model.feesPaid)[0] ?? fresh;
  if (ref === "again") return own(model.tokenAuths)[0] ?? fresh;
  return fresh;
}

const tokenValue = (amount: "exact" | "more" | "less") =>
  ({ exact: model.tokenFee, more: model.tokenFee + 1n, less: model.tokenFee - 1n })[amount];

/**
 * An authorization submitted to the token directly, outside a filing: `by`'s key signs an EIP-3009
 * authorization (dated by chain time) and `via` submits it to the token, as a facilitator that
 * settles first, or a front-runner, does. A refusing contract cannot sign, so its operator's key pays
 * for it: its nonce is then someone else's to the contract.
 */
async function planTokenPay(a: Extract<Action, { t: "tokenPay" }>): Promise<Plan> {
  const signer = agent(a.by).signer;
  const from = signer.address;
  const via = agent(a.via);
  const nonce = tokenNonce(from, a.ref, a.refHex ?? freshRef());
  const to = a.to === "factory" ? c.factory : c.registry;
  const value = tokenValue(a.amount);
  const auth = { from, to, value, validAfter: model.now - 600n, validBefore: model.now + 3600n, nonce };
  const { r, s, v, yParity } = parseSignature(await signAuthorization(signer, auth));
  const args = [from, to, value, auth.validAfter, auth.validBefore, nonce, Number(v ?? BigInt(yParity + 27)), r, s];
  return {
    desc: `tokenPay ${tag(from)} via ${tag(via.addr)} to ${a.to} ${a.amount} ref=${a.ref}`,
    from: via,
    to: c.feeToken,
    data: encodeFunctionData({ abi: testUSDAbi, functionName: "transferWithAuthorization", args } as never),
    value: 0n,
    expect: model.expectTokenPay(from, nonce, value),
    onSuccess: () => model.tokenPay(from, to, nonce, value),
  };
}

/**
 * fileCaseWithAuthorization: `by` files, the fee paid with an authorization signed by its own key
 * (or another's), as the x402 "exact" client signs it; the factory submits it to the token.
 */
async function planTokenFile(a: Extract<Action, { t: "tokenFile" }>, step: number, t: bigint): Promise<Plan> {
  const by = agent(a.by);
  const def = agent(a.def);
  const signer = a.signer === "self" ? by.signer : agent(a.signer).signer;
  const nonce = tokenNonce(by.addr, a.ref, a.refHex ?? freshRef());
  const to = a.to === "factory" ? c.factory : c.registry;
  const value = tokenValue(a.amount);
  const window = {
    ok: { validAfter: model.now - 600n, validBefore: model.now + 3600n },
    expired: { validAfter: model.now - 600n, validBefore: model.now },
    early: { validAfter: model.now + 3600n, validBefore: model.now + 7200n },
  }[a.window];
  const auth = { from: signer.address, to, value, ...window, nonce };
  const signature = await signAuthorization(signer, auth);
  const claim = claimOf(a.claim, step);
  const hash = hashOf("ok", step);
  const fee = { value, ...window, nonce, signature };
  return {
    desc: `tokenFile ${tag(by.addr)} v ${tag(def.addr)} signer=${a.signer} to ${a.to} ${a.amount} ${a.window} ref=${a.ref} stake ${a.stake}`,
    from: by,
    to: c.factory,
    data: encodeFunctionData({
      abi: caseFactoryAbi,
      functionName: "fileCaseWithAuthorization",
      args: [0n, def.addr, claim, hash, fee],
    }),
    value: a.stake,
    expect: model.expectTokenFile(
      by.addr,
      { defendant: def.addr, claim, hash, stake: a.stake },
      { signer: signer.address, to, value, ...window, nonce },
      t,
    ),
    onSuccess: (r) => {
      const [ev] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: r.logs });
      if (!ev) fail("fileCaseWithAuthorization emitted no CaseFiled");
      model.tokenFile(getAddress(ev.args.caseAddr), by.addr, by.signer.address, def.addr, nonce, value, a.stake, t);
    },
  };
}

/** refundToken: the factory's oldest stray tokens (or one unit more than it holds) back to their payer. */
function planRefund(a: Extract<Action, { t: "refund" }>): Plan {
  const by = a.by === "owner" ? agent(0) : agent(a.by);
  const first = model.strays[0];
  const to = first?.payer ?? by.addr;
  const value = (first?.value ?? 0n) + (a.amount === "more" ? model.tokenFeesHeld() + 1n : 0n);
  return {
    desc: `refundToken by ${tag(by.addr)} ${value} to ${tag(to)}`,
    from: by,
    to: c.factory,
    data: encodeFunctionData({ abi: caseFactoryAbi, functionName: "refundToken", args: [c.feeToken, to, value] }),
    value: 0n,
    expect: model.expectRefund(by.addr, value),
    onSuccess: () => model.refund(to, value),
  };
}

function planPay(a: Extract<Action, { t: "pay" }>): Plan {
  const by = agent(a.by);
  let ref: Hex = a.refHex ?? freshRef();
  if (a.ref === "zero") ref = ZERO_REF;
  else if (a.ref === "again") ref = [...refsOf(by.addr, "unused"), ...refsOf(by.addr, "used")][0] ?? ref;
  const value = { exact: P.filingFee, more: P.filingFee + 1n, less: P.filingFee - 1n, zero: 0n }[a.amount];
  return {
    desc: `payFilingFee ${tag(by.addr)} ref=${a.ref} ${a.amount}`,
    from: by,
    to: c.factory,
    data: encodeFunctionData({ abi: caseFactoryAbi, functionName: "payFilingFee", args: [ref] }),
    value,
    expect: model.expectPayFee(by.addr, ref, value),
    onSuccess: () => model.payFee(by.addr, by.signer.address, ref, value),
  };
}

function planFile(a: Extract<Action, { t: "file" }>, step: number, t: bigint): Plan {
  const by = agent(a.by);
  const def = agent(a.def);
  const claim = claimOf(a.claim, step);
  const hash = hashOf(a.hash, step);
  let ref: Hex = a.refHex ?? freshRef();
  if (a.ref === "zero") ref = ZERO_REF;
  else if (a.ref === "paid" && !a.refHex) ref = refsOf(by.addr, "unused")[0] ?? ref;
  else if (a.ref === "reuse") ref = refsOf(by.addr, "used")[0] ?? ref;
  else if (a.ref === "other") ref = refsOf(by.addr, "others")[0] ?? ref;
  return {
    desc: `file ${tag(by.addr)} v ${tag(def.addr)} stake ${a.stake} claim=${a.claim} hash=${a.hash} ref=${a.ref}`,
    from: by,
    to: c.factory,
    data: encodeFunctionData({ abi: caseFactoryAbi, functionName: "fileCase", args: [0n, def.addr, claim, hash, ref] }),
    value: a.stake,
    expect: model.expectFile(by.addr, def.addr, claim, hash, ref, a.stake),
    onSuccess: (r) => {
      const [ev] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: r.logs });
      if (!ev) fail("fileCase emitted no CaseFiled");
      model.file(getAddress(ev.args.caseAddr), by.addr, by.signer.address, def.addr, ref, a.stake, t);
    },
  };
}

/** The judge a commit or reveal is sent by: from the panel as the action says, or anyone. */
function hiddenVoter(k: CaseM, who: "fresh" | "panel" | "copy" | "committed" | number, pick: number): Agent {
  const panel = model.panel(k);
  const commits = model.commitsOf(k);
  const pool =
    who === "fresh" || who === "copy"
      ? panel.filter((j) => !commits.has(j))
      : who === "committed"
        ? panel.filter((j) => commits.has(j) && !model.votesOf(k).has(j))
        : panel;
  if (typeof who === "number" || pool.length === 0) return agent(typeof who === "number" ? who : pick);
  return agentOf(pool[pick % pool.length] as Address);
}

function planCommit(a: Extract<Action, { t: "commit" }>, t: bigint): Plan | string {
  const k = pickCase(a.c, inState(State.Deliberating));
  if (!k) return "no case";
  const who = hiddenVoter(k, a.who, a.pick);
  const salt = saltOf(k.addr, who.addr, k.round);
  const honest = voteCommitment({
    caseAddress: k.addr,
    judge: who.addr,
    round: k.round,
    plaintiffWins: a.plaintiffWins,
    salt,
  });
  // A copy: another judge's commitment, sent as this judge's own; it can never be revealed.
  const copied =
    a.who === "copy" ? [...model.commitsOf(k).values()][a.pick % Math.max(1, model.commitsOf(k).size)] : undefined;
  const commitment: Hex = a.zero ? ZERO_REF : (copied?.commitment ?? honest);
  return {
    desc: `commit ${tag(k.addr)} round ${k.round} by ${tag(who.addr)}${a.zero ? " zero" : copied ? " copied" : ` for ${a.plaintiffWins ? "plaintiff" : "defendant"}`}`,
    from: who,
    to: k.addr,
    data: caseCall("commitVote", [commitment]),
    value: 0n,
    expect: model.expectCommit(k, who.addr, commitment, t),
    onSuccess: () =>
      model.commit(k, who.addr, copied ? { commitment } : { commitment, plaintiffWins: a.plaintiffWins, salt }),
  };
}

function planReveal(a: Extract<Action, { t: "reveal" }>, step: number, t: bigint): Plan | string {
  const k = pickCase(a.c, inState(State.Deliberating));
  if (!k) return "no case";
  const who = hiddenVoter(k, a.who, a.pick);
  const committed = model.commitsOf(k).get(who.addr);
  const own = saltOf(k.addr, who.addr, k.round);
  // What was committed (a copier reveals as if it had made the copied commitment honestly).
  let plaintiffWins = committed?.plaintiffWins ?? a.pick % 2 === 0;
  let salt = committed?.salt ?? own;
  if (a.mode === "flip") plaintiffWins = !plaintiffWins;
  if (a.mode === "salt") salt = keccak256(salt);
  const why = { none: "", short: `Reasons ${step}: the record shows it.`, max: "é".repeat(256), long: "x".repeat(513) }[
    a.why
  ];
  const bytes = new TextEncoder().encode(why).length;
  const matches =
    committed !== undefined &&
    voteCommitment({ caseAddress: k.addr, judge: who.addr, round: k.round, plaintiffWins, salt }) ===
      committed.commitment;
  return {
    desc: `reveal ${tag(k.addr)} round ${k.round} by ${tag(who.addr)} mode=${a.mode} why=${a.why}`,
    from: who,
    to: k.addr,
    data: caseCall("revealVote", [plaintiffWins, salt, why]),
    value: 0n,
    expect: model.expectReveal(k, who.addr, bytes, matches, t),
    onSuccess: () => model.reveal(k, who.addr, plaintiffWins, why, t),
  };
}

/** The plan for action `a`, whose transaction will be mined at time `t` in block `b`. */
function plan(a: Action, step: number, t: bigint, b: bigint): Plan | string | Promise<Plan> {
  switch (a.t) {
    case "file":
      return planFile(a, step, t);
    case "pay":
      return planPay(a);
    case "tokenPay":
      return planTokenPay(a);
    case "tokenFile":
      return planTokenFile(a, step, t);
    case "refund":
      return planRefund(a);
    case "commit":
      return planCommit(a, t);
    case "reveal":
      return planReveal(a, step, t);
    case "respond": {
      const k = pickCase(a.c, inState(State.Summoned));
      if (!k) return "no case";
      const who = a.who === "defendant" ? agentOf(k.defendant) : agent(a.who);
      return {
        desc: `respond ${tag(k.addr)} by ${tag(who.addr)} stake ${a.stake}`,
        from: who,
        to: k.addr,
        data: caseCall("respond"),
        value: a.stake,
        expect: model.expectRespond(k, who.addr, a.stake, t),
        onSuccess: (r) => {
          same(r.blockNumber, b, "block of the answer");
          model.respond(k, who.signer.address, a.stake, t, b);
        },
      };
    }
    case "evidence": {
      const k = pickCase(a.c, inState(State.Active, State.Deliberating));
      if (!k) return "no case";
      const who =
        a.who === "plaintiff" ? agentOf(k.plaintiff) : a.who === "defendant" ? agentOf(k.defendant) : agent(a.who);
      const hash = hashOf(a.hash, step);
      return {
        desc: `evidence ${tag(k.addr)} by ${tag(who.addr)} hash=${a.hash}`,
        from: who,
        to: k.addr,
        data: caseCall("submitEvidence", [hash]),
        value: 0n,
        expect: model.expectEvidence(k, who.addr, hash),
        onSuccess: () => model.evidenceAdded(k, who.addr),
      };
    }
    case "draw": {
      const by = agent(a.by);
      const k = pickCase(a.c, inState(State.Active, State.Appealed));
      if (!k || a.unknown) {
        const target = agent(a.c).addr;
        return {
          desc: `draw for non-case ${tag(target)} by ${tag(by.addr)}`,
          from: by,
          to: c.factory,
          data: encodeFunctionData({ abi: caseFactoryAbi, functionName: "assignJudgesRandom", args: [target] }),
          value: 0n,
          expect: "UnknownCase",
        };
      }
      const outcome = model.expectDraw(k, t, b);
      // Who may be seated, fixed before the transaction: weight at the arming block, eligible now.
      const pool = new Set(model.drawPool(k));
      const excluded = model.excluded(k);
      return {
        desc: `draw ${tag(k.addr)} round ${k.round} by ${tag(by.addr)} (armed at ${k.drawTicket}, now ${b})`,
        from: by,
        to: c.factory,
        data: encodeFunctionData({ abi: caseFactoryAbi, functionName: "assignJudgesRandom", args: [k.addr] }),
        value: 0n,
        expect: outcome === "seat" || outcome === "rearm" ? null : outcome,
        onSuccess: (r) => {
          const armed = parseEventLogs({ abi: disputeCaseAbi, eventName: "DrawArmed", logs: r.logs });
          const [ev] = parseEventLogs({ abi: disputeCaseAbi, eventName: "JudgesAssigned", logs: r.logs });
          if (outcome === "rearm") {
            if (ev) fail(`an expired draw seated judges (armed at ${k.drawTicket}, run at ${b})`);
            same(armed.length, 1, "DrawArmed events of an expired draw");
            same(armed[0]?.args.ticket, b, "new ticket");
            model.rearm(k, b);
            bump(coverage.passed, "draw:rearm");
            return;
          }
          if (!ev || armed.length > 0) fail("a ready draw must seat judges and arm nothing");
          const drawn = ev.args.judges.map((j) => getAddress(j));
          same(drawn.length, model.panelSize(k), "judges drawn");
          same(new Set(drawn).size, drawn.length, "distinct judges drawn");
          for (const j of drawn) {
            if (excluded.includes(j)) fail(`drew ${tag(j)}, a party or a round-1 judge`);
            if (!pool.has(j)) fail(`drew ${tag(j)}, ineligible now or without weight at block ${k.drawPoolBlock}`);
          }
          model.seat(k, drawn, t);
        },
      };
    }
    case "assign": {
      const by = a.by === "owner" ? agent(0) : agent(a.by);
      const k = pickCase(a.c, inState(State.Active, State.Appealed));
      if (!k || a.unknown) {
        const target = agent(a.c).addr;
        const judges = a.picks.map((p) => agent(p).addr);
        return {
          desc: `assign for non-case ${tag(target)} by ${tag(by.addr)}`,
          from: by,
          to: c.factory,
          data: encodeFunctionData({ abi: caseFactoryAbi, functionName: "assignJudges", args: [target, judges] }),
          value: 0n,
          expect: by.addr === model.owner ? "UnknownCase" : "OnlyOwner",
        };
      }
      let judges: Address[];
      if (a.mode === "valid") {
        const pool = model.drawable(k);
        // A deterministic shuffle of the valid candidates, padded with random picks when too few.
        pool.sort((x, y) =>
          BigInt(keccak256(`${x}${a.shuffle}` as Hex)) < BigInt(keccak256(`${y}${a.shuffle}` as Hex)) ? -1 : 1,
        );
        judges = pool.slice(0, model.panelSize(k));
        for (const p of a.picks) if (judges.length < model.panelSize(k)) judges.push(agent(p).addr);
      } else {
        judges = a.picks.map((p) => agent(p).addr);
      }
      return {
        desc: `assign ${tag(k.addr)} round ${k.round} by ${tag(by.addr)} [${judges.map(tag).join(" ")}]`,
        from: by,
        to: c.factory,
        data: encodeFunctionData({ abi: caseFactoryAbi, functionName: "assignJudges", args: [k.addr, judges] }),
        value: 0n,
        expect: model.expectAssign(k, by.addr, judges, t),
        onSuccess: () => model.seat(k, judges, t),
      };
    }
    case "vote": {
      const k = pickCase(a.c, inState(State.Deliberating));
      if (!k) return "no case";
      // "panel": any judge of the current panel; "fresh": one who has not voted yet.
      const panel = model.panel(k).filter((j) => a.who !== "fresh" || !model.votesOf(k).has(j));
      const who =
        typeof a.who === "number" || panel.length === 0
          ? agent(typeof a.who === "number" ? a.who : a.pick)
          : agentOf(panel[a.pick % panel.length] as Address);
      return {
        desc: `vote ${tag(k.addr)} round ${k.round} by ${tag(who.addr)} for ${a.plaintiffWins ? "plaintiff" : "defendant"}`,
        from: who,
        to: k.addr,
        data: caseCall("vote", [a.plaintiffWins]),
        value: 0n,
        expect: model.expectVote(k, who.addr, t),
        onSuccess: () => model.vote(k, who.addr, a.plaintiffWins, t),
      };
    }
    case "appeal": {
      const k = pickCase(a.c, inState(State.Resolved));
      if (!k) return "no case";
      const loser = k.firstRoundLoser ?? k.plaintiff;
      const winner = loser === k.plaintiff ? k.defendant : k.plaintiff;
      const who = a.who === "loser" ? agentOf(loser) : a.who === "winner" ? agentOf(winner) : agent(a.who);
      const value = { exact: P.appealBond, less: P.appealBond - 1n, more: P.appealBond + 1n, zero: 0n }[a.bond];
      return {
        desc: `appeal ${tag(k.addr)} by ${tag(who.addr)} bond ${a.bond}`,
        from: who,
        to: k.addr,
        data: caseCall("appeal"),
        value,
        expect: model.expectAppeal(k, who.addr, value, t),
        onSuccess: () => model.appeal(k, who.addr, who.signer.address, value, t, b),
      };
    }
    case "settle":
    case "default":
    case "resolve": {
      const fits = {
        settle: inState(State.Resolved),
        default: inState(State.Summoned),
        resolve: inState(State.Active, State.Deliberating, State.Appealed),
      }[a.t];
      const k = pickCase(a.c, fits);
      if (!k) return "no case";
      const by = agent(a.by);
      const fn = { settle: "settle", default: "triggerDefault", resolve: "resolveAfterDeadline" }[a.t];
      return {
        desc: `${fn} ${tag(k.addr)} by ${tag(by.addr)}`,
        from: by,
        to: k.addr,
        data: caseCall(fn),
        value: 0n,
        expect:
          a.t === "settle"
            ? model.expectSettle(k, t)
            : a.t === "default"
              ? model.expectTriggerDefault(k, t)
              : model.expectResolve(k, t),
        onSuccess: () => {
          if (a.t === "settle") model.settle(k);
          else if (a.t === "default") model.triggerDefault(k, t);
          else {
            model.resolveAfterDeadline(k, t);
            // Hidden votes: the revealed majority's verdict at the deadline, not a dismissal.
            if (k.state === State.Resolved) bump(coverage.passed, "resolve:verdict");
          }
        },
      };
    }
    case "stake": {
      const by = agent(a.by);
      return {
        desc: `stakeAsJudge(${a.court}) ${tag(by.addr)} ${a.amount}`,
        from: by,
        to: c.registry,
        data: encodeFunctionData({ abi: courtRegistryAbi, functionName: "stakeAsJudge", args: [a.court] }),
        value: a.amount,
        expect: model.expectStake(by.addr, a.amount, a.court === 0n ? 1n : a.court),
        onSuccess: () => model.stake(by.addr, by.signer.address, a.amount, a.court === 0n ? 1n : a.court),
      };
    }
    case "unstake": {
      const by = agent(a.by);
      return {
        desc: `unstake ${tag(by.addr)}`,
        from: by,
        to: c.registry,
        data: encodeFunctionData({ abi: courtRegistryAbi, functionName: "unstake" }),
        value: 0n,
        expect: model.expectUnstake(by.addr),
        onSuccess: () => model.unstake(by.addr),
      };
    }
    case "register": {
      const by = agent(a.by);
      const name = a.name === "ok" ? `agent-${step}` : a.name === "empty" ? "" : "n".repeat(65);
      const uri = a.uri === "ok" ? `https://agents.example.org/${step}.json` : "u".repeat(513);
      return {
        desc: `selfRegister ${tag(by.addr)} name=${a.name} uri=${a.uri}`,
        from: by,
        to: c.registry,
        data: encodeFunctionData({ abi: courtRegistryAbi, functionName: "selfRegister", args: [name, uri] }),
        value: 0n,
        expect: model.expectRegister(name, uri),
        onSuccess: () => model.register(by.addr),
      };
    }
    case "withdraw": {
      const k = pickCase(a.c, (x) => model.owedTotal(x) > 0n);
      if (!k) return "no case";
      // Prefer a party that is owed something.
      const parties = [k.plaintiff, k.defendant];
      const owedParty = parties.find((p) => (k.owed.get(p) ?? 0n) > 0n);
      const who = a.who === "party" ? agentOf(owedParty ?? (parties[a.pick] as Address)) : agent(a.who);
      return {
        desc: `withdraw ${tag(k.addr)} by ${tag(who.addr)}`,
        from: who,
        to: k.addr,
        data: caseCall("withdraw"),
        value: 0n,
        expect: model.expectWithdraw(k, who.addr),
        onSuccess: () => model.withdraw(k, who.addr),
      };
    }
    case "accept": {
      const r = agent(20 + a.r);
      const operator = agent(REFUSER_OPERATORS[a.r]);
      return {
        desc: `${tag(r.addr)} ${a.on ? "accepts" : "refuses"} ETH`,
        from: operator,
        to: r.addr,
        data: encodeFunctionData({ abi: refuserAbi, functionName: "setAccepting", args: [a.on] }),
        value: 0n,
        expect: null,
        onSuccess: () => model.accepting.set(r.addr, a.on),
      };
    }
    case "treasury": {
      const by = a.by === "owner" ? agent(0) : agent(a.by);
      const to = agent(a.to);
      const amount = a.permille > 1000 ? model.treasury + 1n : (model.treasury * BigInt(a.permille)) / 1000n;
      return {
        desc: `withdrawTreasury ${amount} to ${tag(to.addr)} by ${tag(by.addr)}`,
        from: by,
        to: c.registry,
        data: encodeFunctionData({ abi: courtRegistryAbi, functionName: "withdrawTreasury", args: [to.addr, amount] }),
        value: 0n,
        expect: model.expectTreasury(by.addr, to.addr, amount),
        onSuccess: () => model.withdrawTreasury(to.addr, amount),
      };
    }
    case "intrude":
      return planIntrusion(a, step);
    case "time":
    case "mine":
    case "edge":
      return a.t;
  }
}

/** Someone calls a function reserved to the factory, a case or the owner, directly. */
function planIntrusion(a: Extract<Action, { t: "intrude" }>, step: number): Plan {
  const by = agent(a.by);
  const x = agent(a.c).addr;
  const k = pickCase(a.c);
  const target = k?.addr ?? implementation;
  const reg = (data: Hex, expect: string, value = 0n) => ({ to: c.registry, data, expect, value });
  const terms = caseTerms(P);
  const calls = [
    () => reg(encodeFunctionData({ abi: courtRegistryAbi, functionName: "registerCase", args: [x] }), "OnlyFactory"),
    () => reg(encodeFunctionData({ abi: courtRegistryAbi, functionName: "judgeAssigned", args: [x] }), "OnlyCase"),
    () => reg(encodeFunctionData({ abi: courtRegistryAbi, functionName: "judgeVoted", args: [x] }), "OnlyCase"),
    () => reg(encodeFunctionData({ abi: courtRegistryAbi, functionName: "judgeReleased", args: [x, 1] }), "OnlyCase"),
    () =>
      reg(
        encodeFunctionData({ abi: courtRegistryAbi, functionName: "creditRewards", args: [[x], 1n] }),
        "OnlyCase",
        1n,
      ),
    () =>
      reg(
        encodeFunctionData({ abi: courtRegistryAbi, functionName: "recordParties", args: [x, by.addr, true] }),
        "OnlyCase",
      ),
    () =>
      reg(
        encodeFunctionData({ abi: courtRegistryAbi, functionName: "setFactory", args: [x] }),
        by.addr === model.owner ? "FactoryAlreadySet" : "OnlyOwner",
      ),
    () => ({
      to: c.factory,
      data: encodeFunctionData({
        abi: caseFactoryAbi,
        functionName: "onCaseChanged",
        args: [State.Active, State.Dismissed],
      }),
      expect: "OnlyCase",
      value: 0n,
    }),
    () => ({
      to: target,
      data: encodeFunctionData({
        abi: disputeCaseAbi,
        functionName: "initialize",
        args: [c.registry, c.entropy, by.addr, x, `hijack ${step}`, "bafy-hijack", terms, 1n, 1n, 0n],
      }),
      expect: "AlreadyInitialized",
      value: P.minPartyStake,
    }),
    () => ({
      to: target,
      data: encodeFunctionData({ abi: disputeCaseAbi, functionName: "setJudges", args: [[x, x, x]] }),
      expect: "OnlyFactory",
      value: 0n,
    }),
    () => ({
      to: target,
      data: encodeFunctionData({ abi: disputeCaseAbi, functionName: "drawJudges" }),
      expect: "OnlyFactory",
      value: 0n,
    }),
  ];
  const call = (calls[a.what % calls.length] as () => { to: Address; data: Hex; expect: string; value: bigint })();
  return { desc: `intrude #${a.what} on ${tag(call.to)} by ${tag(by.addr)}`, from: by, ...call };
}

// ------------------------------------------------------------------- reading

interface CaseRead {
  view: {
    state: number;
    plaintiff: Address;
    defendant: Address;
    plaintiffStake: bigint;
    defendantStake: bigint;
    judges: readonly Address[];
    votesForPlaintiff: bigint;
    votesForDefendant: bigint;
    filedAt: bigint;
    resolvedAt: bigint;
    outcome: number;
    appealWindowOpen: boolean;
    appealUsed: boolean;
    responseDeadline: bigint;
    deliberationDeadline: bigint;
    appealDeadline: bigint;
    round: number;
    settled: boolean;
    appellant: Address;
    appealBond: bigint;
    evidenceCount: bigint;
    chainTime: bigint;
    hiddenVotes: boolean;
    votesCommitted: bigint;
    commitDeadline: bigint;
    revealDeadline: bigint;
    drawTicket: bigint;
    drawPoolBlock: bigint;
    votes: readonly { judge: Address; vote: number; justification: string }[];
  };
  panels: [readonly [readonly Address[], readonly number[]], readonly [readonly Address[], readonly number[]]];
  bondPaid: bigint;
  owedPlaintiff: bigint;
  owedDefendant: bigint;
}

interface JudgeRead {
  stake: bigint;
  eligible: boolean;
  activeCases: number;
}

interface World {
  time: bigint;
  block: bigint;
  /** Each agent's draw weight now, and the pool's total (registry.weightAt at the latest block). */
  weights: Map<Address, bigint>;
  totalWeight: bigint;
  balances: Map<Address, bigint>;
  /** Fee-token balances of the same addresses. */
  tokens: Map<Address, bigint>;
  /** The case each paid reference filed (paymentRefUsedBy), by `${ref}:${payer}`. */
  refUsedBy: Map<string, Address>;
  overview: { agentCount: bigint; totalJudgeStake: bigint; treasury: bigint; eligibleJudgeCount: bigint };
  judges: Map<Address, JudgeRead>;
  pool: Address[];
  stats: { totalCases: bigint; byState: readonly bigint[]; openCases: bigint };
  open: Address[];
  caseList: Address[];
  cases: Map<Address, CaseRead>;
  accepting: Map<Address, boolean>;
  status: StatusWorld;
}

function tracked(): Address[] {
  return [...agents.map((x) => x.addr), c.registry, c.factory, implementation, ...model.cases.map((k) => k.addr)];
}

/** Everything the checks need, read in one eth_call through Multicall3. */
async function readWorld(): Promise<World> {
  const calls: ContractFunctionParameters[] = [];
  const at = (call: ContractFunctionParameters) => calls.push(call) - 1;
  const addrs = tracked();
  const timeAt = at({ address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getCurrentBlockTimestamp" });
  const blockAt = at({ address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getBlockNumber" });
  const weightAt = agents.map((a) =>
    at({ address: c.registry, abi: courtRegistryAbi, functionName: "weightAt", args: [1n, a.addr, model.block] }),
  );
  const balanceAt = addrs.map((a) =>
    at({ address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getEthBalance", args: [a] }),
  );
  const tokenAt = addrs.map((a) => at({ address: c.feeToken, abi: testUSDAbi, functionName: "balanceOf", args: [a] }));
  const refKeys = model ? [...paidKeys()] : [];
  const refAt = refKeys.map((key) =>
    at({ address: c.factory, abi: caseFactoryAbi, functionName: "paymentRefUsedBy", args: key.split(":") }),
  );
  const overviewAt = at({ address: c.registry, abi: courtRegistryAbi, functionName: "getOverview" });
  const judgeAt = agents.map((a) =>
    at({ address: c.registry, abi: courtRegistryAbi, functionName: "getJudge", args: [a.addr] }),
  );
  const poolAt = at({ address: c.registry, abi: courtRegistryAbi, functionName: "getJudgePool" });
  const statsAt = at({ address: c.factory, abi: caseFactoryAbi, functionName: "getStats" });
  const openAt = at({ address: c.factory, abi: caseFactoryAbi, functionName: "getOpenCases", args: [false, 0] });
  const listAt = at({ address: c.factory, abi: caseFactoryAbi, functionName: "getCases", args: [0n, 10_000n] });
  const acceptAt = agents
    .filter((a) => a.refuser)
    .map((a) => at({ address: a.addr, abi: refuserAbi, functionName: "accepting" }));
  const caseAt = model.cases.map((k) => ({
    view: at({ address: k.addr, abi: disputeCaseAbi, functionName: "getCase" }),
    p1: at({ address: k.addr, abi: disputeCaseAbi, functionName: "getPanel", args: [1] }),
    p2: at({ address: k.addr, abi: disputeCaseAbi, functionName: "getPanel", args: [2] }),
    bond: at({ address: k.addr, abi: disputeCaseAbi, functionName: "appealBondPaid" }),
    owedP: at({ address: k.addr, abi: disputeCaseAbi, functionName: "owed", args: [k.plaintiff] }),
    owedD: at({ address: k.addr, abi: disputeCaseAbi, functionName: "owed", args: [k.defendant] }),
  }));
  const status = statusCalls(
    at,
    c.factory,
    agents.map((a) => a.addr),
    model.cases.map((k) => k.addr),
  );
  const res = (await c.reader.multicall({ contracts: calls, allowFailure: false, batchSize: 0 })) as unknown[];
  const r = <T>(i: number) => res[i] as T;

  const judges = new Map<Address, JudgeRead>();
  for (const [n, a] of agents.entries()) judges.set(a.addr, r<JudgeRead>(judgeAt[n] as number));
  const cases = new Map<Address, CaseRead>();
  for (const [n, k] of model.cases.entries()) {
    const at2 = caseAt[n] as (typeof caseAt)[number];
    cases.set(k.addr, {
      view: r<CaseRead["view"]>(at2.view),
      panels: [r(at2.p1), r(at2.p2)],
      bondPaid: r<bigint>(at2.bond),
      owedPlaintiff: r<bigint>(at2.owedP),
      owedDefendant: r<bigint>(at2.owedD),
    });
  }
  const accepting = new Map<Address, boolean>();
  for (const [n, a] of agents.filter((x) => x.refuser).entries())
    accepting.set(a.addr, r<boolean>(acceptAt[n] as number));
  const weights = new Map<Address, bigint>();
  let totalWeight = 0n;
  for (const [n, a] of agents.entries()) {
    const [w, total] = r<readonly [bigint, bigint]>(weightAt[n] as number);
    weights.set(a.addr, w);
    totalWeight = total;
  }
  return {
    time: r<bigint>(timeAt),
    block: r<bigint>(blockAt),
    weights,
    totalWeight,
    balances: new Map(addrs.map((a, n) => [a, r<bigint>(balanceAt[n] as number)])),
    tokens: new Map(addrs.map((a, n) => [a, r<bigint>(tokenAt[n] as number)])),
    refUsedBy: new Map(refKeys.map((key, n) => [key, r<Address>(refAt[n] as number)])),
    overview: r(overviewAt),
    judges,
    pool: r<readonly [bigint, readonly { addr: Address }[]]>(poolAt)[1].map((j) => j.addr),
    stats: r(statsAt),
    open: r<readonly { addr: Address }[]>(openAt).map((s) => s.addr),
    caseList: [...r<readonly [bigint, readonly Address[]]>(listAt)[1]],
    cases,
    accepting,
    status: status(res),
  };
}

// ------------------------------------------------------------------ checking

const openStates = new Set<number>([State.Summoned, State.Active, State.Deliberating, State.Appealed]);
const canChange = (v: CaseRead["view"]) => openStates.has(v.state) || (v.state === State.Resolved && !v.settled);
const sortAddrs = (xs: readonly Address[]) => [...xs].sort().join(",");

function checkWorld(w: World): void {
  same(w.time, model.now, "chain time");
  same(w.block, model.block, "block number");

  // Money: every tracked balance to the wei, and the total conserved up to gas.
  let total = 0n;
  for (const [a, got] of w.balances) {
    total += got;
    same(got, model.balances.get(a) ?? 0n, `balance of ${tag(a)}`);
  }
  same(total, model.initialTotal - model.gasSpent, "sum of all balances (initial less gas)");
  same(w.balances.get(c.factory), 0n, "factory balance");
  same(w.balances.get(implementation), 0n, "case implementation balance");

  // Token fees: every tracked token balance; the fee recipient got exactly the token fees of the
  // cases filed with one, and the factory holds nothing but the strays not yet refunded.
  for (const [a, got] of w.tokens) same(got, model.tokens.get(a) ?? 0n, `token balance of ${tag(a)}`);
  same(
    w.tokens.get(model.feeRecipient),
    model.recipientTokensAtStart + model.cases.reduce((sum, k) => sum + k.tokenFee, 0n),
    "fee recipient's tokens vs the token fees of filed cases",
  );
  same(w.tokens.get(c.factory), model.tokenFeesHeld(), "factory's tokens vs strays not refunded");
  for (const k of model.cases)
    if (k.tokenFee > 0n && k.tokenFee < model.tokenFee) fail(`${tag(k.addr)} paid below the token fee`);
  // One case per reference, whichever way it was paid.
  const filedBy = new Map<Address, string>();
  for (const [key, got] of w.refUsedBy) {
    same(got, model.usedRefs.get(key) ?? ZERO_ADDR, `case filed with ${key}`);
    if (got === ZERO_ADDR) continue;
    if (filedBy.has(got)) fail(`case ${tag(got)} filed with ${filedBy.get(got)} and ${key}`);
    filedBy.set(got, key);
  }

  // Registry: holds the stakes plus the treasury; the stakes add up.
  const registryHeld = w.balances.get(c.registry) ?? 0n;
  same(
    registryHeld,
    w.overview.totalJudgeStake + w.overview.treasury,
    "registry balance vs totalJudgeStake + treasury",
  );
  same(w.overview.totalJudgeStake, model.totalJudgeStake, "totalJudgeStake");
  same(w.overview.treasury, model.treasury, "treasury");
  same(w.overview.agentCount, model.agentCount, "agentCount");
  let stakes = 0n;
  let eligible = 0n;
  for (const [a, j] of w.judges) {
    stakes += j.stake;
    const m = model.judge(a);
    same(j.stake, m.stake, `stake of ${tag(a)}`);
    same(j.activeCases, m.activeCases, `activeCases of ${tag(a)}`);
    same(j.eligible, model.eligible(a), `eligibility of ${tag(a)}`);
    if (j.eligible) eligible++;
  }
  same(stakes, w.overview.totalJudgeStake, "sum of judge stakes vs totalJudgeStake");
  same(w.overview.eligibleJudgeCount, eligible, "eligibleJudgeCount");
  // Draw weights in the General court: a judge's stakes that reach their court's minimum, in every
  // court (a stake in the child court counts up the tree); the tree's total is their sum.
  let weightSum = 0n;
  for (const [a, got] of w.weights) {
    const want = model.weight(a);
    same(got, want, `draw weight of ${tag(a)}`);
    same(got, model.weightAt(a, model.block), `modelled weight history of ${tag(a)}`);
    weightSum += got;
  }
  same(w.totalWeight, weightSum, "sortition total vs the judges' weights");
  const modelPool = [...model.judges].filter(([, j]) => j.inList).map(([a]) => a);
  same(sortAddrs(w.pool), sortAddrs(modelPool), "judge pool");
  for (const [a, on] of w.accepting) same(on, model.accepting.get(a), `${tag(a)} accepting`);

  // Cases: the factory lists exactly the cases the model knows, each as modelled.
  same(w.caseList.join(","), model.cases.map((k) => k.addr).join(","), "getCases");
  const byState = new Array<bigint>(8).fill(0n);
  const changeable: Address[] = [];
  for (const k of model.cases) {
    const got = w.cases.get(k.addr) as CaseRead;
    const v = got.view;
    const name = tag(k.addr);
    byState[v.state] = (byState[v.state] ?? 0n) + 1n;
    if (canChange(v)) changeable.push(k.addr);
    coverage.reached.add(`${Object.keys(State)[v.state]}${v.settled ? "+settled" : ""} r${v.round}`);

    same(v.state, k.state, `${name} state`);
    same(v.outcome, k.outcome, `${name} outcome`);
    same(v.round, k.round, `${name} round`);
    same(v.settled, k.settled, `${name} settled`);
    same(v.plaintiff, k.plaintiff, `${name} plaintiff`);
    same(v.defendant, k.defendant, `${name} defendant`);
    same(v.plaintiffStake, k.plaintiffStake, `${name} plaintiffStake`);
    same(v.defendantStake, k.defendantStake, `${name} defendantStake`);
    same(got.bondPaid, k.bondPaid, `${name} appealBondPaid`);
    same(v.appellant, k.appellant, `${name} appellant`);
    same(v.appealUsed, k.appealUsed, `${name} appealUsed`);
    same(v.filedAt, k.filedAt, `${name} filedAt`);
    same(v.resolvedAt, k.resolvedAt, `${name} resolvedAt`);
    same(v.responseDeadline, k.responseDeadline, `${name} responseDeadline`);
    same(v.deliberationDeadline, k.deliberationDeadline, `${name} deliberationDeadline`);
    same(v.appealDeadline, k.appealDeadline, `${name} appealDeadline`);
    same(v.evidenceCount, BigInt(k.evidence), `${name} evidenceCount`);
    same(v.hiddenVotes, P.hiddenVotes, `${name} hiddenVotes`);
    same(v.votesCommitted, BigInt(model.commitsOf(k).size), `${name} votesCommitted`);
    same(v.commitDeadline, k.commitDeadline, `${name} commitDeadline`);
    same(v.revealDeadline, k.revealDeadline, `${name} revealDeadline`);
    same(v.drawTicket, k.drawTicket, `${name} drawTicket`);
    same(v.drawPoolBlock, k.drawPoolBlock, `${name} drawPoolBlock`);
    same(v.votes.length, model.panel(k).length, `${name} votes listed`);
    for (const [n, x] of v.votes.entries()) {
      const j = model.panel(k)[n] as Address;
      same(x.judge, j, `${name} votes[${n}].judge`);
      same(x.vote, model.voteCode(k, j), `${name} vote code of ${tag(j)}`);
      same(x.justification, model.justificationsOf(k).get(j) ?? "", `${name} reasons of ${tag(j)}`);
    }
    same(v.appealBond, P.appealBond, `${name} appealBond`);
    same(
      v.appealWindowOpen,
      k.state === State.Resolved && !k.appealUsed && !k.settled && v.chainTime <= k.appealDeadline,
      `${name} appealWindowOpen`,
    );
    same(v.judges.join(","), model.panel(k).join(","), `${name} current panel`);
    const [tp, td] = model.tally(k);
    same(v.votesForPlaintiff, tp, `${name} votesForPlaintiff`);
    same(v.votesForDefendant, td, `${name} votesForDefendant`);
    for (const r of [1, 2] as const) {
      const [judges, cast] = r === 1 ? got.panels[0] : got.panels[1];
      same(judges.join(","), model.panel(k, r).join(","), `${name} panel ${r}`);
      for (const [n, j] of judges.entries()) {
        same(cast[n], model.voteCode(k, j, r), `${name} round-${r} vote of ${tag(j)}`);
      }
    }

    // The money the case holds.
    const held = w.balances.get(k.addr) ?? 0n;
    const owed = got.owedPlaintiff + got.owedDefendant;
    same(got.owedPlaintiff, k.owed.get(k.plaintiff) ?? 0n, `${name} owed to the plaintiff`);
    same(got.owedDefendant, k.owed.get(k.defendant) ?? 0n, `${name} owed to the defendant`);
    same(owed, model.owedTotal(k), `${name} owed in all`);
    if (v.settled) same(held, owed, `${name} balance after payout vs owed`);
    else same(held, v.plaintiffStake + v.defendantStake + got.bondPaid, `${name} balance vs stakes and bond`);
    same(k.payoutEvents, v.settled ? 1 : 0, `${name} payout events`);
  }

  same(model.deferredEvents, model.deferred, "PaymentDeferred events");

  // Factory counters and the open list.
  same(w.stats.totalCases, BigInt(model.cases.length), "stats.totalCases");
  for (let s = 0; s < 8; s++) same(w.stats.byState[s], byState[s], `stats.byState[${Object.keys(State)[s]}]`);
  same(w.stats.openCases, BigInt(w.open.length), "stats.openCases vs getOpenCases");
  same(sortAddrs(w.open), sortAddrs(changeable), "getOpenCases vs cases that can still change");
  same(
    sortAddrs(w.open),
    sortAddrs(model.cases.filter((k) => model.isOpen(k)).map((k) => k.addr)),
    "getOpenCases vs the model",
  );

  // The inbox and keeper views: the involved index, the open statuses, getStatus against getCase.
  const views = new Map([...w.cases].map(([a, r]) => [a, r.view]));
  checkStatusViews(w.status, model, views, { time: w.time, block: w.block }, same, tag);
}

// ------------------------------------------------------------------ running

async function resetChain(): Promise<void> {
  const ok = await rpc("evm_revert", [snapshotId]);
  if (!ok) throw new Error("evm_revert failed");
  snapshotId = await rpc("evm_snapshot");
  nonces.clear();
  for (const [a, n] of baseNonces) nonces.set(a, n);
  model = modelAtSnapshot.clone();
  log = [];
  checkWorld(await readWorld());
}

/** The model of the world as set up so far, read from the chain (before any case exists). */
async function modelFromChain(): Promise<void> {
  // On the dev chain the deployer (the owner) receives the filing fees.
  model = new CourtModel(P, c.registry, c.factory, c.owner.address, c.owner.address);
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
    abi: caseFactoryAbi,
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
      abi: courtRegistryAbi,
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
    forcedCase = target === null ? undefined : model.cases[target];
    await runStep(action, 1000 + n);
  }
  forcedCase = undefined;
  const states = model.cases.map((k) => k.state);
  if (model.eligible(agent(7).addr) || !model.judge(agent(7).addr).inList) throw new Error("prologue: #7 not slashed");
  const want = [
    State.Defaulted,
    State.Dismissed,
    State.Summoned,
    State.Active,
    State.Deliberating,
    State.Resolved,
    State.Appealed,
    State.Deliberating,
    ...(P.hiddenVotes ? [State.Deliberating] : []),
  ];
  if (model.owedTotal(model.cases[0] as CaseM) !== P.minPartyStake + 20n) throw new Error("prologue: R0 is not owed");
  if (states.join() !== want.join()) throw new Error(`prologue left states ${states}, not ${want}\n${log.join("\n")}`);
}

async function runStep(a: Action, step: number): Promise<void> {
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
    await advance(c, a.seconds);
    model.now += BigInt(a.seconds);
    model.block += 1n;
    log.push(`${step}: time +${a.seconds}s`);
    bump(coverage.passed, "time");
  } else if (a.t === "mine") {
    await mineBlocks(c, a.blocks);
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
    case State.Summoned:
      deadline = k.responseDeadline;
      follow = a.alt
        ? { t: "default", c: c0, by: a.pick }
        : { t: "respond", c: c0, who: "defendant", stake: P.minPartyStake };
      break;
    case State.Active:
    case State.Appealed:
      if (!a.alt && a.pick % 2 === 0) {
        // The entropy's edge instead: the draw lands in the last block whose hash of the arming
        // block is readable (d = 0, it seats) or after it (d >= 1, it expired and re-arms).
        const blocks = k.drawTicket + BLOCKHASH_WINDOW + BigInt(a.d) - 1n - model.block;
        if (blocks >= 1n) await runStep({ t: "mine", blocks: Number(blocks) }, step);
        forcedCase = k;
        try {
          await runStep({ t: "draw", c: c0, by: a.pick, unknown: false }, step);
        } finally {
          forcedCase = undefined;
        }
        return;
      }
      deadline = k.deliberationDeadline;
      follow = a.alt ? { t: "resolve", c: c0, by: a.pick } : { t: "draw", c: c0, by: a.pick, unknown: false };
      break;
    case State.Deliberating:
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
    case State.Resolved:
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
  forcedCase = k;
  try {
    await runStep(follow, step);
  } finally {
    forcedCase = undefined;
  }
}

/** Payout and deferral events, per case, from a successful transaction. */
function countEvents(r: TransactionReceipt): void {
  const events = parseEventLogs({ abi: disputeCaseAbi, logs: r.logs, strict: false });
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
async function setup(params: CourtParams): Promise<void> {
  P = params;
  model = undefined as unknown as CourtModel;
  nonces.clear();
  refCounter = 0;
  coverage.sequences = 0;
  coverage.maxCases = 0;
  const refuser = compileRefuser();
  c = await bootCourt(params);
  implementation = await c.reader.readContract({
    address: c.factory,
    abi: caseFactoryAbi,
    functionName: "implementation",
  });
  const eoas: Agent[] = c.devnet.accounts.map((a) => ({
    i: a.index,
    addr: a.address,
    signer: a.account,
    refuser: false,
  }));
  const refusers: Agent[] = [];
  for (const [n, op] of REFUSER_OPERATORS.entries()) {
    const operator = actor(c, op);
    const hash = await operator.wallet.deployContract({ abi: refuser.abi, bytecode: refuser.bytecode, args: [] });
    const r = await operator.mined(hash);
    refusers.push({
      i: 20 + n,
      addr: getAddress(r.contractAddress as Address),
      signer: c.devnet.accounts[op]?.account as HDAccount,
      refuser: true,
    });
  }
  agents = [...eoas, ...refusers];
  if (agents.length !== AGENTS) throw new Error(`expected ${AGENTS} agents, got ${agents.length}`);

  // The world every sequence starts from: eleven staked judges (two at or near the minimum, so one
  // slash drops them out of the pool), a refusing judge and three registered agents. Both refusing
  // parties start out refusing ETH.
  const stakeAs = (a: Actor, value: bigint) =>
    a.write({ address: c.registry, abi: courtRegistryAbi, functionName: "stakeAsJudge", args: [0n], value });
  const stakes = [P.minJudgeStake, P.minJudgeStake + 1n, parseEther("0.2"), parseEther("0.3")];
  for (let i = 7; i <= 17; i++) await stakeAs(actor(c, i), stakes[i - 7] ?? parseEther("1"));
  const r0 = refusers[0] as Agent;
  await actor(c, REFUSER_OPERATORS[0]).write({
    address: r0.addr,
    abi: refuserAbi,
    functionName: "exec",
    args: [c.registry, encodeFunctionData({ abi: courtRegistryAbi, functionName: "stakeAsJudge", args: [0n] })],
    value: P.minJudgeStake,
  });
  for (const i of [1, 2, 3]) {
    await actor(c, i).write({
      address: c.registry,
      abi: courtRegistryAbi,
      functionName: "selfRegister",
      args: [`party-${i}`, ""],
    });
  }
  // Four token fees for every account but the owner's (the fee recipient): a busy payer runs out.
  const tokenFee = await c.reader.readContract({
    address: c.factory,
    abi: caseFactoryAbi,
    functionName: "tokenFilingFee",
  });
  for (const a of eoas.slice(1))
    await c.owner.write({ address: c.feeToken, abi: testUSDAbi, functionName: "mint", args: [a.addr, 4n * tokenFee] });
  for (const a of eoas) nonces.set(a.addr, await c.reader.getTransactionCount({ address: a.addr }));
  await modelFromChain();
  await prologue();
  snapshotId = await rpc("evm_snapshot");
  baseNonces = new Map(nonces);
  modelAtSnapshot = model.clone();
  resetCoverage();
}

const courts: [string, CourtParams, string][] = [
  ["public votes", PUBLIC, "vote"],
  ["hidden votes (commit-reveal)", HP, "reveal"],
];

for (const [label, params, decisive] of courts) {
  describe(`contract invariants under random action sequences, ${label}`, () => {
    beforeAll(() => setup(params), 60_000);

    afterAll(async () => {
      await c?.stop();
    });

    it(`hold after every step (seed ${SEED}, ${RUNS} sequences of ${MIN_ACTIONS}-${MAX_ACTIONS} actions)`, async () => {
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(
          fc.array(actionArb(params), { minLength: MIN_ACTIONS, maxLength: MAX_ACTIONS }),
          async (actions) => {
            coverage.sequences++;
            await resetChain();
            for (const [step, a] of actions.entries()) await runStep(a, step);
            coverage.maxCases = Math.max(coverage.maxCases, model.cases.length);
            if (process.env.INVARIANT_LOG) console.log(log.join("\n"));
          },
        ),
        {
          seed: SEED,
          numRuns: RUNS,
          endOnFailure: process.env.INVARIANT_SHRINK !== "1",
          // Surface our message (with the last steps) rather than only the counterexample.
          verbose: 1,
        },
      );
      const sorted = (m: Map<string, number>) =>
        [...m]
          .sort(([x], [y]) => x.localeCompare(y))
          .map(([k, n]) => `${k}=${n}`)
          .join(" ");
      console.log(
        [
          `invariants (${label}): seed ${SEED}, ${coverage.sequences} sequences, ${coverage.actions} actions in ${((Date.now() - started) / 1000).toFixed(1)} s`,
          `  passed: ${sorted(coverage.passed)}`,
          `  refused: ${sorted(coverage.refused)}`,
          `  skipped (no case yet): ${coverage.skipped}; deferred payments: ${coverage.deferred}; most cases in one sequence: ${coverage.maxCases}`,
          `  most gas used: ${coverage.maxGas} (${coverage.maxGasWhat})`,
          `  transitions: ${sorted(coverage.transitions)}`,
          `  states reached: ${[...coverage.reached].sort().join(", ")}`,
        ].join("\n"),
      );
      // The sequences reached the paths this court is about: verdicts by its kind of vote, draws
      // that seat, fees paid, and judges scored at a final outcome.
      const kinds = [decisive, "draw", "pay", "file", "settle", "resolve"];
      // Token fees: filings that paid one, authorizations submitted first, strays refunded (drawn
      // on the public court only).
      if (!params.hiddenVotes) kinds.push("tokenPay", "tokenFile", "refund");
      // Hidden votes: the revealed majority's verdict at the reveal deadline, too.
      if (params.hiddenVotes) kinds.push("resolve:verdict");
      for (const kind of kinds) {
        expect(coverage.passed.get(kind) ?? 0, `${kind} never passed`).toBeGreaterThan(0);
      }
    }, 180_000);
  });
}
