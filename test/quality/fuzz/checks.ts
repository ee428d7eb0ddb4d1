/**
 * The invariant fuzz's checks: reads the whole world in one multicall and holds it against the
 * model and against itself (balances to the wei, conservation, the registry's books, the views, the
 * draws and the panels), failing with the last steps.
 */

import type { Address, ContractFunctionParameters } from "viem";
import { multicall3Abi } from "../../../src/chain/abi/generated.js";
import { MULTICALL3_ADDRESS } from "../../../src/chain/client.js";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi, State, testUSDAbi } from "../../contracts/helpers.js";
import { refuserAbi } from "../../contracts/refuser.js";
import { paidKeys } from "./planner.js";

const ZERO_ADDR: Address = `0x${"0".repeat(40)}`;

import { agents, c, coverage, fail, implementation, model, P, same, tag } from "./state.js";
import { checkStatusViews, type StatusWorld, statusCalls } from "./status.js";

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

export interface World {
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
  /** getOpenCases' total (the open set's size, whatever the page). */
  openTotal: bigint;
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
export async function readWorld(): Promise<World> {
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
  const poolAt = at({ address: c.registry, abi: courtRegistryAbi, functionName: "getJudgePool", args: [0n, 10_000n] });
  const statsAt = at({ address: c.factory, abi: caseFactoryAbi, functionName: "getStats" });
  const openAt = at({
    address: c.factory,
    abi: caseFactoryAbi,
    functionName: "getOpenCases",
    args: [false, 0, 0n, 10_000n],
  });
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
    pool: r<readonly [bigint, bigint, readonly { addr: Address }[]]>(poolAt)[2].map((j) => j.addr),
    stats: r(statsAt),
    openTotal: r<readonly [bigint, readonly { addr: Address }[]]>(openAt)[0],
    open: r<readonly [bigint, readonly { addr: Address }[]]>(openAt)[1].map((s) => s.addr),
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

export function checkWorld(w: World): void {
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
  same(w.openTotal, w.stats.openCases, "getOpenCases total vs stats.openCases");
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
