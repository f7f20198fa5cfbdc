import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badugiRanking } from '../src/eval/badugi.js';
import { cards, distinctCards } from './helpers.js';
import { compareTuples, subsets, type Tuple } from './reference.js';

const badugi = badugiRanking;
const value = (text: string): number => badugi.evaluate(cards(text));
const beats = (a: string, b: string): boolean => value(a) > value(b);
const name = (text: string): string => badugi.describe(value(text), cards(text));

/**
 * The reference: of all subsets with different suits and different ranks, the largest, and among those
 * the lowest from the highest card down (ace = 1). Negated ranks make the better hand the higher tuple.
 */
function badugiTuple(hand: number[]): Tuple {
  const low = (card: number): number => (Math.floor(card / 4) + 1) % 13; // A = 0, 2 = 1, …, K = 12
  let best: Tuple = [];
  for (let size = 1; size <= 4; size++) {
    for (const subset of subsets(hand, size)) {
      const ranks = subset.map(low);
      if (new Set(ranks).size !== size || new Set(subset.map((card) => card % 4)).size !== size) continue;
      const tuple = [size, ...ranks.sort((x, y) => y - x).map((rank) => -rank)];
      if (compareTuples(tuple, best) > 0) best = tuple;
    }
  }
  return best;
}

describe('badugi (PokerKit, RULES.md §12)', () => {
  it('a 4-card badugi beats any 3-card hand', () => {
    expect(beats('KsQhJdTc', 'As2h3d3c')).toBe(true);
  });
  it('a 3-card hand beats any 2-card hand, a 2-card hand any 1-card hand', () => {
    expect(beats('KsQhJdJc', 'As2s3hAh')).toBe(true);
    expect(beats('KsKhQsQh', 'As2s3s4s')).toBe(true);
  });
  it('the ace is low: A-2-3-4 in four suits is the best hand', () => {
    expect(name('Ac2d3h4s')).toBe('4-card badugi, 4-3-2-A');
    expect(beats('Ac2d3h4s', '2c3d4h5s')).toBe(true);
  });
  it('equal sizes compare from the highest card down, lower is better', () => {
    expect(beats('7c4d3hAs', '7c5d2hAs')).toBe(true);
    expect(beats('8c2d3hAs', '7c6d5h4s')).toBe(false);
  });
  it('a paired card or a suited card does not count', () => {
    expect(name('Ac2c3d4h')).toBe('3-card hand, 4-3-A');
    expect(name('6c3d3h2s')).toBe('3-card hand, 6-3-2');
    expect(name('KsKhKdKc')).toBe('1-card hand, K');
  });
  it('of the largest hands the lowest is played', () => {
    // A♣ 2♣ 5♦ 6♥: 6-5-2 and 6-5-A are both 3-card hands; 6-5-A is played.
    expect(name('Ac2c5d6h')).toBe('3-card hand, 6-5-A');
  });
  it('suits never break ties', () => {
    expect(value('7c4d3hAs')).toBe(value('7s4h3dAc'));
  });
  it('names hands as players say them', () => {
    expect(name('7c4d3hAs')).toBe('4-card badugi, 7-4-3-A');
    expect(badugi.className(value('7c4d3hAs'))).toBe('badugi-4');
    expect(badugi.className(value('6c3d3h2s'))).toBe('badugi-3');
    expect(badugi.className(value('KsKhQsQh'))).toBe('badugi-2');
    expect(badugi.className(value('KsKhKdKc'))).toBe('badugi-1');
  });
});

describe('badugi: the census of all 270,725 four-card hands', () => {
  it('agrees with the reference; 13·12·11·10 badugis, 2,873 one-card hands (one suit or one rank)', () => {
    const counts = new Map<string, number>();
    const reference = new Map<string, number>();
    const add = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);
    for (const hand of subsets([...Array(52).keys()], 4)) {
      add(counts, badugi.className(badugi.evaluate(hand)));
      add(reference, `badugi-${badugiTuple(hand)[0]!}`);
    }
    expect(counts).toEqual(reference);
    // By hand: 13·12·11·10 badugis; one-card hands are one suit (4·C(13,4)) or one rank (13). The
    // two- and three-card counts are the two classifiers' common figure.
    expect(Object.fromEntries(counts)).toEqual({
      'badugi-4': 17160,
      'badugi-3': 154440,
      'badugi-2': 96252,
      'badugi-1': 2873,
    });
  });
});

describe('badugi: the ranking agrees with the reference', () => {
  // Cards from few ranks, so that pairs and equal hands come up often.
  const crowded = fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 4, maxLength: 4 });
  it('orders random pairs of hands as the reference does', () => {
    fc.assert(
      fc.property(fc.oneof(distinctCards(4), crowded), fc.oneof(distinctCards(4), crowded), (a, b) => {
        const fast = Math.sign(badugi.evaluate(a) - badugi.evaluate(b));
        expect(fast).toBe(compareTuples(badugiTuple(a), badugiTuple(b)));
      }),
      { numRuns: 20000 },
    );
  });
});
