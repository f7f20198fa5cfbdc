/**
 * What revealing a hand's secret would expose (docs/fairness.md §8). Rebuilt from the secret, the deck
 * names the card of every position the hand took — hole and up cards, burns, the board, a draw's
 * replacements — and, from the discards, what each player threw away. The secret may go to the
 * players at once only when that tells nobody a card he did not see.
 */
import type { Card } from '../cards.js';
import type { HandEvent } from '../hand/types.js';

/**
 * The cards every player at the table saw: dealt face up, on a board, or shown at the showdown (a
 * show names every card the player holds then). `null` when a card dealt is unknown (a replay
 * without it): nothing can be said to be seen then.
 */
function cardsSeenByAll(events: readonly HandEvent[]): Set<Card> | null {
  const seen = new Set<Card>();
  for (const event of events) {
    if (event.type === 'deal-hole' || event.type === 'deal-board' || event.type === 'show') {
      const up = event.type === 'deal-hole' ? event.up : null;
      for (const [i, card] of event.cards.entries()) {
        if (card === null) return null;
        if (up === null || up[i] === true) seen.add(card);
      }
    }
  }
  return seen;
}

/**
 * Whether the secret of a hand whose `events` are these, dealt from the committed `order` (the deck's
 * positions, first taken first: `deckOrder`), exposes no card that some player did not see. False as
 * soon as a card was discarded: a discard is a card its player held and never showed (and only
 * discards are ever put back, so without them the hand took positions 0, 1, 2 … in order). Otherwise
 * every position up to the hand's last take must hold a seen card: a folded, mucked or unshown down
 * card, or a burn, is one that was not. The positions after the last take are left out on purpose:
 * with every take seen they are exactly the cards nobody saw, a set every player already knows, and
 * their order says only what a hand that is over would have dealt next.
 */
export function secretExposesNothingHidden(events: readonly HandEvent[], order: readonly Card[]): boolean {
  const seen = cardsSeenByAll(events);
  if (seen === null) return false;
  let lastTake = -1;
  for (const event of events) {
    if (event.type === 'discard' && event.cards.length > 0) return false;
    if (event.type !== 'deal-hole' && event.type !== 'deal-board' && event.type !== 'deal-draw') continue;
    for (const card of event.cards) {
      // An unknown card, or one this order lacks (another deck), cannot be placed: say nothing is safe.
      const at = card === null ? -1 : order.indexOf(card);
      if (at < 0) return false;
      lastTake = Math.max(lastTake, at);
    }
  }
  return order.slice(0, lastTake + 1).every((card) => seen.has(card));
}
