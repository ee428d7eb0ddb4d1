/**
 * The contract events docket follows: for each event of the court's contracts, which contract
 * emits it and whether the follower asks the node for it (the events here) or not (`IGNORED_EVENTS`,
 * each with its reason). This is what the chain layer needs to follow and decode logs, nothing
 * more: the type docket pushes for an event is the pushed event types' (`events/types.ts`), what it
 * makes stale is the freshness table's (`freshness/stale.ts`). The follower (`courtLogs.ts`) reads
 * it; `test/events/contractEvents.test.ts` fails when an event in the generated ABI is neither here nor
 * in `IGNORED_EVENTS`, and when a followed event has no push type and no freshness row.
 */

/**
 * The contracts whose events the follower reads (every case is a `case` contract); the last three
 * are arbitration's (docs/arbitration.md): the arbitrator, the ERC-8183 job contract and docket's evaluators.
 */
export type CourtContract = "factory" | "registry" | "case" | "arbitrator" | "commerce" | "evaluator";

export interface FollowedEvent {
  contract: CourtContract;
  /** What the event says, in one line. */
  about: string;
}

/** Every followed event, in the order of the docs' table (docs/events.md). */
export const FOLLOWED_EVENTS = {
  CaseFiled: { contract: "factory", about: "a case was filed" },
  Responded: { contract: "case", about: "the defendant staked and answered" },
  EvidenceSubmitted: { contract: "case", about: "a party added evidence" },
  DrawArmed: { contract: "case", about: "a panel draw was armed" },
  JudgesAssigned: { contract: "case", about: "a panel was seated" },
  VoteCommitted: { contract: "case", about: "a judge committed a hidden vote" },
  VoteRevealed: { contract: "case", about: "a judge revealed a hidden vote" },
  VoteCast: { contract: "case", about: "a judge voted in the open" },
  Verdict: { contract: "case", about: "the panel decided" },
  Appealed: { contract: "case", about: "the loser appealed" },
  Settled: { contract: "case", about: "stakes were paid out" },
  Defaulted: { contract: "case", about: "the defendant never answered" },
  Dismissed: { contract: "case", about: "the case was dismissed" },
  FilingFeePaid: { contract: "factory", about: "a filing fee was paid in the native coin" },
  AgentRegistered: { contract: "registry", about: "an agent registered" },
  AgentUpdated: { contract: "registry", about: "an agent changed its record" },
  JudgeStaked: { contract: "registry", about: "a judge staked" },
  JudgeUnstaked: { contract: "registry", about: "a judge left the pool" },
  JudgeSlashed: { contract: "registry", about: "a judge lost stake" },
  JudgeRewarded: { contract: "registry", about: "a judge was paid" },
  CaseChanged: { contract: "factory", about: "any change of a case, with its state" },
  FilingChanged: { contract: "factory", about: "the native filing fee or its recipient changed" },
  TokenFeeChanged: { contract: "factory", about: "the token filing fee changed" },
  JudgeRecordChanged: { contract: "registry", about: "a judge's record changed" },
  PartyRecordChanged: { contract: "registry", about: "a party's record changed" },
  TreasuryWithdrawn: { contract: "registry", about: "the court's fees were withdrawn" },
  CourtCreated: { contract: "registry", about: "the owner created a court" },
  CourtChanged: {
    contract: "registry",
    about: "the owner changed a court's name, policy or terms (cases filed before keep theirs)",
  },
  ArbitratorChanged: { contract: "factory", about: "the owner named the arbitrator whose disputes the factory files" },
  DisputeFiled: { contract: "arbitrator", about: "an arbitrable contract's dispute was filed as a case" },
  RulingDelivered: { contract: "arbitrator", about: "a final ruling reached its arbitrable (`rule` returned)" },
  RulingFailed: { contract: "arbitrator", about: "the arbitrable's `rule` failed: the ruling is due (deliver_ruling)" },
  JobCreated: { contract: "commerce", about: "a client created a job" },
  ProviderSet: { contract: "commerce", about: "the client named the job's provider" },
  BudgetSet: { contract: "commerce", about: "the job's budget was set" },
  JobFunded: { contract: "commerce", about: "the client escrowed the budget" },
  JobSubmitted: { contract: "commerce", about: "the provider submitted its work: the challenge window opens" },
  JobCompleted: { contract: "commerce", about: "the job completed: the provider was paid" },
  JobRejected: { contract: "commerce", about: "the job was rejected: the client was refunded (once funded)" },
  JobExpired: { contract: "commerce", about: "the job expired: the client was refunded" },
  JobDisputed: { contract: "evaluator", about: "the client disputed the work: a case opened" },
  JobFinalized: {
    contract: "evaluator",
    about:
      "the window passed undisputed and the job was finalized: completed (JobCompleted), or rejected and refunded (JobRejected) when the court could not have ruled a dispute filed at the window's end before expiry",
  },
  JobRuled: { contract: "evaluator", about: "the evaluator applied the ruling: the job completed or was rejected" },
} as const satisfies Record<string, FollowedEvent>;

export type FollowedEventName = keyof typeof FOLLOWED_EVENTS;

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
export function followedOf(contract: CourtContract): FollowedEventName[] {
  return (Object.keys(FOLLOWED_EVENTS) as FollowedEventName[]).filter((n) => FOLLOWED_EVENTS[n].contract === contract);
}

/** The entry for an event name, if docket follows it. */
export function followedEventOf(name: string | undefined): FollowedEvent | undefined {
  return name !== undefined && Object.hasOwn(FOLLOWED_EVENTS, name)
    ? FOLLOWED_EVENTS[name as FollowedEventName]
    : undefined;
}

/**
 * The events of a followed contract's ABI that docket neither follows nor ignores: a new
 * contract event must be given a place, or the follower would drop it without a word.
 */
export function unplaced(contract: CourtContract, abi: readonly { type: string; name?: string }[]): string[] {
  const followed = new Set<string>(followedOf(contract));
  const ignored = IGNORED_EVENTS[contract];
  return abi
    .filter((x) => x.type === "event")
    .map((x) => x.name as string)
    .filter((n) => !followed.has(n) && !Object.hasOwn(ignored, n));
}
