import type { DocketEvent } from "../events/types.js";
import { fmt } from "./format.js";

/**
 * A court event in words, for the overview's latest events: who did what (a judge's vote and its
 * side, a party's answer and its stake), the actor named by the address the event carries.
 */
export interface EventLine {
  /** The address that acted, to show by name and link (a judge's page for a judge's act). */
  who: string | null;
  /** Whether `who` acted as a judge. */
  judge: boolean;
  what: string;
}

const str = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : null);
const eth = (v: unknown) => (typeof v === "string" && /^\d+$/.test(v) ? fmt.eth(v) : "");
const side = (plaintiffWins: unknown) => (plaintiffWins === true ? "the plaintiff" : "the defendant");
const OUTCOMES = ["no verdict", "the plaintiff won", "the defendant won", "dismissed"];

export function eventLine(e: DocketEvent): EventLine {
  const d = e.data;
  const as = (who: unknown, what: string, judge = false): EventLine => ({ who: str(who), judge, what });
  switch (e.type) {
    case "case.filed":
      return as(d.plaintiff, `filed a case, staking ${eth(d.stake)}`);
    case "case.responded":
      return as(d.defendant, `answered as the defendant, staking ${eth(d.stake)}`);
    case "evidence.submitted":
      return as(d.submitter, "added evidence");
    case "draw.armed":
      return as(null, `round ${d.round}: the panel's draw armed`);
    case "judges.assigned":
      return as(
        null,
        `round ${d.round}: a panel of ${fmt.count(Array.isArray(d.judges) ? d.judges.length : 0, "judge")} drawn`,
      );
    case "vote.cast":
      return as(d.judge, `voted for ${side(d.plaintiffWins)}`, true);
    case "vote.committed":
      return as(d.judge, "committed a hidden vote", true);
    case "vote.revealed":
      return as(d.judge, `revealed a vote for ${side(d.plaintiffWins)}`, true);
    case "case.verdict":
      return as(null, `verdict of round ${d.round}: ${OUTCOMES[Number(d.outcome)] ?? "given"}`);
    case "case.appealed":
      return as(d.appellant, `appealed, with a bond of ${eth(d.bond)}`);
    case "case.settled":
      return as(d.winner, `was paid ${eth(d.payout)} as the winner`);
    case "case.defaulted":
      return as(d.plaintiff, "won by default: the defendant never answered");
    case "case.dismissed":
      return as(null, "the case was dismissed, stakes refunded");
    case "filing.fee_paid":
      return as(d.payer, "paid a filing fee");
    case "agent.registered":
      return as(d.agent ?? e.addresses[0], "registered as an agent");
    case "agent.updated":
      return as(d.agent ?? e.addresses[0], "updated its agent record");
    case "judge.staked":
      return as(d.judge, `staked ${eth(d.amount)} as a judge`, true);
    case "judge.unstaked":
      return as(d.judge, `unstaked ${eth(d.amount)}`, true);
    case "judge.slashed":
      return as(d.judge, `was slashed ${eth(d.amount)}`, true);
    case "judge.rewarded":
      return as(d.judge, `was rewarded ${eth(d.amount)} for voting with the verdict`, true);
    case "dispute.filed":
      return as(d.arbitrable, `opened dispute ${d.disputeID ?? ""} as a case`);
    case "ruling.delivered":
      return as(null, "the ruling was delivered to the contract that asked for it");
    case "ruling.failed":
      return as(null, "the ruling could not be delivered (anyone may retry)");
    default:
      // A job's step: job.funded → "job funded".
      return as(null, e.type.replace(".", " "));
  }
}
