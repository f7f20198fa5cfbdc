import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deckCards } from '../src/deck.js';
import { draw32Ranking } from '../src/eval/draw32.js';
import { cards, distinctCards, forEachFiveCardHand } from './helpers.js';
import { compareTuples, highClass, type HighOptions, type Tuple } from './reference.js';

const draw32 = draw32Ranking;
const value = (text: string): number => draw32.evaluate(cards(text));
const beats = (a: string, b: string): boolean => value(a) > value(b);
const name = (text: string): string => draw32.describe(value(text), cards(text));
const DECK = deckCards('piquet32');

/** 7 to ace: A-7-8-9-T is the lowest straight, a flush beats a full house. */
const PIQUET: HighOptions = { wheel: [5, 6, 7, 8], flushBeatsFullHouse: true };
const ORDER = [
  'high-card',
  'pair',
  'two-pair',
  'three-of-a-kind',
  'straight',
  'full-house',
  'flush',
  'four-of-a-kind',
  'straight-flush',
];
/** Hearts > diamonds > clubs > spades, by the card's suit letter. */
const strength = (card: number): number =>
  ({ c: 1, d: 2, h: 3, s: 0 })['cdhs'.charAt(card % 4) as 'c' | 'd' | 'h' | 's'];
const suitOfRank = (hand: number[], rank: number): number =>
  strength(hand.find((card) => Math.floor(card / 4) === rank)!);

/**
 * The reference: the class and ranks, then the one suit RULES.md §11 names for each class. Quads, full
 * houses and trips need none: no two hands without a common card have them in the same rank.
 */
function draw32Tuple(hand: number[]): Tuple {
  const { name, ties } = highClass(hand, PIQUET);
  const position = ORDER.indexOf(name);
  switch (name) {
    case 'straight-flush':
    case 'flush':
    case 'straight':
    case 'high-card':
      return [position, ...ties, suitOfRank(hand, ties[0]!)]; // the suit of the top card
    case 'two-pair':
      return [position, ...ties, suitOfRank(hand, ties[2]!)]; // the suit of the side card
    case 'pair':
      return [position, ...ties, suitOfRank(hand, ties[1]!)]; // the suit of the highest side card
    default:
      return [position, ...ties];
  }
}

describe('32-card draw: the order of the classes (RULES.md §11, the seed)', () => {
  const ladder: [string, string][] = [
    ['royal-flush', 'AhKhQhJhTh'],
    ['straight-flush', 'KsQsJsTs9s'],
    ['four-of-a-kind', '7c7d7h7s8c'],
    ['flush', 'Ah9h8h7hJh'],
    ['full-house', 'AcAdAhKsKc'],
    ['straight', 'Td9c8h7sAs'],
    ['three-of-a-kind', 'AcAdAhKsQc'],
    ['two-pair', 'AcAdKhKsQc'],
    ['pair', 'AcAdKhQsJc'],
    ['high-card', 'AcKdQhJs9c'],
  ];
  it('royal flush, straight flush, four of a kind, flush, full house, straight, … high card', () => {
    for (const [expected, hand] of ladder) expect(draw32.className(value(hand))).toBe(expected);
    for (let i = 1; i < ladder.length; i++) expect(beats(ladder[i - 1]![1], ladder[i]![1])).toBe(true);
  });
  it('a flush beats a full house', () => {
    expect(beats('7h8h9hJhAh', 'AcAdAhKsKc')).toBe(true);
  });
  it('A-7-8-9-T is the lowest straight', () => {
    expect(name('As7d8c9hTs')).toBe('Straight, ten high');
    expect(beats('7s8d9cThJs', 'As7d8c9hTh')).toBe(true);
    expect(beats('As7d8c9hTs', 'AhKdQhJs9c')).toBe(true);
  });
  it('A-7-8-9-T is the lowest straight flush', () => {
    expect(name('Ah7h8h9hTh')).toBe('Straight flush of hearts, ten high');
    expect(beats('7s8s9sTsJs', 'Ah7h8h9hTh')).toBe(true);
  });
});

describe('32-card draw: suits break every tie (hearts > diamonds > clubs > spades)', () => {
  it('royal flushes by suit', () => {
    expect(beats('AhKhQhJhTh', 'AdKdQdJdTd')).toBe(true);
    expect(beats('AdKdQdJdTd', 'AcKcQcJcTc')).toBe(true);
    expect(beats('AcKcQcJcTc', 'AsKsQsJsTs')).toBe(true);
  });
  it('straight flushes by top card, then suit', () => {
    expect(beats('KsQsJsTs9s', 'QhJhTh9h8h')).toBe(true);
    expect(beats('KdQdJdTd9d', 'KcQcJcTc9c')).toBe(true);
  });
  it('flushes by all five ranks, then suit', () => {
    expect(beats('AsKsJs9s8s', 'AhKhJh9h7h')).toBe(true);
    expect(beats('AhKhJh9h7h', 'AdKdJd9d7d')).toBe(true);
  });
  it('straights by top card, then the suit of the top card', () => {
    expect(beats('Kh QcJcTc9c', 'Kd QhJhTh9h')).toBe(true);
    expect(beats('As KsQsJsTd', 'KhQhJhTh9d')).toBe(true);
  });
  it('two pair by pairs and side card, then the suit of the side card', () => {
    expect(beats('KsKc9s9c Ac', 'KhKd9h9d Qh')).toBe(true);
    expect(beats('KsKc9s9c Ah', 'KhKd9h9d Ad')).toBe(true);
  });
  it('one pair by pair and side cards, then the suit of the highest side card', () => {
    expect(beats('9s9c AsKsJs', '9h9d AhKhTh')).toBe(true);
    expect(beats('9c9s AdKsQs', '9h9d AcKhQh')).toBe(true);
  });
  it('high cards by all five ranks, then the suit of the highest card', () => {
    expect(beats('AsKsJs9s8c', 'AhKhJh9h7d')).toBe(true);
    expect(beats('AhKcJd9s7c', 'AdKhJh9h7h')).toBe(true);
  });
  it('quads, full houses and trips by rank', () => {
    expect(beats('8c8d8h8s7c', '7d7h7s7cAh')).toBe(true);
    expect(beats('KsKcKd7s7c', 'QhQdQcAhAd')).toBe(true);
    expect(beats('9s9c9dTs7c', '8h8d8cAhKd')).toBe(true);
  });
  it('names hands as players say them', () => {
    expect(name('AhKhQhJhTh')).toBe('Royal flush of hearts');
    expect(name('Ad9d8d7dJd')).toBe('Flush of diamonds, ace high');
    expect(name('JcJd9h9s7c')).toBe('Two pair, jacks and nines');
    expect(name('KhKdKs8c8d')).toBe('Full house, kings over eights');
  });
});

describe('32-card draw: the census of all 201,376 hands of the 32-card deck', () => {
  it('falls into the classes as the reference classifier counts them, and no two hands ever tie', () => {
    const counts = new Map<string, number>();
    const reference = new Map<string, number>();
    const values = new Set<number>();
    const add = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);
    forEachFiveCardHand(DECK, (hand) => {
      const v = draw32.evaluate(hand);
      values.add(v);
      add(counts, draw32.className(v));
      const { name, ties } = highClass(hand, PIQUET);
      add(reference, name === 'straight-flush' && ties[0] === 12 ? 'royal-flush' : name);
    });
    expect(counts).toEqual(reference);
    expect(Object.fromEntries(counts)).toEqual({
      'royal-flush': 4,
      'straight-flush': 16,
      'four-of-a-kind': 224,
      flush: 204,
      'full-house': 1344,
      straight: 5100,
      'three-of-a-kind': 10752,
      'two-pair': 24192,
      pair: 107520,
      'high-card': 52020,
    });
    expect(values.size).toBe(201376);
  });
});

describe('32-card draw: the ranking agrees with the reference', () => {
  // Hands from only the four lowest ranks and the ace, so that classes and suit tie-breaks come up often.
  const crowded = distinctCards(
    5,
    DECK.filter((card) => card < 36 || card >= 48),
  );
  const hand = fc.oneof(distinctCards(5, DECK), crowded);
  it('orders random pairs of hands as the reference does; only hands with a common card tie there', () => {
    fc.assert(
      fc.property(hand, hand, (a, b) => {
        const fast = Math.sign(draw32.evaluate(a) - draw32.evaluate(b));
        const slow = compareTuples(draw32Tuple(a), draw32Tuple(b));
        if (slow !== 0) expect(fast).toBe(slow);
        else expect(a.some((card) => b.includes(card))).toBe(true);
      }),
      { numRuns: 20000 },
    );
  });
});
