import { rankOf, type Rank } from '../cards.js';
import { HandClass } from './high.js';
import type { Ranking } from './ranking.js';
import { pushSuitStrengths, suitRanked32 } from './telesina.js';

/**
 * 32-card draw: the 32-card high ranking (flush above full house, A-7-8-9-T the lowest straight), and
 * suits, hearts > diamonds > clubs > spades, break every tie as the rules say. The rules' tie-breaks
 * already separate any two hands without a common card, so the hands of one deal never tie; to make the
 * order total over all hands (two that share a card included) the suits of all five cards, from the
 * highest rank down, come last.
 */

/** The rank of the card whose suit the rules name as the tie-break after the ranks, or -1 (none for some classes). */
function decidingRank(handClass: HandClass, ranks: readonly Rank[]): number {
  switch (handClass) {
    case HandClass.STRAIGHT_FLUSH:
    case HandClass.FLUSH:
    case HandClass.STRAIGHT:
    case HandClass.HIGH_CARD:
      return ranks[0]!; // the top card
    case HandClass.TWO_PAIR:
      return ranks[2]!; // the side card
    case HandClass.PAIR:
      return ranks[1]!; // the highest side card
    default:
      return -1; // quads, full houses and trips cannot be equal in rank
  }
}

export const draw32Ranking: Ranking = suitRanked32({
  id: 'draw32',
  digitCount: 11,
  tieBreak(cards, handClass, ranks, out) {
    let end = 0;
    for (let i = 0; i < 5; i++) out[end++] = ranks[i]!;
    const deciding = decidingRank(handClass, ranks);
    if (deciding >= 0) end = pushSuitStrengths(cards, deciding, out, end);
    // Then the suits of all the cards, from the highest rank down.
    let mask = 0;
    for (let i = 0; i < cards.length; i++) mask |= 1 << rankOf(cards[i]!);
    while (mask !== 0) {
      const rank = 31 - Math.clz32(mask);
      end = pushSuitStrengths(cards, rank, out, end);
      mask &= ~(1 << rank);
    }
    return end;
  },
  rankOffset: () => 0,
});
