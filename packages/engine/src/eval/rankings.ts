import { americanaRanking, highRankingStandard, low27Ranking, shortDeckRanking } from './high-rankings.js';
import { low8Ranking, lowA5Ranking } from './low.js';
import type { Ranking, RankingId } from './ranking.js';

/** Every ranking by its id: the closed registry the games choose from. */
export const RANKINGS = {
  high: highRankingStandard,
  low8: low8Ranking,
  low27: low27Ranking,
  lowA5: lowA5Ranking,
  shortdeck: shortDeckRanking,
  americana: americanaRanking,
} satisfies Partial<Record<RankingId, Ranking>>;

export function rankingOf(id: RankingId): Ranking {
  const ranking: Ranking | undefined = (RANKINGS as Partial<Record<RankingId, Ranking>>)[id];
  if (!ranking) throw new Error(`ranking ${id} is not registered`);
  return ranking;
}
