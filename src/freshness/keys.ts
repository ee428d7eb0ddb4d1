/**
 * The cache key vocabulary: the key each read is cached under, and the patterns that match every
 * key of one kind. A key is `kind:argument`; a pattern ending in `*` matches every key with that
 * prefix (every page of a list, every judge's stake). What a change makes stale is `stale.ts`'s.
 */

/** The key of one cached read, per operation and arguments. */
export const keyOf = {
  case: (address: string) => `case:${address}`,
  evidence: (address: string) => `evidence:${address}`,
  cases: (offset: number, limit: number) => `cases:${offset}:${limit}`,
  /** A filtered page of cases from the index (list_cases with filters): never stored, keyed apart from the chain's pages. */
  caseQuery: (query: string) => `cases:query:${query}`,
  pending: (cursor: string, limit: number) => `pending:${cursor}:${limit}`,
  /** A judge's record and totals (get_validator_stats, a name the service interface fixes). */
  judgeStats: (address: string) => `judgestats:${address}`,
  agent: (address: string) => `agent:${address}`,
  discover: (offset: number, limit: number) => `discover:${offset}:${limit}`,
  judgeStake: (address: string) => `judgestake:${address}`,
  /** A page of one court's judge pool (get_judge_pool). */
  judgePool: (court: number, offset: number, limit: number) => `judgepool:${court}:${offset}:${limit}`,
  stats: () => "stats",
  /** An address's inbox page (get_inbox): its cases' offset and its jobs' cursor. */
  inbox: (address: string, offset: number, limit: number, jobsCursor = "") =>
    `inbox:${address}:${offset}:${limit}:${jobsCursor}`,
  /** A page of court-wide keeper actions: its cases' cursor and its jobs'. */
  keeper: (cursor: string, limit: number, court?: number, jobsCursor = "") =>
    `keeper:${cursor}:${limit}:${court ?? "all"}:${jobsCursor}`,
  /** Court parameters (minimums, fee, windows), read by several operations. */
  params: () => "params",
  /** The court tree as read from the chain (names, parameters, pools), shared by the court-aware reads. */
  courtTree: () => "courts",
  /** list_courts' answer. */
  courtList: () => "courtlist",
  /** get_court's answer. */
  court: (id: number) => `court:${id}`,
  /** get_job's answer. */
  job: (id: number | string) => `job:${id}`,
  /** A page of list_jobs, with its filters. */
  jobs: (offset: number, limit: number, filter: string) => `jobs:${offset}:${limit}:${filter}`,
  /** get_arbitration_cost's answer. */
  arbitrationCost: (court: number, judges: number) => `arbcost:${court}:${judges}`,
} as const;

/** Patterns matching every key of one kind: all pages of a list, all judges' entries. */
export const everyKey = {
  cases: "cases:*",
  pending: "pending:*",
  discover: "discover:*",
  judgeStats: "judgestats:*",
  judgeStake: "judgestake:*",
  judgePool: "judgepool:*",
  /**
   * Every inbox: a case change concerns its parties and judges, whom a mined event does not name,
   * so every inbox goes (they are short-lived anyway: deadlines pass without events).
   */
  inbox: "inbox:*",
  keeper: "keeper:*",
  court: "court:*",
  job: "job:*",
  jobs: "jobs:*",
  arbitrationCost: "arbcost:*",
  /** The whole cache: a reset chain or a reorg deeper than the follower remembers. */
  all: "*",
} as const;
