/**
 * Judge ranks, highest first: the first row whose thresholds a judge meets is its rank (`minJudged`:
 * the cases it judged, the answer's `totalValidated`, a name the service interface fixes).
 * accuracy = votes with the panel majority / scored votes, as a whole percentage.
 */
export const RANKS = [
  { rank: "CHIEF", minJudged: 50, minAccuracy: 90 },
  { rank: "SENIOR", minJudged: 20, minAccuracy: 75 },
  { rank: "ASSOCIATE", minJudged: 5, minAccuracy: 60 },
  { rank: "JUNIOR", minJudged: 1, minAccuracy: 0 },
  { rank: "UNRANKED", minJudged: 0, minAccuracy: 0 },
] as const;

export type Rank = (typeof RANKS)[number]["rank"];

export function accuracyOf(won: number, lost: number): number {
  return won + lost === 0 ? 0 : Math.round((100 * won) / (won + lost));
}

export function rankOf(judged: number, accuracy: number): Rank {
  for (const r of RANKS) if (judged >= r.minJudged && accuracy >= r.minAccuracy) return r.rank;
  return "UNRANKED";
}
