import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findDuplicate,
  formatCard,
  formatCards,
  parseCard,
  parseCards,
  parseMaybeCard,
} from '../src/cards.js';
import { deckCards, deckContains } from '../src/deck.js';
import { ErrorCode } from '../src/result.js';

describe('cards', () => {
  it('every card is written rank then suit and parses back to itself', () => {
    for (let card = 0; card < 52; card++)
      expect(parseCard(formatCard(card))).toEqual({ ok: true, value: card });
    expect(formatCards([51, 33, 20, 2], ' ')).toBe('As Td 7c 2h');
  });

  it('cards parse from an array or from one string with or without spaces', () => {
    const expected = { ok: true, value: [51, 33, 20, 2] };
    expect(parseCards(['As', 'Td', '7c', '2h'])).toEqual(expected);
    expect(parseCards('AsTd7c2h')).toEqual(expected);
    expect(parseCards('As Td 7c 2h')).toEqual(expected);
  });

  it('anything but a rank 2-9 T J Q K A and a suit c d h s is refused as BAD_CARD', () => {
    for (const text of ['', 'A', 'as', 'AS', '1s', '10s', 'Ax', 'Ass', ' A', '??']) {
      const parsed = parseCard(text);
      expect(parsed.ok ? null : parsed.error.code).toBe(ErrorCode.BAD_CARD);
    }
    const odd = parseCards('AsK');
    expect(odd.ok ? null : odd.error.code).toBe(ErrorCode.BAD_CARD);
  });

  it('?? is the unknown card', () => {
    expect(parseMaybeCard('??')).toEqual({ ok: true, value: null });
    expect(parseMaybeCard('Kh')).toEqual({ ok: true, value: 46 });
  });

  it('parsing never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseCards(text);
        if (parsed.ok) expect(formatCards(parsed.value)).toBe(text.replace(/\s+/g, ''));
      }),
    );
  });

  it('a duplicate card is found in any of the lists', () => {
    expect(findDuplicate([1, 2], [3], [4, 2])).toBe(2);
    expect(findDuplicate([1, 2], [3])).toBeNull();
  });
});

describe('decks', () => {
  it('the standard deck has 52 cards, the short deck 36 (6 to ace), the 32-card deck 7 to ace', () => {
    expect(deckCards('standard52')).toHaveLength(52);
    const short = deckCards('short36');
    expect(short).toHaveLength(36);
    expect(formatCard(short[0]!)).toBe('6c');
    const piquet = deckCards('piquet32');
    expect(piquet).toHaveLength(32);
    expect(formatCard(piquet[0]!)).toBe('7c');
    expect(new Set(piquet.map(formatCard)).has('As')).toBe(true);
  });

  it('a card below the deck’s lowest rank is not in it', () => {
    expect(deckContains('piquet32', 20)).toBe(true); // 7c
    expect(deckContains('piquet32', 19)).toBe(false); // 6s
    expect(deckContains('short36', 16)).toBe(true); // 6c
    expect(deckContains('short36', 15)).toBe(false); // 5s
  });
});
