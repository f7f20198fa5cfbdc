/**
 * Cards on the wire are the engine's integers, `rank * 4 + suit` (rank 0 = deuce … 12 = ace; suits
 * c d h s), and `null` for a card the viewer may not see. These helpers only name them; the client never
 * evaluates a hand (the server names hands in its results).
 */
export type WireCard = number | null;

export const RANK_TEXT = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'] as const;
export const RANK_CHARS = '23456789TJQKA';
export const SUIT_CHARS = 'cdhs';
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

export type SuitName = (typeof SUIT_NAMES)[number];

export const rankOf = (card: number): number => card >> 2;
export const suitOf = (card: number): number => card & 3;

export function isCard(card: unknown): card is number {
  return typeof card === 'number' && Number.isInteger(card) && card >= 0 && card < 52;
}

/** `As`, `Td`; `??` for a hidden card. */
export function cardCode(card: WireCard): string {
  if (card === null || !isCard(card)) return '??';
  return RANK_CHARS.charAt(rankOf(card)) + SUIT_CHARS.charAt(suitOf(card));
}

/** `Ace of spades`; `face-down card` for a hidden one (the accessible name of a card). */
export function cardName(card: WireCard): string {
  if (card === null || !isCard(card)) return 'face-down card';
  return `${RANK_NAMES[rankOf(card)] ?? '?'} of ${SUIT_NAMES[suitOf(card)] ?? '?'}`;
}

export function suitName(card: number): SuitName {
  return SUIT_NAMES[suitOf(card)] ?? 'spades';
}

/** Parses `As` into the engine's integer, or null. */
export function parseCardCode(code: string): number | null {
  if (code.length !== 2) return null;
  const rank = RANK_CHARS.indexOf(code.charAt(0));
  const suit = SUIT_CHARS.indexOf(code.charAt(1));
  return rank < 0 || suit < 0 ? null : rank * 4 + suit;
}

/** Two-colour: red hearts and diamonds. Four-colour: black spades, red hearts, blue diamonds, green clubs. */
export function suitColour(card: number, fourColour: boolean): string {
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
