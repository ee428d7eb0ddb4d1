/**
 * Validator ranks, highest first: the first row whose thresholds a judge meets is its rank.
 * accuracy = votes with the panel majority / scored votes, as a whole percentage.
 */
export const RANKS = [
  { rank: "CHIEF", minValidated: 50, minAccuracy: 90 },
  { rank: "SENIOR", minValidated: 20, minAccuracy: 75 },
  { rank: "ASSOCIATE", minValidated: 5, minAccuracy: 60 },
  { rank: "JUNIOR", minValidated: 1, minAccuracy: 0 },
  { rank: "UNRANKED", minValidated: 0, minAccuracy: 0 },
] as const;

export type Rank = (typeof RANKS)[number]["rank"];

export function accuracyOf(won: number, lost: number): number {
  return won + lost === 0 ? 0 : Math.round((100 * won) / (won + lost));
}

export function rankOf(totalValidated: number, accuracy: number): Rank {
  for (const r of RANKS) if (totalValidated >= r.minValidated && accuracy >= r.minAccuracy) return r.rank;
  return "UNRANKED";
}
