import {
  ACE_HIGH_ONLY_RULES,
  HandClass,
  highEvaluator,
  type HighEvaluator,
  PIQUET_RULES,
  SHORT_DECK_RULES,
  standardHigh,
} from './high.js';
import { rankName, rankPlural, rankRun } from './names.js';
import { bestOmahaByKeys } from './omaha.js';
import type { Ranking, RankingId } from './ranking.js';

const CLASS_NAMES: Record<HandClass, string> = {
  [HandClass.HIGH_CARD]: 'high-card',
  [HandClass.PAIR]: 'pair',
  [HandClass.TWO_PAIR]: 'two-pair',
  [HandClass.THREE_OF_A_KIND]: 'three-of-a-kind',
  [HandClass.STRAIGHT]: 'straight',
  [HandClass.FLUSH]: 'flush',
  [HandClass.FULL_HOUSE]: 'full-house',
  [HandClass.FOUR_OF_A_KIND]: 'four-of-a-kind',
  [HandClass.STRAIGHT_FLUSH]: 'straight-flush',
};

/** "Full house, kings over fives" and the like, from a high-family value. */
export function describeHigh(evaluator: HighEvaluator, value: number): string {
  const { handClass, ranks } = evaluator.decode(value);
  const [first, second] = ranks as [number, number];
  switch (handClass) {
    case HandClass.HIGH_CARD:
      return `High card, ${rankName(first)}`;
    case HandClass.PAIR:
      return `Pair of ${rankPlural(first)}`;
    case HandClass.TWO_PAIR:
      return `Two pair, ${rankPlural(first)} and ${rankPlural(second)}`;
    case HandClass.THREE_OF_A_KIND:
      return `Three of a kind, ${rankPlural(first)}`;
    case HandClass.STRAIGHT:
      return `Straight, ${rankName(first)} high`;
    case HandClass.FLUSH:
      return `Flush, ${rankName(first)} high`;
    case HandClass.FULL_HOUSE:
      return `Full house, ${rankPlural(first)} over ${rankPlural(second)}`;
    case HandClass.FOUR_OF_A_KIND:
      return `Four of a kind, ${rankPlural(first)}`;
    case HandClass.STRAIGHT_FLUSH:
      return first === 12 ? 'Royal flush' : `Straight flush, ${rankName(first)} high`;
  }
}

export function highClassName(evaluator: HighEvaluator, value: number): string {
  const { handClass, ranks } = evaluator.decode(value);
  return handClass === HandClass.STRAIGHT_FLUSH && ranks[0] === 12 ? 'royal-flush' : CLASS_NAMES[handClass];
}

/** A ranking where the best hand is the highest under one set of high rules. */
function highRanking(id: RankingId, build: () => HighEvaluator): Ranking {
  let built: HighEvaluator | undefined;
  const evaluator = (): HighEvaluator => (built ??= build());
  return {
    id,
    handSize: 5,
    evaluate: (cards) => evaluator().value(cards, 0, 5),
    best: (cards) => evaluator().value(cards, 0, cards.length),
    bestOfParts: (own, board) => evaluator().valueOfParts(own, board),
    bestOmaha: (hole, board) => {
      const { rankTable, flushTable } = evaluator();
      return bestOmahaByKeys(hole, board, rankTable, flushTable);
    },
    describe: (value) => describeHigh(evaluator(), value),
    className: (value) => highClassName(evaluator(), value),
  };
}

export const highRankingStandard = highRanking('high', standardHigh);
export const shortDeckRanking = highRanking('shortdeck', () => highEvaluator(SHORT_DECK_RULES));
export const americanaRanking = highRanking('americana', () => highEvaluator(PIQUET_RULES));

const lowballBase = (): HighEvaluator => highEvaluator(ACE_HIGH_ONLY_RULES);
/** One more than the largest high value, so that lowball values stay positive. */
const LOWBALL_TOP = 9 * 13 ** 5 + 2;

/**
 * 2-7 lowball: the lowest hand by the ace-high-only high ranking (straights and flushes count, the ace
 * is only high, A-2-3-4-5 is ace high). The value is mirrored so that the better low is higher.
 */
export const low27Ranking: Ranking = {
  id: 'low27',
  handSize: 5,
  evaluate: (cards) => LOWBALL_TOP - lowballBase().value(cards, 0, 5),
  describe: (value) => {
    const high = LOWBALL_TOP - value;
    const { handClass, ranks } = lowballBase().decode(high);
    return handClass === HandClass.HIGH_CARD ? `${rankRun(ranks)} low` : describeHigh(lowballBase(), high);
  },
  className: (value) => highClassName(lowballBase(), LOWBALL_TOP - value),
};
