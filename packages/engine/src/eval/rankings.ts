import { badugiRanking } from './badugi.js';
import { draw32Ranking } from './draw32.js';
import { americanaRanking, highRankingStandard, low27Ranking, shortDeckRanking } from './high-rankings.js';
import { low8Ranking, lowA5Ranking } from './low.js';
import type { Ranking, RankingId } from './ranking.js';
import { sokoRanking } from './soko.js';
import { telesinaRanking } from './telesina.js';

/** Every ranking by its id: the closed registry the games choose from. */
export const RANKINGS = {
  high: highRankingStandard,
  low8: low8Ranking,
  low27: low27Ranking,
  lowA5: lowA5Ranking,
  shortdeck: shortDeckRanking,
  americana: americanaRanking,
  soko: sokoRanking,
  telesina: telesinaRanking,
  draw32: draw32Ranking,
  badugi: badugiRanking,
} satisfies Record<RankingId, Ranking>;

export const rankingOf = (id: RankingId): Ranking => RANKINGS[id];
