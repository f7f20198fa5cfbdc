import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { low27Ranking } from '../src/eval/high-rankings.js';
import { low8Ranking, lowA5Ranking } from '../src/eval/low.js';
import { NO_HAND } from '../src/eval/ranking.js';
import { cards, distinctCards } from './helpers.js';
import { bestOfAny, compareTuples, low27Tuple, low8Tuple, lowA5Tuple } from './reference.js';

const low8 = (text: string): number => low8Ranking.best!(cards(text));

describe('8-or-better low (RULES.md §5)', () => {
  const order = [
    ['7-6-5-4-3', '8-4-3-2-A'],
    ['6-5-4-3-2', '7-4-3-2-A'],
    ['8-6-5-4-3', '8-7-3-2-A'],
    ['7-5-4-3-2', '7-6-3-2-A'],
    ['8-6-5-4-A', '8-6-5-4-2'],
    ['8-6-5-4-2', '8-6-5-4-3'],
    ['7-6-5-4-3', '8-5-4-3-2'],
  ] as const;
  const suits = 'cdhsc';
  const hand = (run: string): string =>
    run
      .split('-')
      .map((rank, i) => rank + suits.charAt(i))
      .join('');
  for (const [better, worse] of order) {
    it(`${better} beats ${worse} (compared from the top card down)`, () => {
      expect(low8(hand(better))).toBeGreaterThan(low8(hand(worse)));
    });
  }
  it('straights and flushes do not count against a low', () => {
    expect(low8('5h4h3h2hAh')).toBe(low8('5c4d3h2sAh'));
    expect(low8Ranking.describe(low8('5h4h3h2hAh'), [])).toBe('5-4-3-2-A low');
  });
  it('a low needs five different ranks of eight or lower', () => {
    expect(low8('9c5d4h3s2c')).toBe(NO_HAND);
    expect(low8('5c5d4h3s2c')).toBe(NO_HAND);
    expect(low8('8c7d6h5s4c')).not.toBe(NO_HAND);
  });
  it('the best low of seven cards is their five lowest different ranks', () => {
    expect(low8Ranking.describe(low8('Kc8d6h5s4cAd4h'), [])).toBe('8-6-5-4-A low');
  });
  it('orders random hands of 5 to 7 cards as the reference does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 7 }), distinctCards(14), (n, drawn) => {
        const [a, b] = [drawn.slice(0, n), drawn.slice(7, 7 + n)];
        const [ta, tb] = [bestOfAny(a, low8Tuple), bestOfAny(b, low8Tuple)];
        expect(low8Ranking.best!(a) === NO_HAND).toBe(ta === null);
        if (ta && tb)
          expect(Math.sign(low8Ranking.best!(a) - low8Ranking.best!(b))).toBe(compareTuples(ta, tb));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('A-5 low (razz)', () => {
  const a5 = (text: string): number => lowA5Ranking.best!(cards(text));
  it('the wheel A-2-3-4-5 is the best hand; straights and flushes do not count', () => {
    expect(lowA5Ranking.describe(a5('As2s3s4s5s'), [])).toBe('5-4-3-2-A low');
    expect(a5('As2s3s4s5s')).toBeGreaterThan(a5('Ac2d3h4s6c'));
  });
  it('any pair is worse than any no-pair hand', () => {
    expect(a5('KcQdJhTs9c')).toBeGreaterThan(a5('AcAd2h3s4c'));
  });
  it('seven cards play their best five', () => {
    expect(lowA5Ranking.describe(a5('KcKdAs2d4c4h2s'), [])).toBe('Pair of deuces');
    expect(lowA5Ranking.describe(a5('KcKdAs2d3c4h4s'), [])).toBe('K-4-3-2-A low');
  });
  it('orders random hands of 5 to 7 cards as the reference does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 7 }), distinctCards(14), (n, drawn) => {
        const [a, b] = [drawn.slice(0, n), drawn.slice(7, 7 + n)];
        const expected = compareTuples(bestOfAny(a, lowA5Tuple)!, bestOfAny(b, lowA5Tuple)!);
        expect(Math.sign(lowA5Ranking.best!(a) - lowA5Ranking.best!(b))).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('2-7 low (RULES.md §8)', () => {
  const l27 = (text: string): number => low27Ranking.evaluate(cards(text));
  it('7-5-4-3-2 is the best hand', () => {
    expect(low27Ranking.describe(l27('7s5d4c3h2s'), [])).toBe('7-5-4-3-2 low');
    expect(l27('7s5d4c3h2s')).toBeGreaterThan(l27('7s6d4c3h2s'));
  });
  it('the ace is only high: A-2-3-4-5 is ace high, not a straight', () => {
    expect(low27Ranking.className(l27('As2d3c4h5s'))).toBe('high-card');
    expect(l27('Ks8d4c3h2s')).toBeGreaterThan(l27('As2d3c4h5s'));
  });
  it('straights and flushes count against the hand', () => {
    expect(low27Ranking.describe(l27('6s5d4c3h2s'), [])).toBe('Straight, six high');
    expect(l27('8s5d4c3h2s')).toBeGreaterThan(l27('6s5d4c3h2s'));
    expect(l27('Ks8d4c3h2s')).toBeGreaterThan(l27('7h5h4h3h2h'));
  });
  it('orders random five-card hands as the reference does', () => {
    fc.assert(
      fc.property(distinctCards(10), (drawn) => {
        const [a, b] = [drawn.slice(0, 5), drawn.slice(5)];
        const expected = compareTuples(low27Tuple(a), low27Tuple(b));
        expect(Math.sign(low27Ranking.evaluate(a) - low27Ranking.evaluate(b))).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});
