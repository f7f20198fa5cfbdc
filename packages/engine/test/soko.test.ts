import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deckCards } from '../src/deck.js';
import { sokoRanking } from '../src/eval/soko.js';
import { cards, distinctCards, forEachFiveCardHand } from './helpers.js';
import { compareTuples, highClass, type Tuple } from './reference.js';

const value = (text: string): number => sokoRanking.evaluate(cards(text));
const beats = (a: string, b: string): boolean => value(a) > value(b);
const name = (text: string): string => sokoRanking.describe(value(text), cards(text));
const className = (text: string): string => sokoRanking.className(value(text));

/** Sökö's classes from worst to best, as the seed lists them (royal flush: the top straight flush). */
const ORDER = [
  'high-card',
  'pair',
  'four-straight',
  'four-flush',
  'two-pair',
  'three-of-a-kind',
  'straight',
  'flush',
  'full-house',
  'four-of-a-kind',
  'straight-flush',
];

/** Ranks in the order runs go, the ace at both ends: A 2 3 … K A. */
const LADDER = [12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/**
 * The reference: the standard class unless it is one pair or high card; then a four-flush (a suit held
 * four times), else the highest run of four held ranks on the ladder.
 */
function sokoClass(hand: number[]): { name: string; ties: number[] } {
  const standard = highClass(hand);
  if (standard.name !== 'pair' && standard.name !== 'high-card') return standard;
  const held = new Array<number>(13).fill(0);
  const suits = [0, 0, 0, 0];
  for (const card of hand) {
    held[Math.floor(card / 4)]! += 1;
    suits[card % 4]! += 1;
  }
  const fifthAfter = (four: number[]): number => {
    const left = [...held];
    for (const rank of four) left[rank]! -= 1;
    return left.findIndex((count) => count > 0);
  };
  const flushSuit = suits.indexOf(4);
  if (flushSuit >= 0) {
    const suited = hand.filter((card) => card % 4 === flushSuit).map((card) => Math.floor(card / 4));
    suited.sort((x, y) => y - x);
    return { name: 'four-flush', ties: [...suited, fifthAfter(suited)] };
  }
  // Walk down the ladder counting held ranks in a row; the first run of four is the highest.
  for (let i = LADDER.length - 1, streak = 0; i >= 0; i--) {
    streak = held[LADDER[i]!]! > 0 ? streak + 1 : 0;
    if (streak === 4) {
      const run = LADDER.slice(i, i + 4);
      return { name: 'four-straight', ties: [run[3]!, fifthAfter(run)] };
    }
  }
  return standard;
}

const sokoTuple = (hand: number[]): Tuple => {
  const { name, ties } = sokoClass(hand);
  return [ORDER.indexOf(name), ...ties];
};

describe('Sökö: the order of the classes (RULES.md §7, the seed’s table)', () => {
  const ladder: [string, string][] = [
    ['royal-flush', 'AhKhQhJhTh'],
    ['straight-flush', 'KsQsJsTs9s'],
    ['four-of-a-kind', '2c2d2h2s3c'],
    ['full-house', 'AcAdAhKsKc'],
    ['flush', 'Ac9c7c5c3c'],
    ['straight', 'As2d3c4h5s'],
    ['three-of-a-kind', 'AcAdAhKsQc'],
    ['two-pair', '2c2d3h3s4c'],
    ['four-flush', 'AhKhQhJh9c'],
    ['four-straight', 'AcKdQhJs9c'],
    ['pair', 'AcAdKhQs9c'],
    ['high-card', 'AcKdQh9s8c'],
  ];
  it('royal flush, straight flush, … two pair, four-flush, four-straight, one pair, high card', () => {
    for (const [expected, hand] of ladder) expect(className(hand)).toBe(expected);
    for (let i = 1; i < ladder.length; i++) expect(beats(ladder[i - 1]![1], ladder[i]![1])).toBe(true);
  });
  it('a four-flush beats one pair', () => {
    expect(beats('2h3h5h7h9c', 'AcAdKhQs9c')).toBe(true);
  });
  it('a four-straight beats one pair', () => {
    expect(beats('2c3d4h5s9c', 'AcAdKhQs9c')).toBe(true);
  });
  it('a four-flush beats a four-straight', () => {
    expect(beats('2h3h5h7h9c', 'JcQdKhAs9c')).toBe(true);
  });
  it('two pair beats a four-flush', () => {
    expect(beats('2c2d3h3s4c', 'AhKhQhJh9c')).toBe(true);
  });
  it('a straight beats a four-flush, a flush beats a straight', () => {
    expect(beats('2c3d4h5s6c', 'AhKhQhJh9c')).toBe(true);
    expect(beats('2h3h4h5h7h', 'TcJdQhKsAc')).toBe(true);
  });
});

describe('Sökö: four-flushes and four-straights', () => {
  it('a four-flush is four cards of one suit', () => {
    expect(className('2h7h9hKhAs')).toBe('four-flush');
  });
  it('a four-straight is four consecutive ranks', () => {
    expect(className('5c6d7h8sKc')).toBe('four-straight');
  });
  it('5-6-8-9 is no four-straight', () => {
    expect(className('5c6d8h9sKc')).toBe('high-card');
  });
  it('the ace plays high in J-Q-K-A', () => {
    expect(className('JcQdKhAs3c')).toBe('four-straight');
    expect(name('JcQdKhAs3c')).toBe('Four-straight, ace high');
  });
  it('the ace plays low in A-2-3-4, the lowest four-straight', () => {
    expect(name('As2d3c4h9s')).toBe('Four-straight, four high');
    expect(beats('2d3c4h5s9s', 'As2d3c4hKs')).toBe(true);
  });
  it('K-A-2-3 is no four-straight (the ace does not turn the corner)', () => {
    expect(className('Kc As2d3c8h')).toBe('high-card');
  });
  it('A-2-3-4-5 is a straight (the wheel), not a four-straight', () => {
    expect(name('As2d3c4h5s')).toBe('Straight, five high');
  });
  it('a four-straight with a pair counts as a four-straight', () => {
    expect(className('5c6d7h8s8c')).toBe('four-straight');
    expect(beats('5c6d7h8s8c', 'AcAdKhQs9c')).toBe(true);
  });
  it('a four-flush with a pair counts as a four-flush', () => {
    expect(className('2h3h5h7h7c')).toBe('four-flush');
  });
  it('a hand that is both a four-flush and a four-straight counts as a four-flush', () => {
    expect(className('5h6h7h8hKc')).toBe('four-flush');
    expect(beats('5h6h7h8h2c', 'AhKhQh9h3c')).toBe(false);
  });
  it('tied four-flushes are decided by the fifth card (the seed)', () => {
    expect(beats('AhKh9h4h8c', 'AsKs9s4s7d')).toBe(true);
  });
  it('four-flushes compare the four suited cards high to low before the fifth card', () => {
    expect(beats('AhKh9h5h2c', 'AsKs9s4sQd')).toBe(true);
  });
  it('tied four-straights are decided by the fifth card (the seed)', () => {
    expect(beats('9c8d7h6sKc', '9h8s7c6dQd')).toBe(true);
  });
  it('four-straights compare the top of the four-straight first', () => {
    expect(beats('Tc9d8h7s2c', '9h8s7c6dAd')).toBe(true);
  });
  it('suits never break ties', () => {
    expect(value('AhKhQhJh9c')).toBe(value('AsKsQsJs9d'));
    expect(value('9c8d7h6sKc')).toBe(value('9h8s7c6dKd'));
  });
  it('names hands as players say them', () => {
    expect(name('KhJh7h2h2c')).toBe('Four-flush, king high');
    expect(name('9c8d7h6sKc')).toBe('Four-straight, nine high');
    expect(name('JcJd9h9s2c')).toBe('Two pair, jacks and nines');
    expect(name('KhKdKs5c5d')).toBe('Full house, kings over fives');
    expect(name('AhKhQhJhTh')).toBe('Royal flush');
    expect(name('9c9dAh4s2c')).toBe('Pair of nines');
  });
});

describe('Sökö: the census of all 2,598,960 five-card hands', () => {
  it('falls into the twelve classes as the reference classifier counts them', () => {
    const counts = new Map<string, number>();
    const reference = new Map<string, number>();
    const add = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);
    forEachFiveCardHand(deckCards('standard52'), (hand) => {
      add(counts, sokoRanking.className(sokoRanking.evaluate(hand)));
      const { name, ties } = sokoClass(hand);
      add(reference, name === 'straight-flush' && ties[0] === 12 ? 'royal-flush' : name);
    });
    expect(counts).toEqual(reference);
    // Four-flush: 4 suits × C(13,4) × 39 other cards, less the 600 straights among them.
    // Four-straight: 79 rank sets of five (9 inner windows × 7 fifth ranks + 2 end windows × 8) × 960 suit
    // patterns that make no (four-)flush, plus 11 windows × 4 paired ranks × 372 pair suit patterns.
    expect(Object.fromEntries(counts)).toEqual({
      'royal-flush': 4,
      'straight-flush': 36,
      'four-of-a-kind': 624,
      'full-house': 3744,
      flush: 5108,
      straight: 10200,
      'three-of-a-kind': 54912,
      'two-pair': 123552,
      'four-flush': 110940,
      'four-straight': 92208,
      pair: 1047552,
      'high-card': 1150080,
    });
  });
});

describe('Sökö: the ranking agrees with the reference', () => {
  // Hands crowded into few ranks, so that pairs, straights and four-straights come up often.
  const crowded = fc.uniqueArray(fc.integer({ min: 0, max: 27 }), { minLength: 5, maxLength: 5 });
  it('orders random pairs of hands as the reference does', () => {
    fc.assert(
      fc.property(fc.oneof(distinctCards(5), crowded), fc.oneof(distinctCards(5), crowded), (a, b) => {
        const fast = Math.sign(sokoRanking.evaluate(a) - sokoRanking.evaluate(b));
        expect(fast).toBe(compareTuples(sokoTuple(a), sokoTuple(b)));
      }),
      { numRuns: 20000 },
    );
  });
});
