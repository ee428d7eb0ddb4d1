import { parseEther } from "viem";

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
};

/** The dev chain's filing fee in its test stablecoin (TestUSD, six decimals): 1 dUSD. */
export const DEV_TOKEN_FILING_FEE = 1_000_000n;
/** What the seed mints to every dev account but the court's: 1000 dUSD. */
export const DEV_TOKEN_GRANT = 1_000_000_000n;

/** The dev chain's terms with public votes (`DEV_VOTES=public`): one transaction per vote. */
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
  };
}
