/**
 * The invariant test's checks of the status views (inbox and keeper): every agent's index of
 * involved cases is the model's set of open cases it is a party to or judged in, getCaseStatuses
 * lists exactly the open cases, and each case's getStatus agrees with its getCase on every field
 * they share and with the model on what only it says (who may appeal, where the draw stands).
 */
import type { Address, ContractFunctionParameters, ContractFunctionReturnType } from "viem";
import { caseFactoryAbi, disputeCaseAbi } from "../../contracts/helpers.js";
import type { CourtModel } from "./model.js";

export type CaseStatus = ContractFunctionReturnType<typeof disputeCaseAbi, "view", "getStatus">;
type Page = readonly [bigint, bigint, readonly CaseStatus[]];

/** The getCase fields getStatus repeats, as the invariant test reads them. */
export interface SharedView {
  state: number;
  plaintiff: Address;
  defendant: Address;
  round: number;
  hiddenVotes: boolean;
  settled: boolean;
  appealUsed: boolean;
  responseDeadline: bigint;
  deliberationDeadline: bigint;
  commitDeadline: bigint;
  revealDeadline: bigint;
  appealDeadline: bigint;
  drawPoolBlock: bigint;
  votesCommitted: bigint;
  evidenceCount: bigint;
  judges: readonly Address[];
  votes: readonly { vote: number }[];
}

export interface StatusWorld {
  /** getInvolvedCases(agent, 0, all) of every agent, and involvedCount. */
  involved: Map<Address, { page: Page; count: bigint }>;
  /** getCaseStatuses(0, all). */
  statuses: Page;
  /** getStatus of every case the model knows. */
  byCase: Map<Address, CaseStatus>;
}

/** More than any sequence files, so one page is everything. */
const ALL = 10_000n;

/**
 * Adds the status reads to the invariant test's one multicall (`at` appends a call and returns its
 * index); the returned function picks the answers out of the results.
 */
export function statusCalls(
  at: (call: ContractFunctionParameters) => number,
  factory: Address,
  agents: readonly Address[],
  cases: readonly Address[],
): (res: readonly unknown[]) => StatusWorld {
  const involvedAt = agents.map((a) => ({
    page: at({ address: factory, abi: caseFactoryAbi, functionName: "getInvolvedCases", args: [a, 0n, ALL] }),
    count: at({ address: factory, abi: caseFactoryAbi, functionName: "involvedCount", args: [a] }),
  }));
  const statusesAt = at({ address: factory, abi: caseFactoryAbi, functionName: "getCaseStatuses", args: [0n, ALL] });
  const caseAt = cases.map((k) => at({ address: k, abi: disputeCaseAbi, functionName: "getStatus" }));
  return (res) => ({
    involved: new Map(
      agents.map((a, n) => {
        const i = involvedAt[n] as { page: number; count: number };
        return [a, { page: res[i.page] as Page, count: res[i.count] as bigint }];
      }),
    ),
    statuses: res[statusesAt] as Page,
    byCase: new Map(cases.map((k, n) => [k, res[caseAt[n] as number] as CaseStatus])),
  });
}

type Same = (got: unknown, want: unknown, what: string) => void;

/** Every field, so two statuses compare with `===`. */
function key(s: CaseStatus): string {
  return JSON.stringify(s, (_, v) => (typeof v === "bigint" ? v.toString() : v));
}

const sorted = (xs: readonly Address[]) => [...xs].sort().join(",");

export function checkStatusViews(
  s: StatusWorld,
  model: CourtModel,
  views: Map<Address, SharedView>,
  chain: { time: bigint; block: bigint },
  same: Same,
  tag: (a: Address) => string,
): void {
  for (const k of model.cases) {
    const st = s.byCase.get(k.addr) as CaseStatus;
    const v = views.get(k.addr) as SharedView;
    const name = `${tag(k.addr)} getStatus`;
    same(st.addr, k.addr, `${name}.addr`);
    for (const f of [
      "state",
      "plaintiff",
      "defendant",
      "round",
      "hiddenVotes",
      "settled",
      "appealUsed",
      "responseDeadline",
      "deliberationDeadline",
      "commitDeadline",
      "revealDeadline",
      "appealDeadline",
      "drawPoolBlock",
      "votesCommitted",
      "evidenceCount",
    ] as const) {
      same(st[f], v[f], `${name}.${f} vs getCase`);
    }
    same(st.judges.join(","), v.judges.join(","), `${name}.judges vs getCase`);
    same(st.votes.join(","), v.votes.map((x) => x.vote).join(","), `${name}.votes vs getCase`);
    same(st.mayAppeal, model.mayAppeal(k), `${name}.mayAppeal`);
    same(st.drawStatus, model.drawStatus(k, chain.block), `${name}.drawStatus`);
  }

  const [total, chainTime, page] = s.statuses;
  const open = model.cases.filter((k) => model.isOpen(k)).map((k) => k.addr);
  same(total, BigInt(open.length), "getCaseStatuses total");
  same(chainTime, chain.time, "getCaseStatuses chainTime");
  same(sorted(page.map((x) => x.addr)), sorted(open), "getCaseStatuses vs the model's open cases");
  for (const x of page) same(key(x), key(s.byCase.get(x.addr) as CaseStatus), `getCaseStatuses entry ${tag(x.addr)}`);

  for (const [
    a,
    {
      page: [n, time, list],
      count,
    },
  ] of s.involved) {
    const who = `involved index of ${tag(a)}`;
    same(sorted(list.map((x) => x.addr)), sorted(model.involvedIn(a)), `${who} vs the model`);
    same(n, BigInt(list.length), `${who} total`);
    same(count, n, `${who} involvedCount`);
    same(time, chain.time, `${who} chainTime`);
    for (const x of list) same(key(x), key(s.byCase.get(x.addr) as CaseStatus), `${who} entry ${tag(x.addr)}`);
  }
}
