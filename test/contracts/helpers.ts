/**
 * Shared helpers for the contract suite: each test file boots its own dev chain with the court
 * deployed (no seed) and drives the contracts straight through viem, as dev accounts.
 */
import {
  type Abi,
  type Account,
  type Address,
  BaseError,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  ContractFunctionRevertedError,
  decodeErrorResult,
  type Hex,
  keccak256,
  maxUint256,
  type PublicClient,
  parseEther,
  parseEventLogs,
  parseSignature,
  type TransactionReceipt,
  toHex,
} from "viem";
import { afterAll, beforeAll, expect } from "vitest";
import {
  agenticCommerceAbi,
  caseFactoryAbi,
  courtEvaluatorAbi,
  courtRegistryAbi,
  courtReputationAbi,
  disputeCaseAbi,
  docketArbitratorAbi,
  identityRegistryAbi,
  reputationRegistryAbi,
  testUSDAbi,
  validationRegistryAbi,
} from "../../src/chain/abi/generated.js";
import { voteCommitment } from "../../src/chain/votes.js";
import { type CourtParams, devParams, devPublicParams } from "../../src/deploy/terms.js";
import { Actor } from "../../src/devnet/actor.js";
import { type Devnet, startDevnet } from "../../src/devnet/devnet.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { TRANSFER_WITH_AUTHORIZATION } from "../../src/payments/tokenFee.js";
import type { Authorization } from "../../src/payments/x402v2.js";

/** Every contract's ABI (and bytecode), as generated: suites take them from here with the rest. */
export * from "../../src/chain/abi/generated.js";

/**
 * The parameters `bootCourt()` deploys with by default: the dev terms with public votes, so suites
 * about the lifecycle, money and access vote in one transaction. Every expectation is computed
 * from these; the hidden-vote suites boot with `HP` instead.
 */
export const P: CourtParams = devPublicParams;
/** The dev chain's own terms: hidden votes (commit, then reveal). */
export const HP: CourtParams = devParams;

/** CaseState, in the contracts' enum order (docs/contracts.md, "A case's life"). */
export const State = {
  Filed: 0,
  Summoned: 1,
  Active: 2,
  Deliberating: 3,
  Resolved: 4,
  Dismissed: 5,
  Defaulted: 6,
  Appealed: 7,
} as const;

export const Outcome = { None: 0, PlaintiffWon: 1, DefendantWon: 2, Dismissed: 3 } as const;

/** Vote codes returned by `getPanel` and `getCase().votes`; Committed only with hidden votes. */
export const Cast = { None: 0, Plaintiff: 1, Defendant: 2, Committed: 3 } as const;

/** How a judge's service on a case ended (JudgeResult), as `judgeReleased` takes it. */
export const JudgeResult = { Unscored: 0, Majority: 1, Minority: 2, NoShow: 3 } as const;

/** The denominator of the court's basis-point rates (fee, reward share, slash). */
export const BPS = 10_000n;

/** What a judge with `stake` loses when slashed under `params` (floored). */
export function slashOf(stake: bigint, params: CourtParams = P): bigint {
  return (stake * BigInt(params.slashBps)) / BPS;
}

export const ZERO = "0x0000000000000000000000000000000000000000" as const;

/** A booted dev chain with the court deployed; actors are the mnemonic accounts by index. */
export interface CourtDeployment {
  devnet: Devnet;
  reader: PublicClient;
  factory: Address;
  registry: Address;
  entropy: Address;
  /** The test stablecoin the factory takes filing fees in (EIP-3009). */
  feeToken: Address;
  /** The terms this court was deployed with. */
  params: CourtParams;
  /** Mnemonic index 0: deployer and owner of both contracts, and the factory's fee recipient. */
  owner: Actor;
  actors: Actor[];
  stop(): Promise<void>;
}

/**
 * An Actor whose transactions carry 20% gas headroom over the estimate. On the dev chain several
 * blocks can share a timestamp; an estimate run in the latest block's second and mined in the
 * next one can differ (a timestamp written back unchanged costs less), and an exact estimate
 * then runs out of gas. Wallets add headroom too; a refused call still fails at the estimate,
 * with its revert data.
 */
class SuiteActor extends Actor {
  override async write<const abi extends Abi, name extends ContractFunctionName<abi, "payable" | "nonpayable">>(req: {
    address: Address;
    abi: abi;
    functionName: name;
    args?: ContractFunctionArgs<abi, "payable" | "nonpayable", name>;
    value?: bigint;
  }): Promise<TransactionReceipt> {
    // biome-ignore lint/suspicious/noExplicitAny: viem's overloads cannot follow the generic here
    const call = req as any;
    const gas = await this.reader.estimateContractGas({ ...call, account: this.account });
    return this.mined(await this.wallet.writeContract({ ...call, gas: gas + gas / 5n }));
  }
}

/** Boots a dev chain with the court deployed under `params` (public votes unless told otherwise). */
export async function bootCourt(params: CourtParams = P): Promise<CourtDeployment> {
  const devnet = await startDevnet({ seed: false, params });
  const actors = devnet.accounts.map((a) => new SuiteActor(a.account, devnet.chain, devnet.reader));
  return {
    devnet,
    reader: devnet.reader,
    factory: devnet.deployment.factory,
    registry: devnet.deployment.registry,
    entropy: devnet.deployment.entropy,
    feeToken: devnet.deployment.feeToken as Address,
    params,
    owner: actors[0] as Actor,
    actors,
    stop: devnet.stop,
  };
}

/** The dev accounts of a test file's court: parties by account index, judges from account 7 on. */
export interface CourtOfFile {
  party(i: number): Actor;
  /** Judges are mnemonic accounts 7..19: judge(0) is account 7. */
  judge(i: number): Actor;
}

/**
 * The court a test file runs on: booted with `params` before the file's tests, handed to `ready`
 * (which keeps it, and stakes or registers what the file needs), stopped after them.
 */
export function courtOfFile(ready: (c: CourtDeployment) => void | Promise<void>, params: CourtParams = P): CourtOfFile {
  let court: CourtDeployment | undefined;
  beforeAll(async () => {
    court = await bootCourt(params);
    await ready(court);
  });
  afterAll(async () => {
    await court?.stop();
  });
  const booted = (): CourtDeployment => {
    if (!court) throw new Error("the court of this file is not booted yet");
    return court;
  };
  return { party: (i) => actor(booted(), i), judge: (i) => actor(booted(), 7 + i) };
}

/** An actor for any account (a fresh key, say), with the suite's gas headroom. */
export function actorFor(c: CourtDeployment, account: Account): Actor {
  return new SuiteActor(account, c.devnet.chain, c.reader);
}

/** The actor for mnemonic index `i`. */
export function actor(c: CourtDeployment, i: number): Actor {
  const a = c.actors[i];
  if (!a) throw new Error(`no dev account ${i}`);
  return a;
}

let refCounter = 0;
/** A fresh, never used payment reference (stands in for a filing-fee transaction hash). */
export function freshRef(): Hex {
  refCounter += 1;
  return keccak256(toHex(`payment-${process.pid}-${Date.now()}-${refCounter}`));
}

export interface FileOpts {
  stake?: bigint;
  claim?: string;
  evidence?: string;
  paymentRef?: Hex;
  /** Pay the filing fee under the reference first (default true); false files on what was paid before. */
  pay?: boolean;
  /** The court to file in (default 0: the General court). */
  court?: bigint;
}

export interface Filed {
  caseAddr: Address;
  receipt: TransactionReceipt;
  paymentRef: Hex;
}

/** Pays the court's filing fee (or `value`) under `paymentRef`, as `payer`. */
export function payFee(c: CourtDeployment, payer: Actor, paymentRef: Hex, value: bigint = c.params.filingFee) {
  return payer.write({
    address: c.factory,
    abi: caseFactoryAbi,
    functionName: "payFilingFee",
    args: [paymentRef],
    value,
  });
}

/** Files a case as a plaintiff would: pays the filing fee under a fresh reference, then files with it. */
export async function fileCase(
  c: CourtDeployment,
  plaintiff: Actor,
  defendant: Address,
  opts: FileOpts = {},
): Promise<Filed> {
  const paymentRef = opts.paymentRef ?? freshRef();
  if (opts.pay !== false) await payFee(c, plaintiff, paymentRef);
  const receipt = await plaintiff.write({
    address: c.factory,
    abi: caseFactoryAbi,
    functionName: "fileCase",
    args: [
      opts.court ?? 0n,
      defendant,
      opts.claim ?? "Goods paid for were never delivered.",
      opts.evidence ?? "bafkreiclaim",
      paymentRef,
    ],
    value: opts.stake ?? c.params.minPartyStake,
  });
  const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
  if (!filed) throw new Error("fileCase emitted no CaseFiled");
  return { caseAddr: filed.args.caseAddr, receipt, paymentRef };
}

export function respond(
  caseAddr: Address,
  defendant: Actor,
  stake: bigint = P.minPartyStake,
): Promise<TransactionReceipt> {
  return defendant.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "respond", value: stake });
}

/** Seats the given judges through the owner's manual override. */
export function seat(c: CourtDeployment, caseAddr: Address, judges: Actor[]): Promise<TransactionReceipt> {
  return c.owner.write({
    address: c.factory,
    abi: caseFactoryAbi,
    functionName: "assignJudges",
    args: [caseAddr, judges.map((j) => j.address)],
  });
}

/**
 * A keeper executes the case's armed draw, sent with headroom over the estimate: its gas depends on
 * which judges the draw walks past, so the suite does not rely on the estimate running the very
 * same draw. The caller passes nothing but the case.
 */
export async function drawJudges(c: CourtDeployment, caseAddr: Address, by: Actor): Promise<TransactionReceipt> {
  const req = {
    address: c.factory,
    abi: caseFactoryAbi,
    functionName: "assignJudgesRandom",
    args: [caseAddr],
  } as const;
  const estimate = await c.reader.estimateContractGas({ ...req, account: by.account });
  return by.mined(await by.wallet.writeContract({ ...req, gas: estimate * 2n }));
}

export function vote(caseAddr: Address, judge: Actor, plaintiffWins: boolean): Promise<TransactionReceipt> {
  return judge.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "vote", args: [plaintiffWins] });
}

/** A deterministic salt per (case, judge, round): tests must replay, and nobody here is guessing. */
export function saltOf(caseAddr: Address, judge: Address, round: number): Hex {
  return keccak256(toHex(`salt:${caseAddr}:${judge}:${round}`));
}

/** Hidden votes, phase 1: the judge commits to `plaintiffWins` with its salt for the round. */
export function commitVote(
  caseAddr: Address,
  judge: Actor,
  plaintiffWins: boolean,
  round = 1,
  salt: Hex = saltOf(caseAddr, judge.address, round),
): Promise<TransactionReceipt> {
  const commitment = voteCommitment({ caseAddress: caseAddr, judge: judge.address, round, plaintiffWins, salt });
  return judge.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "commitVote", args: [commitment] });
}

/** Hidden votes, phase 2: the judge reveals what it committed, with optional reasons. */
export function revealVote(
  caseAddr: Address,
  judge: Actor,
  plaintiffWins: boolean,
  round = 1,
  justification = "",
  salt: Hex = saltOf(caseAddr, judge.address, round),
): Promise<TransactionReceipt> {
  return judge.write({
    address: caseAddr,
    abi: disputeCaseAbi,
    functionName: "revealVote",
    args: [plaintiffWins, salt, justification],
  });
}

/**
 * Hidden votes in full: every listed judge commits, then (the reveal phase opens once all of the
 * panel committed, else at the commit deadline) reveals in order; nothing is decided before the
 * last commitment is opened, so all of them reveal and the last reveal decides if a majority of
 * the panel agrees. `votes` must cover the whole panel for the reveal phase to open early.
 */
export async function commitAndReveal(
  c: CourtDeployment,
  caseAddr: Address,
  votes: [Actor, boolean][],
  round = 1,
): Promise<TransactionReceipt | undefined> {
  for (const [j, v] of votes) await commitVote(caseAddr, j, v, round);
  let last: TransactionReceipt | undefined;
  for (const [j, v] of votes) {
    if ((await readCase(c, caseAddr)).state !== State.Deliberating) break;
    last = await revealVote(caseAddr, j, v, round);
  }
  return last;
}

export function appeal(caseAddr: Address, who: Actor, bond: bigint = P.appealBond): Promise<TransactionReceipt> {
  return who.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "appeal", value: bond });
}

export function settle(caseAddr: Address, by: Actor): Promise<TransactionReceipt> {
  return by.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "settle" });
}

export function triggerDefault(caseAddr: Address, by: Actor): Promise<TransactionReceipt> {
  return by.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "triggerDefault" });
}

export function resolveAfterDeadline(caseAddr: Address, by: Actor): Promise<TransactionReceipt> {
  return by.write({ address: caseAddr, abi: disputeCaseAbi, functionName: "resolveAfterDeadline" });
}

export async function stakeJudges(
  c: CourtDeployment,
  judges: Actor[],
  amount: bigint = parseEther("1"),
  court = 0n,
): Promise<void> {
  // One after another: a stake's gas depends on the tree it lands in (how tall the court's tree is,
  // which leaf it takes), so an estimate made before another stake lands may fall short.
  for (const j of judges) {
    await j.write({
      address: c.registry,
      abi: courtRegistryAbi,
      functionName: "stakeAsJudge",
      args: [court],
      value: amount,
    });
  }
}

/** Files a case between two fresh parties, has it answered and seats a round-1 panel. */
export async function deliberating(
  c: CourtDeployment,
  plaintiff: Actor,
  defendant: Actor,
  judges: Actor[],
  opts: FileOpts & { defendantStake?: bigint } = {},
): Promise<Address> {
  const { caseAddr } = await fileCase(c, plaintiff, defendant.address, opts);
  await respond(caseAddr, defendant, opts.defendantStake);
  await seat(c, caseAddr, judges);
  return caseAddr;
}

type ViewOf<A extends Abi> = ContractFunctionName<A, "pure" | "view">;
type ViewArgs<A extends Abi, F extends ViewOf<A>> = ContractFunctionArgs<A, "pure" | "view", F>;
type ViewResult<A extends Abi, F extends ViewOf<A>> = ContractFunctionReturnType<A, "pure" | "view", F>;

/** `who` calls `functionName` of the contract at `address` (`abi`) with `args` and `value`, as `who.write` does. */
export function callAs<const A extends Abi, F extends ContractFunctionName<A, "nonpayable" | "payable">>(
  who: Actor,
  address: Address,
  abi: A,
  functionName: F,
  args: ContractFunctionArgs<A, "nonpayable" | "payable", F>,
  value?: bigint,
): Promise<TransactionReceipt> {
  return who.write<A, F>({ address, abi, functionName, args, value } as never);
}

/** Reads the view `functionName` of the contract at `address` (`abi`), as `c.reader.readContract` does. */
export function readView<const A extends Abi, F extends ViewOf<A>>(
  c: CourtDeployment,
  address: Address,
  abi: A,
  functionName: F,
  args: ViewArgs<A, F>,
  blockNumber?: bigint,
): Promise<ViewResult<A, F>> {
  return c.reader.readContract({ address, abi, functionName, args, blockNumber } as never) as Promise<ViewResult<A, F>>;
}

export function readCase(c: CourtDeployment, caseAddr: Address) {
  return c.reader.readContract({ address: caseAddr, abi: disputeCaseAbi, functionName: "getCase" });
}

export function readPanel(c: CourtDeployment, caseAddr: Address, round: number) {
  return c.reader.readContract({ address: caseAddr, abi: disputeCaseAbi, functionName: "getPanel", args: [round] });
}

export function readJudge(c: CourtDeployment, judge: Address) {
  return c.reader.readContract({ address: c.registry, abi: courtRegistryAbi, functionName: "getJudge", args: [judge] });
}

export function readAgent(c: CourtDeployment, who: Address) {
  return c.reader.readContract({ address: c.registry, abi: courtRegistryAbi, functionName: "getAgent", args: [who] });
}

export function readOverview(c: CourtDeployment) {
  return c.reader.readContract({ address: c.registry, abi: courtRegistryAbi, functionName: "getOverview" });
}

export function readStats(c: CourtDeployment) {
  return c.reader.readContract({ address: c.factory, abi: caseFactoryAbi, functionName: "getStats" });
}

export async function openCaseAddrs(c: CourtDeployment): Promise<Address[]> {
  const [, open] = await c.reader.readContract({
    address: c.factory,
    abi: caseFactoryAbi,
    functionName: "getOpenCases",
    args: [false, 0, 0n, maxUint256],
  });
  return open.map((s) => s.addr);
}

export function balance(c: CourtDeployment, who: Address): Promise<bigint> {
  return c.reader.getBalance({ address: who });
}

/** What a transaction cost its sender in gas, to the wei. */
export function gasCost(r: TransactionReceipt): bigint {
  return r.gasUsed * r.effectiveGasPrice;
}

export function advance(c: CourtDeployment, seconds: bigint | number): Promise<void> {
  return advanceTime(c.reader, seconds);
}

/** A JSON-RPC call the dev chain (anvil) answers outside viem's typed schema. */
export function rpc<T = unknown>(c: CourtDeployment, method: string, params: unknown[] = []): Promise<T> {
  // biome-ignore lint/suspicious/noExplicitAny: anvil methods are not in viem's public schema
  return (c.reader.request as any)({ method, params });
}

/** Takes a chain snapshot; `revert` goes back to it (and, as anvil does, consumes it). */
export async function snapshot(c: CourtDeployment): Promise<{ revert(): Promise<void> }> {
  const id = await rpc<Hex>(c, "evm_snapshot");
  return {
    revert: async () => {
      if (!(await rpc<boolean>(c, "evm_revert", [id]))) throw new Error(`evm_revert ${id} failed`);
    },
  };
}

/** Mines `blocks` empty blocks at once (one second apart, as the dev chain mines). */
export async function mineBlocks(c: CourtDeployment, blocks: number): Promise<void> {
  await rpc(c, "anvil_mine", [toHex(blocks), toHex(1)]);
}

/** The registry holds exactly the judges' stakes plus the treasury. */
export async function expectRegistryBalanced(c: CourtDeployment): Promise<void> {
  const [held, o] = await Promise.all([balance(c, c.registry), readOverview(c)]);
  expect(held).toBe(o.totalJudgeStake + o.treasury);
}

// ------------------------------------------------------------------ reverts

const allErrors = [
  ...courtRegistryAbi,
  ...caseFactoryAbi,
  ...disputeCaseAbi,
  ...identityRegistryAbi,
  ...reputationRegistryAbi,
  ...courtReputationAbi,
  ...testUSDAbi,
  ...docketArbitratorAbi,
  ...agenticCommerceAbi,
  ...courtEvaluatorAbi,
  ...validationRegistryAbi,
].filter((item) => item.type === "error");

export interface DecodedRevert {
  name: string;
  args: readonly unknown[];
}

/**
 * The custom error a failed contract call reverted with. viem decodes it against the called
 * contract's ABI (`data.errorName`); an error raised by a contract it called in turn (a case
 * behind the factory, the registry behind a case) is decoded here against all three ABIs.
 */
export function decodeRevert(err: unknown): DecodedRevert {
  if (!(err instanceof BaseError)) throw err;
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    if (reverted.data?.errorName) return { name: reverted.data.errorName, args: reverted.data.args ?? [] };
    if (reverted.raw && reverted.raw !== "0x") return decodeRaw(reverted.raw);
    if (reverted.reason) return { name: "Error", args: [reverted.reason] };
    throw err;
  }
  // Not a contract call (a deployment, a raw transaction): the revert data is on the RPC error.
  const withData = err.walk((e) => isHex((e as { data?: unknown }).data));
  const raw = (withData as { data?: unknown } | null)?.data;
  if (isHex(raw) && raw !== "0x") return decodeRaw(raw);
  throw err;
}

function decodeRaw(data: Hex): DecodedRevert {
  const d = decodeErrorResult({ abi: allErrors, data });
  return { name: d.errorName, args: d.args ?? [] };
}

function isHex(v: unknown): v is Hex {
  return typeof v === "string" && /^0x[0-9a-fA-F]*$/.test(v);
}

/** Asserts that `p` rejects with the custom error `name` (and, when given, exactly these args). */
export async function expectRevert(p: Promise<unknown>, name: string, args?: readonly unknown[]): Promise<void> {
  let failure: unknown;
  try {
    await p;
  } catch (e) {
    failure = e;
  }
  if (failure === undefined) throw new Error(`expected a revert with ${name}, but the call succeeded`);
  const got = decodeRevert(failure);
  expect(got.name, `reverted with ${got.name}(${got.args.map(String).join(", ")})`).toBe(name);
  if (args) expect(got.args).toEqual(args);
}

/** One EIP-3009 transfer authorization, as the x402 "exact" scheme's client signs it (docket's own type). */
export type TransferAuthorization = Authorization;

/** EIP-3009's EIP-712 types for `transferWithAuthorization` (what x402 "exact" signs). */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = TRANSFER_WITH_AUTHORIZATION;

/** Signs `auth` with `signer`'s key for `token` (default: the court's fee token), EIP-712 in its own domain. */
export async function signAuthorization(
  c: CourtDeployment,
  signer: Actor,
  auth: TransferAuthorization,
  token: Address = c.feeToken,
): Promise<Hex> {
  const [name, version] = await Promise.all([
    c.reader.readContract({ address: token, abi: testUSDAbi, functionName: "name" }),
    c.reader.readContract({ address: token, abi: testUSDAbi, functionName: "version" }),
  ]);
  return signer.wallet.signTypedData({
    account: signer.account,
    domain: { name, version, chainId: c.devnet.chainId, verifyingContract: token },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message: auth,
  });
}

/** What fileCaseWithAuthorization takes: the authorization's terms and its signature. */
export type FeeAuthorization = {
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
  signature: Hex;
};

/**
 * `payer` signs an authorization of the token fee (or `value`) to the factory (or `to`) under a
 * fresh nonce, valid for ten minutes around the chain's time, as a stock x402 client would.
 */
export async function authorizeTokenFee(
  c: CourtDeployment,
  payer: Actor,
  opts: { to?: Address; value?: bigint; nonce?: Hex; token?: Address } = {},
): Promise<{ auth: TransferAuthorization; signature: Hex; fee: FeeAuthorization }> {
  const now = (await c.reader.getBlock()).timestamp;
  const tokenFee = await c.reader.readContract({
    address: c.factory,
    abi: caseFactoryAbi,
    functionName: "tokenFilingFee",
  });
  const auth: TransferAuthorization = {
    from: payer.address,
    to: opts.to ?? c.factory,
    value: opts.value ?? tokenFee,
    validAfter: now - 600n,
    validBefore: now + 600n,
    nonce: opts.nonce ?? freshRef(),
  };
  const signature = await signAuthorization(c, payer, auth, opts.token);
  const { value, validAfter, validBefore, nonce } = auth;
  return { auth, signature, fee: { value, validAfter, validBefore, nonce, signature } };
}

/** `submitter` hands a signed authorization to the token itself (`transferWithAuthorization`). */
export function submitAuthorization(
  submitter: Actor,
  token: Address,
  auth: TransferAuthorization,
  signature: Hex,
): Promise<TransactionReceipt> {
  const { r, s, v, yParity } = parseSignature(signature);
  return submitter.write({
    address: token,
    abi: testUSDAbi,
    functionName: "transferWithAuthorization",
    args: [
      auth.from,
      auth.to,
      auth.value,
      auth.validAfter,
      auth.validBefore,
      auth.nonce,
      Number(v ?? BigInt(yParity + 27)),
      r,
      s,
    ],
  });
}

/** The balance of `who` in `token` (default: the court's fee token). */
export function tokenBalance(c: CourtDeployment, who: Address, token: Address = c.feeToken): Promise<bigint> {
  return c.reader.readContract({ address: token, abi: testUSDAbi, functionName: "balanceOf", args: [who] });
}
