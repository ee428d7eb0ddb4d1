import { parseEther } from "viem";
import { DEFAULT_JOB_WORK_TIME } from "../chain/jobs.js";

/** Constructor parameters of the court contracts. */
export interface CourtParams {
  responseWindow: bigint;
  deliberationPeriod: bigint;
  appealWindow: bigint;
  courtFeeBps: number;
  judgeRewardBps: number;
  minPartyStake: bigint;
  appealBond: bigint;
  filingFee: bigint;
  minJudgeStake: bigint;
  slashBps: number;
  /** Hidden votes: judges commit a hash, then reveal it (commit-reveal); false = public votes. */
  hiddenVotes: boolean;
  /** With hidden votes: seconds to commit after the panel is seated, then seconds to reveal. */
  commitPeriod: bigint;
  revealPeriod: bigint;
  /** Judges drawn for the first round and for the appeal (odd numbers, the appeal's at least the first's). */
  panelSize: number;
  appealPanelSize: number;
  /** An appeal panel of at least this many judges is drawn from the parent court's pool (0: never). */
  jumpPanelSize: number;
}

/** The General court's id: the root of the court tree, and where a case filed with court 0 goes. */
export const GENERAL_COURT = 1n;
/** The dev world's Agentic Commerce court (created right after the General court). */
export const AGENTIC_COMMERCE_COURT = 2n;

/** A court below the General court, created at deployment: its name, policy file (src/deploy/policies/) and terms. */
export interface ChildCourt {
  name: string;
  policyFile: string;
  /** Its terms; `filingFee` and `slashBps` are the deployment's (the General court's) and unused here. */
  params: CourtParams;
}

/** Short windows so a whole case runs in minutes on the dev chain. */
export const devParams: CourtParams = {
  responseWindow: 300n,
  deliberationPeriod: 600n,
  appealWindow: 300n,
  courtFeeBps: 500,
  judgeRewardBps: 6000,
  minPartyStake: parseEther("0.01"),
  appealBond: parseEther("0.02"),
  filingFee: parseEther("0.001"),
  minJudgeStake: parseEther("0.1"),
  slashBps: 1000,
  hiddenVotes: true,
  commitPeriod: 300n,
  revealPeriod: 300n,
  panelSize: 3,
  appealPanelSize: 5,
  jumpPanelSize: 0,
};

/** The dev chain's filing fee in its test stablecoin (TestUSD, six decimals): 1 dUSD. */
export const DEV_TOKEN_FILING_FEE = 1_000_000n;
/** The dev chain's court-backed ERC-8183 evaluators: seconds after a submission the client may dispute. */
export const DEV_CHALLENGE_WINDOW = 300;
/** A real chain's court-backed evaluators: a day to dispute after a submission (CHALLENGE_WINDOW_SECONDS). */
export const PRODUCTION_CHALLENGE_WINDOW = 86_400;

/**
 * A court's worst case from filing to a final ruling, as `DocketArbitrator.maxDuration` computes it:
 * the response window, the appeal window and two rounds of drawing plus voting, plus the second after
 * a deadline that `resolveAfterDeadline` needs (once for the lapsed appeal and, with hidden votes,
 * once more for the first round counted at its reveal deadline).
 */
export function maxDuration(p: CourtParams): bigint {
  const voting = p.hiddenVotes ? p.commitPeriod + p.revealPeriod : p.deliberationPeriod;
  const lateSeconds = p.hiddenVotes ? 2n : 1n;
  return p.responseWindow + p.appealWindow + 2n * (p.deliberationPeriod + voting) + lateSeconds;
}

/**
 * How long a job judged in a court of these terms lives by default (`work` defaults to a week): the
 * challenge window, the court's worst case and the time to do the work. A job submitted later than
 * its expiry minus window minus worst case cannot be judged, and finalizing it refunds the client
 * (docs/arbitration.md, "When a job can be judged").
 */
export function jobLife(p: CourtParams, challengeWindow: number, work: bigint = DEFAULT_JOB_WORK_TIME): bigint {
  return BigInt(challengeWindow) + maxDuration(p) + work;
}
/** What the seed mints to every dev account but the court's: 1000 dUSD. */
export const DEV_TOKEN_GRANT = 1_000_000_000n;

/** The dev world's General court: public votes, one transaction per vote, as the service interface documents. */
export const devPublicParams: CourtParams = { ...devParams, hiddenVotes: false };

/** Defaults for a real chain: days, not minutes. */
export const productionParams: CourtParams = {
  responseWindow: 7n * 86_400n,
  deliberationPeriod: 14n * 86_400n,
  appealWindow: 3n * 86_400n,
  courtFeeBps: 500,
  judgeRewardBps: 6000,
  minPartyStake: parseEther("0.01"),
  appealBond: parseEther("0.05"),
  filingFee: parseEther("0.001"),
  minJudgeStake: parseEther("0.5"),
  slashBps: 1000,
  hiddenVotes: true,
  commitPeriod: 7n * 86_400n,
  revealPeriod: 7n * 86_400n,
  panelSize: 3,
  appealPanelSize: 5,
  jumpPanelSize: 0,
};

/** The per-case terms the factory copies into each case (its `CaseTerms` struct). */
export function caseTerms(p: CourtParams) {
  return {
    responseWindow: p.responseWindow,
    deliberationPeriod: p.deliberationPeriod,
    appealWindow: p.appealWindow,
    courtFeeBps: p.courtFeeBps,
    judgeRewardBps: p.judgeRewardBps,
    minPartyStake: p.minPartyStake,
    appealBond: p.appealBond,
    hiddenVotes: p.hiddenVotes,
    commitPeriod: p.commitPeriod,
    revealPeriod: p.revealPeriod,
    panelSize: p.panelSize,
    appealPanelSize: p.appealPanelSize,
  };
}

/** What the registry takes for a court (its `CourtConfig` struct). */
export function courtConfig(p: CourtParams) {
  return { minJudgeStake: p.minJudgeStake, jumpPanelSize: p.jumpPanelSize, terms: caseTerms(p) };
}

/**
 * The dev world's courts below the General court: Agentic Commerce, with hidden votes, twice the
 * General court's minimum judge stake, and appeals (five judges) drawn from the General court's pool.
 */
export const devChildCourts: ChildCourt[] = [
  {
    name: "Agentic Commerce",
    policyFile: "agentic-commerce.md",
    params: { ...devParams, hiddenVotes: true, minJudgeStake: parseEther("0.2"), jumpPanelSize: 5 },
  },
];
