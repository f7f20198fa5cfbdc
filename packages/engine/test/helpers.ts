import fc from 'fast-check';
import { parseCards, type Card } from '../src/cards.js';

/** Cards from text, for tests that write hands the way players do. */
export function cards(text: string): Card[] {
  const parsed = parseCards(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

/** `count` different cards from the deck's cards. */
export const distinctCards = (
  count: number,
  deck: readonly Card[] = [...Array(52).keys()],
): fc.Arbitrary<Card[]> => fc.shuffledSubarray([...deck], { minLength: count, maxLength: count });

/** Calls `visit` with every five-card hand of the deck (the array is reused). */
export function forEachFiveCardHand(deck: readonly Card[], visit: (hand: Card[]) => void): void {
  const hand = [0, 0, 0, 0, 0];
  const n = deck.length;
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++)
          for (let e = d + 1; e < n; e++) {
            hand[0] = deck[a]!;
            hand[1] = deck[b]!;
            hand[2] = deck[c]!;
            hand[3] = deck[d]!;
            hand[4] = deck[e]!;
            visit(hand);
          }
}
