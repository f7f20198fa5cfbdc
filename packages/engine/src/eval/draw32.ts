import { rankOf, type Card, type Rank } from '../cards.js';
import { HandClass, topRanks } from './high.js';
import { suitRanked32, suitStrengths } from './telesina.js';

/**
 * 32-card draw: the 32-card high ranking (flush above full house, A-7-8-9-T the lowest straight), and
 * suits, hearts > diamonds > clubs > spades, break every tie as the rules say. The rules' tie-breaks
 * already separate any two hands without a common card, so the hands of one deal never tie; to make the
 * order total over all hands (two that share a card included) the suits of all five cards, from the
 * highest rank down, come last.
 */

/** The rank of the card whose suit the rules name as the tie-break after the ranks (none for some classes). */
function decidingRanks(handClass: HandClass, ranks: readonly Rank[]): Rank[] {
  switch (handClass) {
    case HandClass.STRAIGHT_FLUSH:
    case HandClass.FLUSH:
    case HandClass.STRAIGHT:
    case HandClass.HIGH_CARD:
      return [ranks[0]!]; // the top card
    case HandClass.TWO_PAIR:
      return [ranks[2]!]; // the side card
    case HandClass.PAIR:
      return [ranks[1]!]; // the highest side card
    default:
      return []; // quads, full houses and trips cannot be equal in rank
  }
}

const rankMask = (cards: readonly Card[]): number =>
  cards.reduce((mask, card) => mask | (1 << rankOf(card)), 0);

export const draw32Ranking = suitRanked32({
  id: 'draw32',
  digitCount: 11,
  tieBreak: (cards, handClass, ranks) => [
    ...ranks,
    ...suitStrengths(cards, decidingRanks(handClass, ranks)),
    ...suitStrengths(cards, topRanks(rankMask(cards))),
  ],
  rankOffset: () => 0,
});
