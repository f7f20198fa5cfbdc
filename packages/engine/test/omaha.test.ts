import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestOmahaHandOf, bestOmahaValueOf } from '../src/eval/combine.js';
import { highRankingStandard as high } from '../src/eval/high-rankings.js';
import { low8Ranking } from '../src/eval/low.js';
import { NO_HAND } from '../src/eval/ranking.js';
import { cards, distinctCards } from './helpers.js';
import { bestOmaha, compareTuples, highTuple, low8Tuple } from './reference.js';

const omaha = (hole: string, board: string): number => bestOmahaValueOf(high, cards(hole), cards(board));
const name = (hole: string, board: string): string => high.describe(omaha(hole, board), []);

describe('Omaha: exactly two hole cards and exactly three board cards (RULES.md §4)', () => {
  it('board Th 7s 2h 3h Kh: only a player with two hearts has a flush', () => {
    expect(name('Ah9c8c4d', 'Th7s2h3hKh')).not.toMatch(/Flush/);
    expect(name('Ah9h8c4d', 'Th7s2h3hKh')).toBe('Flush, ace high');
  });
  it('board 7h 8h 9s Tc Jd: a straight needs two fitting hole cards', () => {
    expect(name('5c6dAsAd', '7h8h9sTcJd')).toBe('Straight, nine high');
    expect(name('KcQdAsAd', '7h8h9sTcJd')).toBe('Straight, king high');
    expect(name('Qc2d3s4d', '7h8h9sTcJd')).not.toMatch(/Straight/);
  });
  it('board Kh Ks Kc Kd 9s: nobody has quads, A-A-x-x is the nut full house', () => {
    expect(name('AcAd2c3d', 'KhKsKcKd9s')).toBe('Full house, kings over aces');
    expect(name('9c9d7c6d', 'KhKsKcKd9s')).toBe('Full house, kings over nines');
    expect(name('9c8d7c6d', 'KhKsKcKd9s')).toBe('Three of a kind, kings');
  });
  it('board Kc Kh Ks 7s As: K-x-x-x has quads, A-A-x-x aces full', () => {
    expect(name('Kd2c3d4h', 'KcKhKs7sAs')).toBe('Four of a kind, kings');
    expect(name('AcAd2c3d', 'KcKhKs7sAs')).toBe('Full house, aces over kings');
  });
  it('the fast path agrees with the reference for 4 and 5 hole cards and 3 to 5 board cards', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 5 }),
        fc.integer({ min: 3, max: 5 }),
        distinctCards(15),
        (h, b, drawn) => {
          const [holeA, holeB, board] = [drawn.slice(0, h), drawn.slice(5, 5 + h), drawn.slice(10, 10 + b)];
          const fast = Math.sign(bestOmahaValueOf(high, holeA, board) - bestOmahaValueOf(high, holeB, board));
          const slow = compareTuples(
            bestOmaha(holeA, board, highTuple)!,
            bestOmaha(holeB, board, highTuple)!,
          );
          expect(fast).toBe(slow);
          expect(bestOmahaHandOf(high, holeA, board).value).toBe(bestOmahaValueOf(high, holeA, board));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('Omaha hi/lo: the low is two hole cards and three board cards too (RULES.md §5)', () => {
  it('a low needs three board cards of eight or lower', () => {
    expect(bestOmahaValueOf(low8Ranking, cards('Ac2d3c4d'), cards('5h6s9cTdJh'))).toBe(NO_HAND);
    expect(bestOmahaValueOf(low8Ranking, cards('Ac2d3c4d'), cards('5h6s8cTdJh'))).not.toBe(NO_HAND);
  });
  it('hole cards of one rank cannot both play in a low', () => {
    expect(bestOmahaValueOf(low8Ranking, cards('AcAdKcKd'), cards('2h3s4cTdJh'))).toBe(NO_HAND);
  });
  it('the fast low path agrees with the reference', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 5 }), distinctCards(10), (h, drawn) => {
        const [hole, board] = [drawn.slice(0, h), drawn.slice(5)];
        const slow = bestOmaha(hole, board, low8Tuple);
        const fast = bestOmahaValueOf(low8Ranking, hole, board);
        expect(fast === NO_HAND).toBe(slow === null);
        expect(bestOmahaHandOf(low8Ranking, hole, board).value).toBe(fast);
      }),
      { numRuns: 3000 },
    );
  });
});
