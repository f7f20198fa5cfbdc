import { makeCard, type Card, type Rank } from './cards.js';

/** The decks the games use: all 52 cards, 6 to ace (short-deck hold'em), 7 to ace (Americana, Telesina, 32-card draw). */
export type DeckKind = 'standard52' | 'short36' | 'piquet32';

const LOWEST_RANK: Record<DeckKind, Rank> = { standard52: 0, short36: 4, piquet32: 5 };

/** The deck's cards in a fixed order: by rank, then suit. */
export function deckCards(kind: DeckKind): Card[] {
  const cards: Card[] = [];
  for (let rank = LOWEST_RANK[kind]; rank <= 12; rank++) {
    for (let suit = 0; suit < 4; suit++) cards.push(makeCard(rank, suit));
  }
  return cards;
}

export function deckContains(kind: DeckKind, card: Card): boolean {
  return card >> 2 >= LOWEST_RANK[kind] && card >= 0 && card < 52;
}

export function lowestRank(kind: DeckKind): Rank {
  return LOWEST_RANK[kind];
}
