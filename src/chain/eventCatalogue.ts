/**
 * The one catalogue of the court's contract events: for each event of the contracts docket follows,
 * whether the follower asks the node for it, the type docket pushes for it (`GET /events`, MCP
 * resource updates) and which cached answers it makes stale. The follower (`courtLogs.ts`), the
 * event mapping (`events/fromLogs.ts`), the event types (`events/types.ts`), the cache keys
 * (`operations/keys.ts`) and the docs' event table all read it; `test/events/catalogue.test.ts`
 * fails when an event in the generated ABI is neither here nor in `IGNORED_EVENTS`.
 */

/**
 * The contracts whose events the follower reads (every case is a `case` contract); the last three
 * are arbitration's (docs/arbitration.md): the arbitrator, the ERC-8183 job contract and docket's evaluators.
 */
export type CourtContract = "factory" | "registry" | "case" | "arbitrator" | "commerce" | "evaluator";

/**
 * What a mined event makes stale, by the argument that names it: `filing` (every list and count a
 * new case changes), `case` (args.caseAddr: that case, its lists and its participants), `agent`
 * (args.agent), `judge` (args.judge), `party` (args.party), `stats` (the overview), `params` (the
 * court's parameters: fees, stakes, the fee token a 402 quotes), `court` (the court tree: every
 * court's terms, policy and pool, and the judge pools), `job` (args.jobId: that job, or every job
 * when the event names none; the job lists and the steps built from them).
 */
export type Stale = "filing" | "case" | "agent" | "judge" | "party" | "stats" | "params" | "court" | "job";

export interface CourtEvent {
  contract: CourtContract;
  /** The event type docket pushes; null when it only moves the cache. */
  type: string | null;
  stale: readonly Stale[];
  /** One line for the docs' event table. */
  about: string;
}

/**
 * Every followed event, in the order of the docs' table. A case contract's events are pushed with
 * the case's parties and panel as `addresses`, and make no key stale themselves: each change of a
 * case is also reported by the factory's `CaseChanged`, which does.
 */
export const COURT_EVENTS = {
  CaseFiled: { contract: "factory", type: "case.filed", stale: ["filing"], about: "a case was filed" },
  Responded: { contract: "case", type: "case.responded", stale: [], about: "the defendant staked and answered" },
  EvidenceSubmitted: { contract: "case", type: "evidence.submitted", stale: [], about: "a party added evidence" },
  DrawArmed: { contract: "case", type: "draw.armed", stale: [], about: "a panel draw was armed" },
  JudgesAssigned: { contract: "case", type: "judges.drawn", stale: [], about: "a panel was seated" },
  VoteCommitted: { contract: "case", type: "vote.committed", stale: [], about: "a judge committed a hidden vote" },
  VoteRevealed: { contract: "case", type: "vote.revealed", stale: [], about: "a judge revealed a hidden vote" },
  VoteCast: { contract: "case", type: "vote.cast", stale: [], about: "a judge voted in the open" },
  Verdict: { contract: "case", type: "case.verdict", stale: [], about: "the panel decided" },
  Appealed: { contract: "case", type: "case.appealed", stale: [], about: "the loser appealed" },
  Settled: { contract: "case", type: "case.settled", stale: [], about: "stakes were paid out" },
  Defaulted: { contract: "case", type: "case.defaulted", stale: [], about: "the defendant never answered" },
  Dismissed: { contract: "case", type: "case.dismissed", stale: [], about: "the case was dismissed" },
  FilingFeePaid: {
    contract: "factory",
    type: "filing.fee_paid",
    stale: [],
    about: "a filing fee was paid in the native coin",
  },
  AgentRegistered: {
    contract: "registry",
    type: "agent.registered",
    stale: ["agent"],
    about: "an agent registered",
  },
  AgentUpdated: { contract: "registry", type: "agent.updated", stale: ["agent"], about: "an agent changed its record" },
  JudgeStaked: { contract: "registry", type: "judge.staked", stale: ["judge"], about: "a judge staked" },
  JudgeUnstaked: { contract: "registry", type: "judge.unstaked", stale: ["judge"], about: "a judge left the pool" },
  JudgeSlashed: { contract: "registry", type: "judge.slashed", stale: ["judge"], about: "a judge lost stake" },
  JudgeRewarded: { contract: "registry", type: "judge.rewarded", stale: ["judge"], about: "a judge was paid" },
  CaseChanged: { contract: "factory", type: null, stale: ["case"], about: "any change of a case, with its state" },
  FilingChanged: {
    contract: "factory",
    type: null,
    stale: ["params", "stats"],
    about: "the native filing fee or its recipient changed",
  },
  TokenFeeChanged: {
    contract: "factory",
    type: null,
    stale: ["params", "stats"],
    about: "the token filing fee changed",
  },
  JudgeRecordChanged: { contract: "registry", type: null, stale: ["judge"], about: "a judge's record changed" },
  PartyRecordChanged: { contract: "registry", type: null, stale: ["party"], about: "a party's record changed" },
  TreasuryWithdrawn: { contract: "registry", type: null, stale: ["stats"], about: "the court's fees were withdrawn" },
  CourtCreated: {
    contract: "registry",
    type: null,
    stale: ["court", "params", "stats"],
    about: "the owner created a court",
  },
  CourtChanged: {
    contract: "registry",
    type: null,
    stale: ["court", "params", "stats"],
    about: "the owner changed a court's name, policy or terms (cases filed before keep theirs)",
  },
  ArbitratorChanged: {
    contract: "factory",
    type: null,
    stale: ["params"],
    about: "the owner named the arbitrator whose disputes the factory files",
  },
  DisputeFiled: {
    contract: "arbitrator",
    type: "dispute.filed",
    stale: ["job"],
    about: "an arbitrable contract's dispute was filed as a case",
  },
  RulingDelivered: {
    contract: "arbitrator",
    type: "ruling.delivered",
    stale: ["job"],
    about: "a final ruling reached its arbitrable (`rule` returned)",
  },
  RulingFailed: {
    contract: "arbitrator",
    type: "ruling.failed",
    stale: ["job"],
    about: "the arbitrable's `rule` failed: the ruling is due (deliver_ruling)",
  },
  JobCreated: { contract: "commerce", type: "job.created", stale: ["job"], about: "a client created a job" },
  ProviderSet: { contract: "commerce", type: null, stale: ["job"], about: "the client named the job's provider" },
  BudgetSet: { contract: "commerce", type: null, stale: ["job"], about: "the job's budget was set" },
  JobFunded: { contract: "commerce", type: "job.funded", stale: ["job"], about: "the client escrowed the budget" },
  JobSubmitted: {
    contract: "commerce",
    type: "job.submitted",
    stale: ["job"],
    about: "the provider submitted its work: the challenge window opens",
  },
  JobCompleted: {
    contract: "commerce",
    type: "job.completed",
    stale: ["job"],
    about: "the job completed: the provider was paid",
  },
  JobRejected: {
    contract: "commerce",
    type: "job.rejected",
    stale: ["job"],
    about: "the job was rejected: the client was refunded (once funded)",
  },
  JobExpired: {
    contract: "commerce",
    type: "job.expired",
    stale: ["job"],
    about: "the job expired: the client was refunded",
  },
  JobDisputed: {
    contract: "evaluator",
    type: "job.disputed",
    stale: ["job"],
    about: "the client disputed the work: a case opened",
  },
  JobFinalized: {
    contract: "evaluator",
    type: null,
    stale: ["job"],
    about:
      "the window passed undisputed and the job was finalized: completed (JobCompleted), or rejected and refunded (JobRejected) when the court could not have ruled a dispute filed at the window's end before expiry",
  },
  JobRuled: {
    contract: "evaluator",
    type: "job.ruled",
    stale: ["job"],
    about: "the evaluator applied the ruling: the job completed or was rejected",
  },
} as const satisfies Record<string, CourtEvent>;

export type CourtEventName = keyof typeof COURT_EVENTS;

/** Events of the followed contracts that the follower does not ask for, each with the reason. */
export const IGNORED_EVENTS: Record<CourtContract, Record<string, string>> = {
  factory: {
    // The most common event signature there is: asked for over every address, it brings the whole chain's.
    OwnershipTransferred: "ownership is the owner's business, and its signature is every Ownable's",
    TokenFilingFeeTaken: "the filing it pays for reports CaseFiled, which makes every filing key stale",
    TokenRefunded: "the owner returning stray tokens changes nothing docket serves",
    PartyOffRecord:
      "it comes with the filing's CaseFiled, which makes every filing key stale; the record moves only when the case ends",
  },
  registry: {
    OutcomeHookSet: "no answer docket serves shows the outcome hook",
    OutcomeHookFailed: "the case ends all the same; CourtReputation's FeedbackFailed tells the agent",
  },
  arbitrator: {
    DisputeCreation: "DisputeFiled, in the same transaction, says the same and names the case",
    Ruling: "RulingDelivered or RulingFailed follows in the same transaction",
    ConsentSet:
      "a party's consent changes no answer docket serves until a dispute is filed, which reports DisputeFiled",
  },
  commerce: {
    PaymentReleased: "JobCompleted, in the same transaction, says it",
    Refunded: "JobRejected or JobExpired, in the same transaction, says it",
  },
  evaluator: {
    Ruling: "the arbitrator's RulingDelivered says it (its signature is every arbitrable's)",
    ValidationAnswered: "the ERC-8004 Validation Registry holds the answer; no docket read shows it",
  },
  case: {
    PaymentDeferred: "a payment the case holds for a pull changes nothing docket serves",
    Withdrawn: "a pulled payment changes nothing docket serves",
  },
};

/** The followed events of one contract. */
export function followedOf(contract: CourtContract): CourtEventName[] {
  return (Object.keys(COURT_EVENTS) as CourtEventName[]).filter((n) => COURT_EVENTS[n].contract === contract);
}

/** The catalogue's entry for an event name, if docket follows it. */
export function courtEventOf(name: string | undefined): CourtEvent | undefined {
  return name !== undefined && Object.hasOwn(COURT_EVENTS, name) ? COURT_EVENTS[name as CourtEventName] : undefined;
}

/** The pushed event types, in the catalogue's order. */
export const COURT_EVENT_TYPES = [
  ...new Set(Object.values(COURT_EVENTS).flatMap((e: CourtEvent) => (e.type === null ? [] : [e.type]))),
];

/**
 * The events of a followed contract's ABI that the catalogue neither follows nor ignores: a new
 * contract event must be given a place, or the follower would drop it without a word.
 */
export function uncatalogued(contract: CourtContract, abi: readonly { type: string; name?: string }[]): string[] {
  const followed = new Set<string>(followedOf(contract));
  const ignored = IGNORED_EVENTS[contract];
  return abi
    .filter((x) => x.type === "event")
    .map((x) => x.name as string)
    .filter((n) => !followed.has(n) && !Object.hasOwn(ignored, n));
}
