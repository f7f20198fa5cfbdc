import { ErrorCode, fail, ok, type Result } from './result.js';

/**
 * A card is a small integer: rank * 4 + suit, rank 0 = deuce … 12 = ace, suit 0..3 = c d h s.
 * The same numbering serves every deck, so evaluators index tables by it directly.
 */
export type Card = number;
/** 0 = deuce … 12 = ace. */
export type Rank = number;
/** 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades. */
export type Suit = number;

export const RANK_CHARS = '23456789TJQKA';
export const SUIT_CHARS = 'cdhs';
export const UNKNOWN_CARD_TEXT = '??';

export const ACE: Rank = 12;

export const rankOf = (card: Card): Rank => card >> 2;
export const suitOf = (card: Card): Suit => card & 3;
export const makeCard = (rank: Rank, suit: Suit): Card => rank * 4 + suit;

export function formatCard(card: Card): string {
  return RANK_CHARS.charAt(rankOf(card)) + SUIT_CHARS.charAt(suitOf(card));
}

export function formatCards(cards: readonly Card[], separator = ''): string {
  return cards.map(formatCard).join(separator);
}

/** Parses one card such as `As` or `Td`. `??` is not a card: see {@link parseMaybeCard}. */
export function parseCard(text: string): Result<Card> {
  if (text.length === 2) {
    const rank = RANK_CHARS.indexOf(text.charAt(0));
    const suit = SUIT_CHARS.indexOf(text.charAt(1));
    if (rank >= 0 && suit >= 0) return ok(makeCard(rank, suit));
  }
  return fail(ErrorCode.BAD_CARD, `not a card: ${JSON.stringify(text)} (ranks 2-9 T J Q K A, suits c d h s)`);
}

/** A card or `null` for the unknown card `??`. */
export function parseMaybeCard(text: string): Result<Card | null> {
  return text === UNKNOWN_CARD_TEXT ? ok(null) : parseCard(text);
}

/**
 * Parses a list of cards: either an array of two-character strings or one string such as `AsKs` or
 * `As Ks` (white space optional). Unknown cards are refused here.
 */
export function parseCards(input: string | readonly string[]): Result<Card[]> {
  const texts = typeof input === 'string' ? splitCardText(input) : input;
  if (texts === null) return fail(ErrorCode.BAD_CARD, `not a list of cards: ${JSON.stringify(input)}`);
  const cards: Card[] = [];
  for (const text of texts) {
    const parsed = parseCard(text);
    if (!parsed.ok) return parsed;
    cards.push(parsed.value);
  }
  return ok(cards);
}

function splitCardText(text: string): string[] | null {
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 2 !== 0) return null;
  const parts: string[] = [];
  for (let i = 0; i < compact.length; i += 2) parts.push(compact.slice(i, i + 2));
  return parts;
}

/** The first card that appears twice in the lists, or null. */
export function findDuplicate(...lists: readonly (readonly Card[])[]): Card | null {
  let seen = 0n;
  for (const list of lists) {
    for (const card of list) {
      const bit = 1n << BigInt(card);
      if ((seen & bit) !== 0n) return card;
      seen |= bit;
    }
  }
  return null;
}
