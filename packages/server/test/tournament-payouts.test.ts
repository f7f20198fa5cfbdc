import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chipChop,
  icmDeal,
  payoutTable,
  placeProbabilities,
  prizes,
  standardPayoutTable,
  standardPlacesPaid,
} from '../src/tournament/index.js';

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const nonIncreasing = (xs: readonly number[]): boolean => xs.every((x, i) => i === 0 || x <= xs[i - 1]!);

describe('standard payout table', () => {
  it('heads-up is winner take all; a 6-seat sit & go pays 2, a 9 or 10-seat 3', () => {
    expect(standardPayoutTable(2)).toEqual([10_000]);
    expect(standardPayoutTable(6)).toEqual([6_500, 3_500]);
    expect(standardPayoutTable(9)).toEqual([5_000, 3_000, 2_000]);
    expect(standardPayoutTable(10)).toEqual([5_000, 3_000, 2_000]);
  });

  it('large fields: about 15 % paid, first place 15–25 %', () => {
    for (const entrants of [200, 500, 1_000, 3_000, 10_000]) {
      const table = standardPayoutTable(entrants);
      expect(table).toHaveLength(Math.floor(entrants * 0.15));
      expect(table[0]!).toBeGreaterThanOrEqual(1_500);
      expect(table[0]!).toBeLessThanOrEqual(2_500);
    }
  });

  it('property: every table adds up to 10,000 basis points, never pays a lower place more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 5_000 }), (entrants) => {
        const table = standardPayoutTable(entrants);
        expect(table).toHaveLength(standardPlacesPaid(entrants));
        expect(sum(table)).toBe(10_000);
        expect(nonIncreasing(table)).toBe(true);
        expect(table.at(-1)!).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });

  it('the tournament’s own table: the range for the most entrants reached', () => {
    const own = [
      { fromEntrants: 2, shares: [10_000] },
      { fromEntrants: 5, shares: [7_000, 3_000] },
    ];
    expect(payoutTable(4, own)).toEqual([10_000]);
    expect(payoutTable(9, own)).toEqual([7_000, 3_000]);
  });
});

describe('prizes in cents', () => {
  it('odd cents go to the highest places', () => {
    expect(prizes(1_001, [5_000, 3_000, 2_000])).toEqual([501, 300, 200]);
    expect(prizes(7, [3_400, 3_300, 3_300])).toEqual([3, 2, 2]);
  });

  it('property: prizes add up exactly to the pool, a lower place never more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 3_000 }),
        fc.integer({ min: 0, max: 10 ** 10 }),
        (entrants, pool) => {
          const paid = prizes(pool, standardPayoutTable(entrants));
          expect(sum(paid)).toBe(pool);
          expect(nonIncreasing(paid)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects a pool that is not whole cents', () => {
    expect(() => prizes(10.5, [10_000])).toThrow(RangeError);
    expect(() => prizes(-1, [10_000])).toThrow(RangeError);
  });
});

describe('ICM deal (Malmuth–Harville)', () => {
  it('known answer, 3 players: stacks 50/30/20, prizes 50/30/20 dollars', () => {
    // By hand: P(1st) = .5, .3, .2. P(A 2nd) = .3·50/70 + .2·50/80 = .339286; P(B 2nd) = .5·30/50 + .2·30/80
    // = .375; P(C 2nd) = .5·20/50 + .3·20/70 = .285714. Equity: A 2,500 + 1,017.857 + 321.429 = 3,839.29;
    // B 1,500 + 1,125 + 650 = 3,275; C 1,000 + 857.14 + 1,028.57 = 2,885.71. Rounded to cents adding up
    // to 10,000: 3,839, 3,275, 2,886 (the odd cent to the largest fraction, C's .71).
    expect(icmDeal([50, 30, 20], [5_000, 3_000, 2_000])).toEqual([3_839, 3_275, 2_886]);
  });

  it('known answer, 3 players, two places paid: stacks 1/1/2 of prizes 700/300', () => {
    // P(1st) = 1/4, 1/4, 1/2. P(A 2nd) = ¼·1/3 + ½·1/2 = 1/3 (same for B); P(C 2nd) = 2·¼·2/3 = 1/3.
    // A: 175 + 100 = 275; B 275; C 350 + 100 = 450.
    expect(icmDeal([1, 1, 2], [700, 300])).toEqual([275, 275, 450]);
  });

  it('the chances of each place add up to one, for each player and each place', () => {
    const chance = placeProbabilities([10, 20, 30, 40, 50]);
    for (const row of chance) expect(sum(row)).toBeCloseTo(1, 12);
    for (let k = 0; k < 5; k++) expect(sum(chance.map((row) => row[k]!))).toBeCloseTo(1, 12);
  });

  it('property: in whole cents adding up to the prizes left, never below the smallest nor above the largest, more chips never less', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10 ** 7 }), { minLength: 2, maxLength: 10 }),
        fc.array(fc.integer({ min: 0, max: 10 ** 7 }), { minLength: 10, maxLength: 10 }),
        (stacks, amounts) => {
          const unpaid = amounts.slice(0, stacks.length).sort((a, b) => b - a);
          const deal = icmDeal(stacks, unpaid);
          expect(sum(deal)).toBe(sum(unpaid));
          for (const [i, d] of deal.entries()) {
            expect(Number.isInteger(d)).toBe(true);
            expect(d).toBeGreaterThanOrEqual(unpaid.at(-1)! - 1);
            expect(d).toBeLessThanOrEqual(unpaid[0]! + 1);
            for (const [j, e] of deal.entries())
              if (stacks[i]! > stacks[j]!) expect(d).toBeGreaterThanOrEqual(e - 1);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('chip-chop deal', () => {
  it('each gets the smallest unpaid prize, the rest shared by chips', () => {
    // 2,000 each; 4,000 left by chips 60/30/10: 2,400, 1,200, 400.
    expect(chipChop([600, 300, 100], [5_000, 3_000, 2_000])).toEqual([4_400, 3_200, 2_400]);
  });

  it('property: in whole cents adding up to the prizes left, never below the smallest unpaid prize', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10 ** 9 }), { minLength: 2, maxLength: 10 }),
        fc.array(fc.integer({ min: 0, max: 10 ** 9 }), { minLength: 10, maxLength: 10 }),
        (stacks, amounts) => {
          const unpaid = amounts.slice(0, stacks.length).sort((a, b) => b - a);
          const deal = chipChop(stacks, unpaid);
          expect(sum(deal)).toBe(sum(unpaid));
          for (const d of deal) expect(d).toBeGreaterThanOrEqual(unpaid.at(-1)!);
        },
      ),
    );
  });

  it('rejects a deal without chips or with more prizes than players', () => {
    expect(() => chipChop([100, 0], [10, 5])).toThrow(RangeError);
    expect(() => icmDeal([100, 50], [10, 5, 1])).toThrow(RangeError);
  });
});
