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
};

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
  };
}
