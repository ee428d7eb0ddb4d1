/**
 * An independent model of the court contracts for the invariant test: what each case and the
 * registry should hold, which refusal each call should meet (the first failing check, in the
 * contracts' order), and where every wei should go. The test drives the real contracts and
 * compares them with this model after every step.
 *
 * Draws are the contract's (stake-weighted sampling from block-hash entropy): the model does not
 * predict the panel, it reads it back and checks its rules. It does model when a draw may run
 * (armed, entropy ready or expired), whether enough judges had weight when it was armed, and the
 * checkpointed weights the draw reads.
 */
import type { Address, Hex } from "viem";
import { AGENTIC_COMMERCE_COURT, type CourtParams, devChildCourts, GENERAL_COURT } from "../../../src/deploy/terms.js";
import { State } from "../../contracts/helpers.js";

export const BPS = 10_000n;
export const PANEL_SIZE = 3;
export const APPEAL_PANEL_SIZE = 5;
/** Evidence items each party may add in each round (DisputeCase.MAX_EVIDENCE_PER_PARTY_ROUND). */
export const MAX_EVIDENCE_PER_PARTY_ROUND = 16;
export const MAX_HASH_LENGTH = 128;
export const MAX_CLAIM_LENGTH = 2000;
export const MAX_NAME_LENGTH = 64;
export const MAX_URI_LENGTH = 512;
export const MAX_JUSTIFICATION_LENGTH = 512;
/** A block hash is readable for this many blocks after its own. */
export const BLOCKHASH_WINDOW = 256n;

/** Vote codes, as stored by the case. */
export const FOR_PLAINTIFF = 1;
export const FOR_DEFENDANT = 2;
/** In views only: committed, not revealed. */
export const COMMITTED = 3;

export const Outcome = { None: 0, PlaintiffWon: 1, DefendantWon: 2, Dismissed: 3 } as const;

/** How a judge's service on a round ended (JudgeResult). */
type Release = "Majority" | "Minority" | "NoShow" | "Unscored";

export interface CaseM {
  addr: Address;
  plaintiff: Address;
  defendant: Address;
  state: number;
  outcome: number;
  round: 1 | 2;
  plaintiffStake: bigint;
  defendantStake: bigint;
  bondPaid: bigint;
  appellant: Address;
  appealUsed: boolean;
  settled: boolean;
  filedAt: bigint;
  resolvedAt: bigint;
  responseDeadline: bigint;
  deliberationDeadline: bigint;
  appealDeadline: bigint;
  evidence: number;
  /** Evidence items added, by `${round}:${party}` (capped per party and round). */
  evidenceBy: Map<string, number>;
  /** Panels by round: [round 1, round 2]. */
  panels: [Address[], Address[]];
  votes: [Map<Address, number>, Map<Address, number>];
  /** Hidden votes: what each judge committed to, by round (the test knows every salt). */
  commits: [Map<Address, Commit>, Map<Address, Commit>];
  /** Reasons given with a reveal, by round (only non-empty ones are stored). */
  justifications: [Map<Address, string>, Map<Address, string>];
  commitDeadline: bigint;
  revealDeadline: bigint;
  /** The armed draw: BlockhashEntropy's ticket (the arming block) and the pool block (the same). */
  drawTicket: bigint;
  drawPoolBlock: bigint;
  firstRoundLoser: Address | null;
  owed: Map<Address, bigint>;
  /** The token fee its filing forwarded to the fee recipient (0 when the fee was paid in ETH). */
  tokenFee: bigint;
  /** Payout events (Settled, Defaulted, Dismissed) seen in receipts. */
  payoutEvents: number;
}

export interface Commit {
  commitment: Hex;
  /** The vote and salt behind it, when the committer made it honestly (a copy has neither). */
  plaintiffWins?: boolean;
  salt?: Hex;
}

/** The child court's minimum judge stake (the dev world's Agentic Commerce court, below General). */
const CHILD_MIN = (devChildCourts[0] as { params: CourtParams }).params.minJudgeStake;

export interface JudgeM {
  /** The judge's stake in all courts together. */
  stake: bigint;
  /** Its stake per court, [court, stake], in the order it first staked there (rewards go to the first). */
  courts: [bigint, bigint][];
  activeCases: number;
  inList: boolean;
  /** Draw weight checkpoints: [block, weight] in block order, as the registry's sortition tree. */
  weights: [bigint, bigint][];
}

/** How a draw that may run ends: seats a panel, or re-arms because the entropy expired. */
export type DrawOutcome = "seat" | "rearm";

const ZERO = "0x0000000000000000000000000000000000000000" as const;

export class CourtModel {
  cases: CaseM[] = [];
  judges = new Map<Address, JudgeM>();
  /** Expected ETH balance of every tracked address (accounts, refusers, registry, cases). */
  balances = new Map<Address, bigint>();
  /** Refusing test parties: whether each accepts plain ETH now. EOAs are absent (always accept). */
  accepting = new Map<Address, boolean>();
  /** keccak(ref, plaintiff) stand-in: `${ref}:${plaintiff}` → case. */
  usedRefs = new Map<string, Address>();
  /** Filing fees paid, by the same key: `${ref}:${payer}` → amount. */
  feesPaid = new Map<string, bigint>();
  /**
   * Used EIP-3009 authorizations of the fee token, by `${nonce}:${authorizer}`: where each moved
   * its value and how much (the token itself keeps only that the nonce is used, as USDC does).
   */
  tokenAuths = new Map<string, { to: Address; value: bigint }>();
  /**
   * Token payments that reached the factory outside a filing (an authorization to it submitted to
   * the token directly), in order, until the owner refunds them: the only tokens it ever holds.
   */
  strays: { payer: Address; value: bigint }[] = [];
  /** Expected fee-token balance of every tracked address. */
  tokens = new Map<Address, bigint>();
  /** The fee recipient's token balance when the sequence began. */
  recipientTokensAtStart = 0n;
  /** The factory's token filing fee (it never changes here). */
  tokenFee = 0n;
  registered = new Set<Address>();
  treasury = 0n;
  totalJudgeStake = 0n;
  agentCount = 0n;
  /** Latest block timestamp and number. */
  now = 0n;
  block = 0n;
  gasSpent = 0n;
  /** Sum of every tracked balance when the sequence began. */
  initialTotal = 0n;
  /** Payments the model expects a case to defer, and PaymentDeferred events seen. */
  deferred = 0;
  deferredEvents = 0;

  constructor(
    readonly p: CourtParams,
    readonly registry: Address,
    readonly factory: Address,
    readonly owner: Address,
    /** Receives filing fees (the deployer, i.e. the owner, on the dev chain). */
    readonly feeRecipient: Address,
  ) {}

  /** A deep copy, to restore along with a chain snapshot. */
  clone(): CourtModel {
    const copy = structuredClone({ ...this });
    return Object.assign(Object.create(CourtModel.prototype) as CourtModel, copy);
  }

  // ------------------------------------------------------------------ helpers

  judge(a: Address): JudgeM {
    let j = this.judges.get(a);
    if (!j) {
      j = { stake: 0n, courts: [], activeCases: 0, inList: false, weights: [] };
      this.judges.set(a, j);
    }
    return j;
  }

  /** A court's minimum judge stake: the General court's terms, or the child court's. */
  courtMin(court: bigint): bigint {
    return court === AGENTIC_COMMERCE_COURT ? CHILD_MIN : this.p.minJudgeStake;
  }

  /** Eligible in the General court: a stake in some court reaches that court's minimum. */
  eligible(a: Address): boolean {
    const j = this.judges.get(a);
    return !!j && j.inList && j.courts.some(([c, s]) => s >= this.courtMin(c));
  }

  /** `a`'s draw weight in the General court now: its stakes that reach their court's minimum, in every court. */
  weight(a: Address): bigint {
    const j = this.judges.get(a);
    if (!j?.inList) return 0n;
    return j.courts.reduce((sum, [c, s]) => (s >= this.courtMin(c) ? sum + s : sum), 0n);
  }

  /** Records `a`'s draw weight in the General court from the current block on. */
  syncWeight(a: Address): void {
    const j = this.judge(a);
    const w = this.weight(a);
    const last = j.weights[j.weights.length - 1];
    if (last && last[1] === w) return;
    if (last && last[0] === this.block) last[1] = w;
    else j.weights.push([this.block, w]);
  }

  /** `a`'s draw weight at the end of block `b`. */
  weightAt(a: Address, b: bigint): bigint {
    let w = 0n;
    for (const [at, v] of this.judge(a).weights) if (at <= b) w = v;
    return w;
  }

  byAddr(addr: Address): CaseM | undefined {
    return this.cases.find((c) => c.addr === addr);
  }

  private move(from: Address, to: Address, amount: bigint): void {
    this.balances.set(from, (this.balances.get(from) ?? 0n) - amount);
    this.balances.set(to, (this.balances.get(to) ?? 0n) + amount);
  }

  chargeGas(payer: Address, cost: bigint): void {
    this.balances.set(payer, (this.balances.get(payer) ?? 0n) - cost);
    this.gasSpent += cost;
  }

  /** Sends `value` with a call (the operator's wallet pays for a refusing party's calls). */
  sendValue(payer: Address, to: Address, value: bigint): void {
    if (value > 0n) this.move(payer, to, value);
  }

  held(c: CaseM): bigint {
    return this.balances.get(c.addr) ?? 0n;
  }

  owedTotal(c: CaseM): bigint {
    let s = 0n;
    for (const v of c.owed.values()) s += v;
    return s;
  }

  panelSize(c: CaseM): number {
    return c.round === 1 ? PANEL_SIZE : APPEAL_PANEL_SIZE;
  }

  panel(c: CaseM, round: 1 | 2 = c.round): Address[] {
    return round === 1 ? c.panels[0] : c.panels[1];
  }

  votesOf(c: CaseM, round: 1 | 2 = c.round): Map<Address, number> {
    return round === 1 ? c.votes[0] : c.votes[1];
  }

  commitsOf(c: CaseM, round: 1 | 2 = c.round): Map<Address, Commit> {
    return round === 1 ? c.commits[0] : c.commits[1];
  }

  justificationsOf(c: CaseM, round: 1 | 2 = c.round): Map<Address, string> {
    return round === 1 ? c.justifications[0] : c.justifications[1];
  }

  /** The vote code a view shows for `j`: its revealed vote, else 3 if it committed, else 0. */
  voteCode(c: CaseM, j: Address, round: 1 | 2 = c.round): number {
    return this.votesOf(c, round).get(j) ?? (this.commitsOf(c, round).has(j) ? COMMITTED : 0);
  }

  tally(c: CaseM, round: 1 | 2 = c.round): [bigint, bigint] {
    let p = 0n;
    let d = 0n;
    for (const v of this.votesOf(c, round).values()) {
      if (v === FOR_PLAINTIFF) p++;
      else d++;
    }
    return [p, d];
  }

  /** Can the case still change (the factory's open list)? */
  isOpen(c: CaseM): boolean {
    if (c.state === State.Resolved) return !c.settled;
    return c.state !== State.Defaulted && c.state !== State.Dismissed;
  }

  /** The open cases `who` takes part in, as a party or a seated judge of either round (the factory's index). */
  involvedIn(who: Address): Address[] {
    const takesPart = (k: CaseM) =>
      k.plaintiff === who || k.defendant === who || k.panels[0].includes(who) || k.panels[1].includes(who);
    return this.cases.filter((k) => this.isOpen(k) && takesPart(k)).map((k) => k.addr);
  }

  /** getStatus().mayAppeal: the round-1 loser while the verdict is unsettled in round 1, else zero. */
  mayAppeal(c: CaseM): Address {
    return c.state === State.Resolved && c.round === 1 && !c.settled ? (c.firstRoundLoser ?? ZERO) : ZERO;
  }

  /**
   * getStatus().drawStatus read in block `b`: while a panel is awaited, the armed draw's entropy
   * (pending in the arming block, expired once its hash is out of reach), else 255.
   */
  drawStatus(c: CaseM, b: bigint): number {
    if (c.state !== State.Active && c.state !== State.Appealed) return 255;
    if (b <= c.drawTicket) return 0;
    return b > c.drawTicket + BLOCKHASH_WINDOW ? 2 : 1;
  }

  /** Who a draw must pass over: the parties and, on appeal, round one's judges. */
  excluded(c: CaseM): Address[] {
    return [c.plaintiff, c.defendant, ...(c.round === 2 ? this.panel(c, 1) : [])];
  }

  /** Judges the owner may seat on `c` now: eligible, not a party, not a round-1 judge on appeal. */
  drawable(c: CaseM): Address[] {
    const out: Address[] = [];
    for (const [a] of this.judges) {
      if (!this.eligible(a)) continue;
      if (this.excluded(c).includes(a)) continue;
      out.push(a);
    }
    return out;
  }

  /** Judges the armed draw may seat: weight at the pool block, still eligible, not excluded. */
  drawPool(c: CaseM): Address[] {
    return this.drawable(c).filter((a) => this.weightAt(a, c.drawPoolBlock) > 0n);
  }

  /** A payment the case pushes: refused by a refusing party, it is kept in `owed`. */
  private pay(c: CaseM, to: Address, amount: bigint): void {
    if (amount === 0n) return;
    if (this.accepting.get(to) === false) {
      c.owed.set(to, (c.owed.get(to) ?? 0n) + amount);
      this.deferred++;
      return;
    }
    this.move(c.addr, to, amount);
  }

  private release(caseAddr: Address, judge: Address, result: Release): void {
    const j = this.judge(judge);
    j.activeCases -= 1;
    if (j.activeCases < 0) throw new Error(`model: ${judge} released more often than assigned (${caseAddr})`);
    if (result === "Minority" || result === "NoShow") {
      // slashBps of each court stake, each rounded down.
      let amount = 0n;
      for (const entry of j.courts) {
        const cut = (entry[1] * BigInt(this.p.slashBps)) / BPS;
        entry[1] -= cut;
        amount += cut;
      }
      if (amount === 0n) return;
      j.stake -= amount;
      this.totalJudgeStake -= amount;
      this.treasury += amount;
      this.syncWeight(judge);
    }
  }

  /**
   * Ends every judge's service on the case, every round, against the final outcome (`winning`, a
   * vote code, or null for a dismissal): with it a voter is in the majority or the minority. A
   * judge with no counted vote is a no-show with hidden votes (it had the whole reveal phase: no
   * round is decided before every commitment is opened or the reveal phase is over), whatever the
   * round and whether it committed or not; with public votes it is one only when the round ended
   * with no verdict (`currentNoShows`: a dismissal, or an appeal that lapsed), in the current round,
   * and is otherwise unscored (the majority formed before its turn).
   */
  private releaseAll(c: CaseM, winning: number | null, currentNoShows: boolean): void {
    for (const r of [1, 2] as const) {
      if (r > c.round) break;
      for (const j of this.panel(c, r)) {
        const cast = this.votesOf(c, r).get(j);
        let result: Release = "Unscored";
        if (cast !== undefined) {
          if (winning !== null) result = cast === winning ? "Majority" : "Minority";
        } else if (this.p.hiddenVotes || (currentNoShows && r === c.round)) {
          result = "NoShow";
        }
        this.release(c.addr, j, result);
      }
    }
  }

  // ----------------------------------------------------------- expectations

  expectPayFee(by: Address, ref: Hex, value: bigint): string | null {
    if (/^0x0+$/.test(ref)) return "PaymentRefRequired";
    if (value < this.p.filingFee) return "FilingFeeTooLow";
    if (this.feesPaid.has(`${ref}:${by}`)) return "FilingFeeAlreadyPaid";
    // Filed already, with a token fee: paying in ETH now would take the fee for nothing.
    if (this.usedRefs.has(`${ref}:${by}`)) return "PaymentRefUsed";
    return null;
  }

  /** A `transferWithAuthorization` from `from` under `nonce` (signed by `from`, inside its window). */
  expectTokenPay(from: Address, nonce: Hex, value: bigint): string | null {
    if (this.tokenAuths.has(`${nonce}:${from}`)) return "AuthorizationAlreadyUsed";
    if ((this.tokens.get(from) ?? 0n) < value) return "InsufficientBalance";
    return null;
  }

  /**
   * fileCaseWithAuthorization by `by` with an authorization `signer` signed (`to`, `value`, window,
   * `nonce`), mined at time `t`: the filing's own checks, then the factory's fee checks, then the
   * token's (window, signature over from = the caller and to = the factory, balance), then the stake.
   */
  expectTokenFile(
    by: Address,
    f: { defendant: Address; claim: string; hash: string; stake: bigint },
    a: { signer: Address; to: Address; value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex },
    t: bigint,
  ): string | null {
    const filing = this.expectFiling(by, f.defendant, f.claim, f.hash, a.nonce);
    if (filing) return filing;
    const key = `${a.nonce}:${by}`;
    if (this.feesPaid.has(key)) return "FilingFeeAlreadyPaid";
    if (a.value < this.tokenFee) return "TokenFeeTooLow";
    if (this.tokenAuths.has(key)) {
      // Issue #31, item 5: a nonce the token used already files when the factory checks the caller's
      // signature over a transfer to itself and holds the value (someone submitted it first).
      if (a.signer !== by || a.to !== this.factory) return "AuthorizationUsed";
      if (this.tokenFeesHeld() < a.value) return "TokenFeeTooLow";
      if (f.stake < this.p.minPartyStake) return "StakeBelowMinimum";
      return null;
    }
    if (t <= a.validAfter) return "AuthorizationNotYetValid";
    if (t >= a.validBefore) return "AuthorizationExpired";
    if (a.signer !== by || a.to !== this.factory) return "InvalidSignature";
    if ((this.tokens.get(by) ?? 0n) < a.value) return "InsufficientBalance";
    if (f.stake < this.p.minPartyStake) return "StakeBelowMinimum";
    return null;
  }

  /** refundToken by `by` (the owner alone) of `value` to `to`; the factory holds the strays alone. */
  expectRefund(by: Address, value: bigint): string | null {
    if (by !== this.owner) return "OnlyOwner";
    if (value > this.tokenFeesHeld()) return "InsufficientBalance";
    return null;
  }

  expectFile(by: Address, defendant: Address, claim: string, hash: string, ref: Hex, value: bigint): string | null {
    const filing = this.expectFiling(by, defendant, claim, hash, ref);
    if (filing) return filing;
    // Only a fee paid in ETH: a token fee is paid by fileCaseWithAuthorization itself.
    if (!this.feesPaid.has(`${ref}:${by}`)) return "FilingFeeNotPaid";
    if (value < this.p.minPartyStake) return "StakeBelowMinimum";
    return null;
  }

  /** What both ways to file check first: the filing itself, and a reference unused by its caller. */
  private expectFiling(by: Address, defendant: Address, claim: string, hash: string, ref: Hex): string | null {
    if (defendant === ZERO || defendant === by) return "InvalidDefendant";
    if (claim.length === 0) return "ClaimRequired";
    if (claim.length > MAX_CLAIM_LENGTH) return "ClaimTooLong";
    if (hash.length === 0 || hash.length > MAX_HASH_LENGTH) return "EvidenceHashInvalid";
    if (/^0x0+$/.test(ref)) return "PaymentRefRequired";
    if (this.usedRefs.has(`${ref}:${by}`)) return "PaymentRefUsed";
    return null;
  }

  expectRespond(c: CaseM, by: Address, value: bigint, t: bigint): string | null {
    if (c.state !== State.Summoned) return "WrongState";
    if (by !== c.defendant) return "OnlyDefendant";
    if (t > c.responseDeadline) return "ResponseWindowClosed";
    if (value < this.p.minPartyStake) return "StakeBelowMinimum";
    return null;
  }

  expectEvidence(c: CaseM, by: Address, hash: string): string | null {
    if (by !== c.plaintiff && by !== c.defendant) return "OnlyParty";
    if (c.state !== State.Active && c.state !== State.Deliberating) return "WrongState";
    if (hash.length === 0 || hash.length > MAX_HASH_LENGTH) return "EvidenceHashInvalid";
    if ((c.evidenceBy.get(`${c.round}:${by}`) ?? 0) >= MAX_EVIDENCE_PER_PARTY_ROUND) return "TooMuchEvidence";
    return null;
  }

  expectTriggerDefault(c: CaseM, t: bigint): string | null {
    if (c.state !== State.Summoned) return "WrongState";
    if (t <= c.responseDeadline) return "ResponseWindowStillOpen";
    return null;
  }

  expectAppeal(c: CaseM, by: Address, value: bigint, t: bigint): string | null {
    if (c.state !== State.Resolved) return "WrongState";
    if (c.appealUsed) return "AppealAlreadyUsed";
    if (by !== c.firstRoundLoser) return "OnlyLosingParty";
    if (t > c.appealDeadline) return "AppealWindowClosed";
    if (value !== this.p.appealBond) return "WrongAppealBond";
    return null;
  }

  expectSettle(c: CaseM, t: bigint): string | null {
    if (c.state !== State.Resolved) return "WrongState";
    if (c.settled) return "WrongState";
    if (t <= c.appealDeadline) return "AppealWindowStillOpen";
    return null;
  }

  expectWithdraw(c: CaseM, by: Address): string | null {
    if ((c.owed.get(by) ?? 0n) === 0n) return "NothingToWithdraw";
    if (this.accepting.get(by) === false) return "Error: DisputeCase: withdrawal transfer failed";
    return null;
  }

  private expectAwaitingPanel(c: CaseM, t: bigint): string | null {
    const expected = c.round === 1 ? State.Active : State.Appealed;
    if (c.state !== expected) return "WrongState";
    if (t > c.deliberationDeadline) return "DeliberationClosed";
    return null;
  }

  /** What a draw executed in block `b` at time `t` does: a refusal, or how it succeeds. */
  expectDraw(c: CaseM, t: bigint, b: bigint): string | DrawOutcome {
    const awaiting = this.expectAwaitingPanel(c, t);
    if (awaiting) return awaiting;
    if (b <= c.drawTicket) return "DrawNotReady";
    if (b > c.drawTicket + BLOCKHASH_WINDOW) return "rearm";
    if (this.drawPool(c).length < this.panelSize(c)) return "NotEnoughJudges";
    return "seat";
  }

  expectAssign(c: CaseM, by: Address, judges: Address[], t: bigint): string | null {
    if (by !== this.owner) return "OnlyOwner";
    const awaiting = this.expectAwaitingPanel(c, t);
    if (awaiting) return awaiting;
    if (judges.length !== this.panelSize(c)) return "WrongPanelSize";
    for (const [i, j] of judges.entries()) {
      if (!this.eligible(j)) return "JudgeNotEligible";
      if (j === c.plaintiff || j === c.defendant) return "JudgeIsParty";
      if (c.round === 2 && this.panel(c, 1).includes(j)) return "JudgeAlreadyServed";
      if (judges.slice(0, i).includes(j)) return "DuplicateJudge";
    }
    return null;
  }

  expectVote(c: CaseM, by: Address, t: bigint): string | null {
    if (c.state !== State.Deliberating) return "WrongState";
    if (this.p.hiddenVotes) return "VotesAreHidden";
    if (!this.panel(c).includes(by)) return "NotAssignedJudge";
    if (this.votesOf(c).has(by)) return "AlreadyVoted";
    if (t > c.deliberationDeadline) return "DeliberationClosed";
    return null;
  }

  expectCommit(c: CaseM, by: Address, commitment: Hex, t: bigint): string | null {
    if (c.state !== State.Deliberating) return "WrongState";
    if (!this.p.hiddenVotes) return "VotesArePublic";
    if (!this.panel(c).includes(by)) return "NotAssignedJudge";
    if (this.commitsOf(c).has(by)) return "AlreadyCommitted";
    if (/^0x0+$/.test(commitment)) return "InvalidCommitment";
    if (t > c.commitDeadline) return "CommitPhaseClosed";
    return null;
  }

  /** `matches`: the revealed (vote, salt) hash to the judge's commitment. */
  expectReveal(c: CaseM, by: Address, justificationBytes: number, matches: boolean, t: bigint): string | null {
    if (c.state !== State.Deliberating) return "WrongState";
    if (!this.p.hiddenVotes) return "VotesArePublic";
    if (!this.commitsOf(c).has(by)) return "NotCommitted";
    if (this.votesOf(c).has(by)) return "AlreadyVoted";
    if (t <= c.commitDeadline && this.commitsOf(c).size < this.panelSize(c)) return "RevealPhaseNotOpen";
    if (t > c.revealDeadline) return "DeliberationClosed";
    if (justificationBytes > MAX_JUSTIFICATION_LENGTH) return "JustificationTooLong";
    if (!matches) return "CommitmentMismatch";
    return null;
  }

  expectResolve(c: CaseM, t: bigint): string | null {
    if (c.state !== State.Active && c.state !== State.Deliberating && c.state !== State.Appealed) {
      return "WrongState";
    }
    if (t <= c.deliberationDeadline) return "DeadlineNotReached";
    return null;
  }

  expectStake(by: Address, value: bigint, court: bigint = GENERAL_COURT): string | null {
    const total = (this.judge(by).courts.find(([c]) => c === court)?.[1] ?? 0n) + value;
    if (value === 0n || total < this.courtMin(court)) return "StakeBelowMinimum";
    return null;
  }

  expectUnstake(by: Address): string | null {
    const j = this.judge(by);
    if (j.stake === 0n) return "NothingStaked";
    if (j.activeCases > 0) return "JudgeServingOnOpenCase";
    // Issue #31: every case here is in the General court, which every stake counts in, so any
    // armed draw still waiting for its panel holds every judge in the pool.
    if (this.cases.some((k) => k.state === State.Active || k.state === State.Appealed)) return "DrawPendingInCourt";
    if (this.accepting.get(by) === false) return "TransferFailed";
    return null;
  }

  expectRegister(name: string, uri: string): string | null {
    if (name.length === 0) return "NameRequired";
    if (name.length > MAX_NAME_LENGTH) return "NameTooLong";
    if (uri.length > MAX_URI_LENGTH) return "UriTooLong";
    return null;
  }

  expectTreasury(by: Address, to: Address, amount: bigint): string | null {
    if (by !== this.owner) return "OnlyOwner";
    if (amount > this.treasury) return "AmountExceedsTreasury";
    if (this.accepting.get(to) === false) return "TransferFailed";
    return null;
  }

  // -------------------------------------------------------------- transitions

  payFee(by: Address, payer: Address, ref: Hex, value: bigint): void {
    this.feesPaid.set(`${ref}:${by}`, value);
    this.sendValue(payer, this.feeRecipient, value);
  }

  tokenPay(from: Address, to: Address, nonce: Hex, value: bigint): void {
    this.tokenAuths.set(`${nonce}:${from}`, { to, value });
    this.moveTokens(from, to, value);
    if (to === this.factory) this.strays.push({ payer: from, value });
  }

  /** The owner returned `value` of the strays to `to`: the oldest first. */
  refund(to: Address, value: bigint): void {
    this.moveTokens(this.factory, to, value);
    this.takeStrays(undefined, value);
  }

  /** `value` of the strays leaves the factory: `payer`'s own first, then the oldest. */
  private takeStrays(payer: Address | undefined, value: bigint): void {
    let left = value;
    while (left > 0n) {
      const i = this.strays.findIndex((x) => x.payer === payer);
      const at = Math.max(i, 0);
      const first = this.strays[at] as { payer: Address; value: bigint };
      // biome-ignore lint/complexity/useMathMinMax: Math.min takes no bigints
      const taken = first.value < left ? first.value : left;
      first.value -= taken;
      left -= taken;
      if (first.value === 0n) this.strays.splice(at, 1);
    }
  }

  /** A filing paid with `by`'s authorization: the fee goes from `by` to the fee recipient in it. */
  tokenFile(
    addr: Address,
    by: Address,
    payer: Address,
    defendant: Address,
    nonce: Hex,
    value: bigint,
    stake: bigint,
    t: bigint,
  ) {
    const key = `${nonce}:${by}`;
    if (this.tokenAuths.has(key)) {
      // Filed with a fee someone submitted to the token first: the factory forwards what it holds.
      this.moveTokens(this.factory, this.feeRecipient, value);
      this.takeStrays(by, value);
    } else {
      this.tokenAuths.set(key, { to: this.factory, value });
      this.moveTokens(by, this.feeRecipient, value);
    }
    this.file(addr, by, payer, defendant, nonce, stake, t, value);
  }

  moveTokens(from: Address, to: Address, value: bigint): void {
    this.tokens.set(from, (this.tokens.get(from) ?? 0n) - value);
    this.tokens.set(to, (this.tokens.get(to) ?? 0n) + value);
  }

  /** The tokens the factory holds: only strays (a filing forwards its fee in its own transaction). */
  tokenFeesHeld(): bigint {
    return this.strays.reduce((sum, x) => sum + x.value, 0n);
  }

  file(
    addr: Address,
    by: Address,
    payer: Address,
    defendant: Address,
    ref: Hex,
    value: bigint,
    t: bigint,
    tokenFee = 0n,
  ) {
    this.usedRefs.set(`${ref}:${by}`, addr);
    this.sendValue(payer, addr, value);
    this.cases.push({
      addr,
      plaintiff: by,
      defendant,
      state: State.Summoned,
      outcome: Outcome.None,
      round: 1,
      plaintiffStake: value,
      defendantStake: 0n,
      bondPaid: 0n,
      appellant: ZERO,
      appealUsed: false,
      settled: false,
      filedAt: t,
      resolvedAt: 0n,
      responseDeadline: t + this.p.responseWindow,
      deliberationDeadline: 0n,
      appealDeadline: 0n,
      evidence: 0,
      evidenceBy: new Map(),
      panels: [[], []],
      votes: [new Map(), new Map()],
      commits: [new Map(), new Map()],
      justifications: [new Map(), new Map()],
      commitDeadline: 0n,
      revealDeadline: 0n,
      drawTicket: 0n,
      drawPoolBlock: 0n,
      firstRoundLoser: null,
      owed: new Map(),
      tokenFee,
      payoutEvents: 0,
    });
  }

  /** The case arms its draw in block `b`: BlockhashEntropy's ticket is the block itself. */
  private arm(c: CaseM, b: bigint): void {
    c.drawTicket = b;
    c.drawPoolBlock = b;
  }

  respond(c: CaseM, payer: Address, value: bigint, t: bigint, b: bigint): void {
    this.sendValue(payer, c.addr, value);
    c.defendantStake = value;
    this.arm(c, b);
    c.deliberationDeadline = t + this.p.deliberationPeriod;
    c.state = State.Active;
  }

  /** An expired draw, executed: armed afresh in block `b`, nobody seated. */
  rearm(c: CaseM, b: bigint): void {
    this.arm(c, b);
  }

  evidenceAdded(c: CaseM, by: Address): void {
    c.evidence += 1;
    const key = `${c.round}:${by}`;
    c.evidenceBy.set(key, (c.evidenceBy.get(key) ?? 0) + 1);
  }

  triggerDefault(c: CaseM, t: bigint): void {
    c.outcome = Outcome.PlaintiffWon;
    c.resolvedAt = t;
    c.settled = true;
    c.state = State.Defaulted;
    this.pay(c, c.plaintiff, c.plaintiffStake);
  }

  appeal(c: CaseM, by: Address, payer: Address, value: bigint, t: bigint, b: bigint): void {
    this.sendValue(payer, c.addr, value);
    c.appealUsed = true;
    c.appellant = by;
    c.bondPaid = value;
    c.round = 2;
    c.outcome = Outcome.None;
    c.resolvedAt = 0n;
    c.deliberationDeadline = t + this.p.deliberationPeriod;
    this.arm(c, b);
    c.state = State.Appealed;
  }

  seat(c: CaseM, judges: Address[], t: bigint): void {
    this.panel(c).push(...judges);
    for (const j of judges) this.judge(j).activeCases += 1;
    if (this.p.hiddenVotes) {
      c.commitDeadline = t + this.p.commitPeriod;
      c.revealDeadline = c.commitDeadline + this.p.revealPeriod;
      c.deliberationDeadline = c.revealDeadline;
    } else {
      c.deliberationDeadline = t + this.p.deliberationPeriod;
    }
    c.state = State.Deliberating;
  }

  commit(c: CaseM, judge: Address, commit: Commit): void {
    this.commitsOf(c).set(judge, commit);
  }

  /** A revealed vote counts as a public one does, its reasons kept when given. */
  reveal(c: CaseM, judge: Address, plaintiffWins: boolean, justification: string, t: bigint): void {
    if (justification.length > 0) this.justificationsOf(c).set(judge, justification);
    this.vote(c, judge, plaintiffWins, t);
  }

  /**
   * Counts a vote. Public votes: the vote that gives a side a majority of the panel decides. Hidden
   * votes: nothing is decided while a commitment of the round is unopened; the reveal that opens
   * the last one decides for the side with a majority of the panel, if any, whichever side that
   * reveal took.
   */
  vote(c: CaseM, judge: Address, plaintiffWins: boolean, t: bigint): void {
    this.votesOf(c).set(judge, plaintiffWins ? FOR_PLAINTIFF : FOR_DEFENDANT);
    if (this.p.hiddenVotes) {
      if (this.votesOf(c).size < this.commitsOf(c).size) return;
      const side = this.majority(c);
      if (side !== null) this.verdict(c, side, t);
      return;
    }
    const [p, d] = this.tally(c);
    const count = plaintiffWins ? p : d;
    if (count * 2n > BigInt(this.panelSize(c))) this.verdict(c, plaintiffWins, t);
  }

  /** The side a majority of the current panel voted for (true: the plaintiff), or null. */
  majority(c: CaseM): boolean | null {
    const [p, d] = this.tally(c);
    const size = BigInt(this.panelSize(c));
    if (p * 2n > size) return true;
    if (d * 2n > size) return false;
    return null;
  }

  /** A majority decides the round; nobody is scored until the outcome is final. */
  private verdict(c: CaseM, plaintiffWins: boolean, t: bigint): void {
    c.outcome = plaintiffWins ? Outcome.PlaintiffWon : Outcome.DefendantWon;
    c.resolvedAt = t;
    if (c.round === 1) {
      c.firstRoundLoser = plaintiffWins ? c.defendant : c.plaintiff;
      c.appealDeadline = t + this.p.appealWindow;
      c.state = State.Resolved;
    } else {
      const { winner, payout } = this.settleBooks(c, false);
      c.state = State.Resolved;
      this.pay(c, winner, payout);
    }
  }

  private settleBooks(c: CaseM, currentNoShows: boolean): { winner: Address; payout: bigint } {
    c.settled = true;
    const plaintiffWins = c.outcome === Outcome.PlaintiffWon;
    const winner = plaintiffWins ? c.plaintiff : c.defendant;
    const pot = c.plaintiffStake + c.defendantStake + c.bondPaid;
    const fee = (pot * BigInt(this.p.courtFeeBps)) / BPS;
    const rewardPool = (fee * BigInt(this.p.judgeRewardBps)) / BPS;
    const winning = plaintiffWins ? FOR_PLAINTIFF : FOR_DEFENDANT;
    const rewarded: Address[] = [];
    for (const r of [1, 2] as const) {
      if (r > c.round) break;
      for (const j of this.panel(c, r)) if (this.votesOf(c, r).get(j) === winning) rewarded.push(j);
    }
    const each = rewarded.length === 0 ? 0n : rewardPool / BigInt(rewarded.length);
    // Scored (and slashed) first, then the rewards are credited, as the case does.
    this.releaseAll(c, winning, currentNoShows);
    for (const j of rewarded) {
      const m = this.judge(j);
      m.stake += each;
      // Into the first court the judge is staked in (the General court if none).
      const first = m.courts[0];
      if (first) first[1] += each;
      else {
        m.courts.push([GENERAL_COURT, each]);
        m.inList = true;
      }
      this.syncWeight(j);
    }
    const paid = each * BigInt(rewarded.length);
    this.totalJudgeStake += paid;
    this.treasury += fee - paid;
    this.move(c.addr, this.registry, fee);
    return { winner, payout: pot - fee };
  }

  settle(c: CaseM): void {
    const { winner, payout } = this.settleBooks(c, false);
    this.pay(c, winner, payout);
  }

  /**
   * After the deadline: on a hidden-vote court still deliberating, a majority of the panel among
   * the revealed votes is the verdict (as if the reveals had decided: round one can be appealed,
   * round two is final and paid out). Otherwise an appeal lapses: round one's verdict stands and
   * is paid out, the bond in the pot (#26 hole 1: an appeal without a panel never helps the
   * appellant); a first round is dismissed.
   */
  resolveAfterDeadline(c: CaseM, t: bigint): void {
    if (this.p.hiddenVotes && c.state === State.Deliberating) {
      const side = this.majority(c);
      if (side !== null) {
        this.verdict(c, side, t);
        return;
      }
    }
    if (c.round === 2) {
      c.outcome = c.firstRoundLoser === c.defendant ? Outcome.PlaintiffWon : Outcome.DefendantWon;
      c.resolvedAt = t;
      const { winner, payout } = this.settleBooks(c, true);
      c.state = State.Resolved;
      this.pay(c, winner, payout);
      return;
    }
    this.releaseAll(c, null, true);
    c.outcome = Outcome.Dismissed;
    c.resolvedAt = t;
    c.settled = true;
    c.state = State.Dismissed;
    this.pay(c, c.plaintiff, c.plaintiffStake);
    if (c.defendantStake > 0n) this.pay(c, c.defendant, c.defendantStake);
    if (c.bondPaid > 0n) this.pay(c, c.appellant, c.bondPaid);
  }

  withdraw(c: CaseM, by: Address): void {
    const amount = c.owed.get(by) ?? 0n;
    c.owed.set(by, 0n);
    this.move(c.addr, by, amount);
  }

  stake(by: Address, payer: Address, value: bigint, court: bigint = GENERAL_COURT): void {
    const j = this.judge(by);
    this.sendValue(payer, this.registry, value);
    const entry = j.courts.find(([c]) => c === court);
    if (entry) entry[1] += value;
    else j.courts.push([court, value]);
    j.stake += value;
    this.totalJudgeStake += value;
    j.inList = true;
    this.syncWeight(by);
  }

  unstake(by: Address): void {
    const j = this.judge(by);
    this.move(this.registry, by, j.stake);
    this.totalJudgeStake -= j.stake;
    j.stake = 0n;
    j.courts = [];
    j.inList = false;
    this.syncWeight(by);
  }

  register(by: Address): void {
    if (!this.registered.has(by)) {
      this.registered.add(by);
      this.agentCount += 1n;
    }
  }

  withdrawTreasury(to: Address, amount: bigint): void {
    this.treasury -= amount;
    this.move(this.registry, to, amount);
  }
}
