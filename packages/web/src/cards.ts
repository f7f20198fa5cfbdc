/**
 * How a card is shown: its index, its accessible name and its suit's colour. Cards travel as text
 * ("As"; "??" for one the viewer may not see); the engine reads a text into its numbering
 * (`parseCard`), by which these tables are indexed. The client never evaluates a hand (the server names
 * hands in its results).
 */
import { parseCard, rankOf, suitOf, type Card } from '@felt/engine/browser';

export const RANK_TEXT = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'] as const;
const RANK_NAMES = [
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Jack',
  'Queen',
  'King',
  'Ace',
] as const;
const SUIT_NAMES = ['clubs', 'diamonds', 'hearts', 'spades'] as const;

/** The card a text names, or null for a hidden one ("??"), which is drawn face down. */
export function readCard(text: string): Card | null {
  const card = parseCard(text);
  return card.ok ? card.value : null;
}

/** `Ace of spades`; `face-down card` for a hidden one (the accessible name of a card). */
export function cardName(text: string): string {
  const card = readCard(text);
  if (card === null) return 'face-down card';
  return `${RANK_NAMES[rankOf(card)] ?? '?'} of ${SUIT_NAMES[suitOf(card)] ?? '?'}`;
}

/** Two-colour: red hearts and diamonds. Four-colour: black spades, red hearts, blue diamonds, green clubs. */
export function suitColour(card: Card, fourColour: boolean): string {
  switch (suitOf(card)) {
    case 0:
      return fourColour ? '#12743a' : '#161616';
    case 1:
      return fourColour ? '#1c56b8' : '#c4122f';
    case 2:
      return '#c4122f';
    default:
      return '#161616';
  }
}
