import { describe, expect, it } from 'vitest';
import { randomBelow, seededRandom, shuffleInPlace, type RandomSource } from '../src/random.js';

describe('shuffling', () => {
  it('the same seed gives the same shuffle', () => {
    const deal = (seed: number): number[] => shuffleInPlace([...Array(52).keys()], seededRandom(seed));
    expect(deal(7)).toEqual(deal(7));
    expect(deal(7)).not.toEqual(deal(8));
  });

  it('a shuffle is a permutation of the deck', () => {
    const shuffled = shuffleInPlace([...Array(52).keys()], seededRandom(1));
    expect([...shuffled].sort((a, b) => a - b)).toEqual([...Array(52).keys()]);
  });

  it('every card is uniform over every position (chi-square over 52×52 cells)', () => {
    const shuffles = 52 * 400;
    const counts = new Float64Array(52 * 52);
    const random = seededRandom(2024);
    for (let s = 0; s < shuffles; s++) {
      const deck = shuffleInPlace([...Array(52).keys()], random);
      deck.forEach((card, position) => counts[card * 52 + position]!++);
    }
    const expected = shuffles / 52;
    let chiSquare = 0;
    for (const observed of counts) chiSquare += (observed - expected) ** 2 / expected;
    // 51 × 51 = 2601 degrees of freedom: mean 2601, standard deviation √5202 ≈ 72. Six deviations either way
    // fail only on a real bias (a modulo-biased or off-by-one shuffle lands far outside).
    expect(chiSquare).toBeGreaterThan(2601 - 6 * 72);
    expect(chiSquare).toBeLessThan(2601 + 6 * 72);
  });

  it('an off-by-one shuffle fails the same chi-square test (the test can fail)', () => {
    const shuffles = 52 * 400;
    const counts = new Float64Array(52 * 52);
    const random = seededRandom(2024);
    for (let s = 0; s < shuffles; s++) {
      const deck = [...Array(52).keys()];
      for (let i = deck.length - 1; i > 0; i--) {
        const j = randomBelow(random, i); // the classic mistake: never leaves a card where it is
        [deck[i], deck[j]] = [deck[j]!, deck[i]!];
      }
      deck.forEach((card, position) => counts[card * 52 + position]!++);
    }
    const expected = shuffles / 52;
    let chiSquare = 0;
    for (const observed of counts) chiSquare += (observed - expected) ** 2 / expected;
    expect(chiSquare).toBeGreaterThan(2601 + 6 * 72);
  });

  it('randomBelow rejects draws past the last whole multiple: no modulo bias', () => {
    // A source whose first draw falls in the biased tail (2^32 − 1 for bound 3) must be redrawn.
    const draws = [0xffff_ffff, 5];
    const source: RandomSource = { nextUint32: () => draws.shift()! };
    expect(randomBelow(source, 3)).toBe(2);
    expect(draws).toEqual([]);
  });

  it('randomBelow refuses bounds that are not whole numbers from 1 to 2^32', () => {
    const random = seededRandom(1);
    for (const bound of [0, -1, 1.5, 2 ** 32 + 1])
      expect(() => randomBelow(random, bound)).toThrow(RangeError);
  });
});
