/**
 * The invariant fuzz's planner: turns a drawn action into one transaction (who sends what to
 * where, with what value) and the refusal the model expects of it at chain time `t`, or null for
 * success, with what the model does when it passes.
 */

import {
  type Abi,
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseEventLogs,
  parseSignature,
  type TransactionReceipt,
  toHex,
} from "viem";
import { voteCommitment } from "../../../src/chain/votes.js";
import { caseTerms } from "../../../src/deploy/terms.js";
import * as kit from "../../contracts/helpers.js";
import { refuserAbi } from "../../contracts/refuser.js";
import { type Action, REFUSER_OPERATORS, type Variant } from "./actions.js";
import type { CaseM } from "./model.js";
import {
  type Agent,
  agent,
  agents,
  bump,
  c,
  coverage,
  fail,
  forcedCase,
  implementation,
  model,
  P,
  same,
  tag,
} from "./state.js";

export interface Plan {
  desc: string;
  from: Agent;
  to: Address;
  data: Hex;
  value: bigint;
  /** The refusal the model expects at chain time `t`, or null for success. */
  expect: string | null;
  onSuccess?: (r: TransactionReceipt) => void;
}

let refCounter = 0;
/** Starts the payment references over (each court's setup). */
export function resetRefs(): void {
  refCounter = 0;
}
export const freshRef = (): Hex => keccak256(toHex(`invariant-ref-${++refCounter}`));

/**
 * The case an action targets: three times in four one where it can apply (when there is one),
 * otherwise any case, so that refusals of every kind keep coming too.
 */
export function pickCase(idx: number, fits: (k: CaseM) => boolean = (k) => model.isOpen(k)): CaseM | undefined {
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
  encodeFunctionData({ abi: kit.disputeCaseAbi as Abi, functionName, args });

function agentOf(a: Address): Agent {
  const found = agents.find((x) => x.addr === a);
  if (!found) fail(`no agent for ${a}`);
  return found;
}

const ZERO_REF: Hex = `0x${"0".repeat(64)}`;

/** Every `${ref}:${payer}` a fee was paid under, in ETH or in the token (to the factory or not). */
export const paidKeys = (): Set<string> => new Set([...model.feesPaid.keys(), ...model.tokenAuths.keys()]);
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
function signAuthorization(signer: Agent["signer"], auth: kit.TransferAuthorization): Promise<Hex> {
  return signer.signTypedData({
    domain: { name: "Docket Test USD", version: "1", chainId: c.devnet.chainId, verifyingContract: c.feeToken },
    types: kit.TRANSFER_WITH_AUTHORIZATION_TYPES,
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
    data: encodeFunctionData({ abi: kit.testUSDAbi, functionName: "transferWithAuthorization", args } as never),
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
      abi: kit.caseFactoryAbi,
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
      const [ev] = parseEventLogs({ abi: kit.caseFactoryAbi, eventName: "CaseFiled", logs: r.logs });
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
    data: encodeFunctionData({ abi: kit.caseFactoryAbi, functionName: "refundToken", args: [c.feeToken, to, value] }),
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
    data: encodeFunctionData({ abi: kit.caseFactoryAbi, functionName: "payFilingFee", args: [ref] }),
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
    data: encodeFunctionData({
      abi: kit.caseFactoryAbi,
      functionName: "fileCase",
      args: [0n, def.addr, claim, hash, ref],
    }),
    value: a.stake,
    expect: model.expectFile(by.addr, def.addr, claim, hash, ref, a.stake),
    onSuccess: (r) => {
      const [ev] = parseEventLogs({ abi: kit.caseFactoryAbi, eventName: "CaseFiled", logs: r.logs });
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
  const k = pickCase(a.c, inState(kit.State.Deliberating));
  if (!k) return "no case";
  const who = hiddenVoter(k, a.who, a.pick);
  const salt = kit.saltOf(k.addr, who.addr, k.round);
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
  const k = pickCase(a.c, inState(kit.State.Deliberating));
  if (!k) return "no case";
  const who = hiddenVoter(k, a.who, a.pick);
  const committed = model.commitsOf(k).get(who.addr);
  const own = kit.saltOf(k.addr, who.addr, k.round);
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
export function plan(a: Action, step: number, t: bigint, b: bigint): Plan | string | Promise<Plan> {
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
      const k = pickCase(a.c, inState(kit.State.Summoned));
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
      const k = pickCase(a.c, inState(kit.State.Active, kit.State.Deliberating));
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
      const k = pickCase(a.c, inState(kit.State.Active, kit.State.Appealed));
      if (!k || a.unknown) {
        const target = agent(a.c).addr;
        return {
          desc: `draw for non-case ${tag(target)} by ${tag(by.addr)}`,
          from: by,
          to: c.factory,
          data: encodeFunctionData({ abi: kit.caseFactoryAbi, functionName: "assignJudgesRandom", args: [target] }),
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
        data: encodeFunctionData({ abi: kit.caseFactoryAbi, functionName: "assignJudgesRandom", args: [k.addr] }),
        value: 0n,
        expect: outcome === "seat" || outcome === "rearm" ? null : outcome,
        onSuccess: (r) => {
          const armed = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "DrawArmed", logs: r.logs });
          const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "JudgesAssigned", logs: r.logs });
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
      const k = pickCase(a.c, inState(kit.State.Active, kit.State.Appealed));
      if (!k || a.unknown) {
        const target = agent(a.c).addr;
        const judges = a.picks.map((p) => agent(p).addr);
        return {
          desc: `assign for non-case ${tag(target)} by ${tag(by.addr)}`,
          from: by,
          to: c.factory,
          data: encodeFunctionData({ abi: kit.caseFactoryAbi, functionName: "assignJudges", args: [target, judges] }),
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
        data: encodeFunctionData({ abi: kit.caseFactoryAbi, functionName: "assignJudges", args: [k.addr, judges] }),
        value: 0n,
        expect: model.expectAssign(k, by.addr, judges, t),
        onSuccess: () => model.seat(k, judges, t),
      };
    }
    case "vote": {
      const k = pickCase(a.c, inState(kit.State.Deliberating));
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
      const k = pickCase(a.c, inState(kit.State.Resolved));
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
        settle: inState(kit.State.Resolved),
        default: inState(kit.State.Summoned),
        resolve: inState(kit.State.Active, kit.State.Deliberating, kit.State.Appealed),
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
            if (k.state === kit.State.Resolved) bump(coverage.passed, "resolve:verdict");
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
        data: encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "stakeAsJudge", args: [a.court] }),
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
        data: encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "unstake" }),
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
        data: encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "selfRegister", args: [name, uri] }),
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
        data: encodeFunctionData({
          abi: kit.courtRegistryAbi,
          functionName: "withdrawTreasury",
          args: [to.addr, amount],
        }),
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
    () =>
      reg(encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "registerCase", args: [x] }), "OnlyFactory"),
    () => reg(encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "judgeAssigned", args: [x] }), "OnlyCase"),
    () => reg(encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "judgeVoted", args: [x] }), "OnlyCase"),
    () =>
      reg(encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "judgeReleased", args: [x, 1] }), "OnlyCase"),
    () =>
      reg(
        encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "creditRewards", args: [[x], 1n] }),
        "OnlyCase",
        1n,
      ),
    () =>
      reg(
        encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "recordParties", args: [x, by.addr, true] }),
        "OnlyCase",
      ),
    () =>
      reg(
        encodeFunctionData({ abi: kit.courtRegistryAbi, functionName: "setFactory", args: [x] }),
        by.addr === model.owner ? "FactoryAlreadySet" : "OnlyOwner",
      ),
    () => ({
      to: c.factory,
      data: encodeFunctionData({
        abi: kit.caseFactoryAbi,
        functionName: "onCaseChanged",
        args: [kit.State.Active, kit.State.Dismissed],
      }),
      expect: "OnlyCase",
      value: 0n,
    }),
    () => ({
      to: target,
      data: encodeFunctionData({
        abi: kit.disputeCaseAbi,
        functionName: "initialize",
        args: [c.registry, c.entropy, by.addr, x, `hijack ${step}`, "bafy-hijack", terms, 1n, 1n, 0n],
      }),
      expect: "AlreadyInitialized",
      value: P.minPartyStake,
    }),
    () => ({
      to: target,
      data: encodeFunctionData({ abi: kit.disputeCaseAbi, functionName: "setJudges", args: [[x, x, x]] }),
      expect: "OnlyFactory",
      value: 0n,
    }),
    () => ({
      to: target,
      data: encodeFunctionData({ abi: kit.disputeCaseAbi, functionName: "drawJudges" }),
      expect: "OnlyFactory",
      value: 0n,
    }),
  ];
  const call = (calls[a.what % calls.length] as () => { to: Address; data: Hex; expect: string; value: bigint })();
  return { desc: `intrude #${a.what} on ${tag(call.to)} by ${tag(by.addr)}`, from: by, ...call };
}
