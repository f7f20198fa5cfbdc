import { ACE, rankOf, suitOf, type Card, type Rank } from '../cards.js';
import { HandClass, popcount, standardHigh, topRanks } from './high.js';
import { highRankingStandard } from './high-rankings.js';
import { rankName } from './names.js';
import type { Ranking } from './ranking.js';
import { subsetBest, subsetBestOfParts } from './telesina.js';

/**
 * Sökö (Canadian stud): the standard high ranking with two more classes between two pair and one pair,
 * a four-flush above a four-straight. Values extend the standard ones (position * 13^5 + tie-break ranks
 * + 1): high card and one pair keep theirs, the four-straight takes position 2, the four-flush position 3,
 * and two pair and better move up two positions. Suits never break ties.
 */
const STRIDE = 13 ** 5;
const FOUR_STRAIGHT = 2;
const FOUR_FLUSH = 3;
/** The largest standard value of one pair: above it, two pair or better. */
const PAIR_TOP = 2 * STRIDE;
const SHIFT = 2 * STRIDE;
/** A-2-3-4: the ace plays low, the four (rank 2) is the top. */
const LOW_FOUR = (1 << ACE) | 0b111;
const LOW_FOUR_TOP: Rank = 2;

/** The tie-break ranks written as the standard evaluator writes them, in the class at `position`. */
const slot = (position: number, ranks: readonly Rank[]): number =>
  position * STRIDE + standardHigh().encode(HandClass.HIGH_CARD, ranks);

const positionOf = (value: number): number => Math.floor((value - 1) / STRIDE);

function rankMask(cards: readonly Card[]): number {
  let mask = 0;
  for (const card of cards) mask |= 1 << rankOf(card);
  return mask;
}

const rankSum = (ranks: readonly Rank[]): number => ranks.reduce((sum, rank) => sum + rank, 0);

/** Four cards of one suit (high to low), then the fifth card. */
function fourFlush(cards: readonly Card[]): number | null {
  for (let suit = 0; suit < 4; suit++) {
    const suited = cards.filter((card) => suitOf(card) === suit);
    if (suited.length !== 4) continue;
    const fifth = cards.find((card) => suitOf(card) !== suit)!;
    return slot(FOUR_FLUSH, [...topRanks(rankMask(suited)), rankOf(fifth)]);
  }
  return null;
}

/** Four consecutive ranks (the top one), then the fifth card, which may pair one of them. */
function fourStraight(cards: readonly Card[]): number | null {
  const mask = rankMask(cards);
  if (popcount(mask) < 4) return null;
  const fifth = (window: number): Rank => rankSum(cards.map(rankOf)) - rankSum(topRanks(window));
  for (let top = ACE; top >= 3; top--) {
    const window = 0b1111 << (top - 3);
    if ((mask & window) === window) return slot(FOUR_STRAIGHT, [top, fifth(window)]);
  }
  return (mask & LOW_FOUR) === LOW_FOUR ? slot(FOUR_STRAIGHT, [LOW_FOUR_TOP, fifth(LOW_FOUR)]) : null;
}

/** The standard value of a Sökö value outside the two extra classes. */
const standardOf = (value: number): number => (positionOf(value) > FOUR_FLUSH ? value - SHIFT : value);

const topOf = (value: number): Rank => standardHigh().decode(value - positionOf(value) * STRIDE).ranks[0]!;

function evaluateSoko(cards: readonly Card[]): number {
  const standard = standardHigh().value(cards, 0, 5);
  if (standard > PAIR_TOP) return standard + SHIFT;
  // A hand that is both a four-flush and a four-straight counts as the better one.
  return fourFlush(cards) ?? fourStraight(cards) ?? standard;
}

export const sokoRanking: Ranking = {
  id: 'soko',
  handSize: 5,
  evaluate: evaluateSoko,
  best: (cards) => subsetBest(evaluateSoko, 5, cards),
  bestOfParts: (own, board) => subsetBestOfParts(evaluateSoko, 5, own, board),
  describe(value, cards) {
    switch (positionOf(value)) {
      case FOUR_FLUSH:
        return `Four-flush, ${rankName(topOf(value))} high`;
      case FOUR_STRAIGHT:
        return `Four-straight, ${rankName(topOf(value))} high`;
      default:
        return highRankingStandard.describe(standardOf(value), cards);
    }
  },
  className(value) {
    switch (positionOf(value)) {
      case FOUR_FLUSH:
        return 'four-flush';
      case FOUR_STRAIGHT:
        return 'four-straight';
      default:
        return highRankingStandard.className(standardOf(value));
    }
  },
};
