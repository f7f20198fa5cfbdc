import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deckCards } from '../src/deck.js';
import { bestHandOf } from '../src/eval/combine.js';
import { americanaRanking, highRankingStandard, shortDeckRanking } from '../src/eval/high-rankings.js';
import { standardHigh } from '../src/eval/high.js';
import { cards, distinctCards, forEachFiveCardHand } from './helpers.js';
import { bestOfAny, compareTuples, highClass, highTuple, STANDARD, type HighOptions } from './reference.js';

const high = highRankingStandard;
const value = (text: string): number => high.best!(cards(text));
const beats = (a: string, b: string): boolean => value(a) > value(b);

describe('high hands: the census of all 2,598,960 five-card hands', () => {
  it('falls into the known class counts and 7,462 distinct values, agreeing with the reference classifier', () => {
    const counts = new Map<string, number>();
    const values = new Set<number>();
    let disagreements = 0;
    forEachFiveCardHand(deckCards('standard52'), (hand) => {
      const fast = high.evaluate(hand);
      values.add(fast);
      const name = high.className(fast);
      counts.set(name, (counts.get(name) ?? 0) + 1);
      const reference = highClass(hand).name;
      if (name !== reference && !(name === 'royal-flush' && reference === 'straight-flush')) disagreements++;
    });
    expect(disagreements).toBe(0);
    expect(Object.fromEntries(counts)).toEqual({
      'royal-flush': 4,
      'straight-flush': 36,
      'four-of-a-kind': 624,
      'full-house': 3744,
      flush: 5108,
      straight: 10200,
      'three-of-a-kind': 54912,
      'two-pair': 123552,
      pair: 1098240,
      'high-card': 1302540,
    });
    expect(values.size).toBe(7462);
  });
});

describe('high hands: the rules’ examples (RULES.md §1)', () => {
  it('Q-Q-Q-6-6 beats Q-Q-Q-5-5', () => {
    expect(beats('QcQdQh6s6c', 'QcQdQs5s5c')).toBe(true);
  });
  it('a king-high flush beats a queen-high flush', () => {
    expect(beats('Kh7h5h3h2h', 'QsJsTs8s6s')).toBe(true);
  });
  it('A-A-K-T-6 beats A-A-Q-J-5', () => {
    expect(beats('AcAdKhTs6c', 'AhAsQcJd5h')).toBe(true);
  });
  it('J-J-J-A-Q beats J-J-J-A-9', () => {
    expect(beats('JcJdJhAsQc', 'JcJdJsAh9c')).toBe(true);
  });
  it('the ace is low only in the wheel A-2-3-4-5, the lowest straight', () => {
    expect(high.describe(value('As2d3c4h5s'), [])).toBe('Straight, five high');
    expect(beats('2d3c4h5s6s', 'As2d3c4h5s')).toBe(true);
    expect(high.className(value('Ks As2d3c4h'))).toBe('high-card');
  });
  it('suits never break ties', () => {
    expect(value('AsKsQsJs9d')).toBe(value('AhKhQhJh9c'));
  });
  it('the best five of seven may use no hole card at all (playing the board)', () => {
    expect(value('2c3d AsKsQsJsTs')).toBe(value('AsKsQsJsTs'));
  });
  it('names hands as players say them', () => {
    expect(high.describe(value('KhKdKs5c5d'), [])).toBe('Full house, kings over fives');
    expect(high.describe(value('AsKsQsJsTs'), [])).toBe('Royal flush');
    expect(high.describe(value('9s8s7s6s5s'), [])).toBe('Straight flush, nine high');
    expect(high.describe(value('6c6d6h6sKd'), [])).toBe('Four of a kind, sixes');
    expect(high.describe(value('JcJd4h4s2c'), [])).toBe('Two pair, jacks and fours');
    expect(high.describe(value('9c9dAh4s2c'), [])).toBe('Pair of nines');
    expect(high.describe(value('Ac9d7h4s2c'), [])).toBe('High card, ace');
  });
});

describe('high hands: the fast evaluator agrees with the reference', () => {
  const agrees = (options: HighOptions, ranking: typeof high, deck: number[]): void => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 7 }), distinctCards(14, deck), (n, drawn) => {
        const a = drawn.slice(0, n);
        const b = drawn.slice(7, 7 + n);
        const fast = Math.sign(ranking.best!(a) - ranking.best!(b));
        const slow = compareTuples(
          bestOfAny(a, (five) => highTuple(five, options))!,
          bestOfAny(b, (five) => highTuple(five, options))!,
        );
        expect(fast).toBe(slow);
      }),
      { numRuns: 3000 },
    );
  };

  it('orders random pairs of 5, 6 and 7 card hands as the reference does', () => {
    agrees(STANDARD, high, deckCards('standard52'));
  });
  it('value7 and value agree with each other', () => {
    fc.assert(
      fc.property(distinctCards(7), (hand) => {
        const [a, b, c, d, e, f, g] = hand as [number, number, number, number, number, number, number];
        expect(standardHigh().value7(a, b, c, d, e, f, g)).toBe(standardHigh().value(hand));
      }),
      { numRuns: 2000 },
    );
  });
  it('the best five chosen by enumeration has the fast path’s value', () => {
    fc.assert(
      fc.property(distinctCards(7), (hand) => {
        expect(bestHandOf(high, hand).value).toBe(high.best!(hand));
      }),
      { numRuns: 500 },
    );
  });

  describe('short-deck hold’em (36 cards)', () => {
    const short = { wheel: [4, 5, 6, 7], flushBeatsFullHouse: true };
    it('orders random hands as the reference does', () => {
      agrees(short, shortDeckRanking, deckCards('short36'));
    });
    it('a flush beats a full house', () => {
      expect(shortDeckRanking.best!(cards('Ah9h8h7h6h')) > shortDeckRanking.best!(cards('AcAdAs6c6d'))).toBe(
        true,
      );
    });
    it('A-6-7-8-9 is the lowest straight', () => {
      expect(shortDeckRanking.describe(shortDeckRanking.best!(cards('As6d7c8h9s')), [])).toBe(
        'Straight, nine high',
      );
      expect(shortDeckRanking.best!(cards('As6d7c8h9s')) < shortDeckRanking.best!(cards('6d7c8h9sTs'))).toBe(
        true,
      );
    });
  });

  describe('Americana (32 cards)', () => {
    const piquet = { wheel: [5, 6, 7, 8], flushBeatsFullHouse: true };
    it('orders random hands as the reference does', () => {
      agrees(piquet, americanaRanking, deckCards('piquet32'));
    });
    it('A-7-8-9-T is the lowest straight', () => {
      expect(americanaRanking.describe(americanaRanking.best!(cards('As7d8c9hTs')), [])).toBe(
        'Straight, ten high',
      );
    });
    it('a flush beats a full house, ties split (suits do not count)', () => {
      expect(americanaRanking.best!(cards('AhJh9h8h7h')) > americanaRanking.best!(cards('AcAdAsKcKd'))).toBe(
        true,
      );
      expect(americanaRanking.best!(cards('AhKhQhJh9h'))).toBe(americanaRanking.best!(cards('AsKsQsJs9s')));
    });
  });
});
