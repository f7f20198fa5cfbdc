import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chipChop,
  icmDeal,
  payoutTable,
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

/** Malmuth–Harville equities by every finishing order (n! of them), in exact fractions: independent of ./icm.ts. */
function equitiesByOrders(
  stacks: readonly number[],
  unpaid: readonly number[],
): { num: bigint; den: bigint }[] {
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
  const add = (x: { num: bigint; den: bigint }, num: bigint, den: bigint) => {
    const n = x.num * den + num * x.den;
    const d = x.den * den;
    const g = gcd(n, d);
    return { num: n / g, den: d / g };
  };
  const equity = stacks.map(() => ({ num: 0n, den: 1n }));
  const visit = (left: number[], num: bigint, den: bigint, place: number) => {
    if (place === unpaid.length || left.length === 0) return;
    const chips = left.reduce((sum, i) => sum + BigInt(stacks[i]!), 0n);
    for (const i of left) {
      const n = num * BigInt(stacks[i]!);
      const d = den * chips;
      equity[i] = add(equity[i]!, n * BigInt(unpaid[place]!), d);
      visit(
        left.filter((j) => j !== i),
        n,
        d,
        place + 1,
      );
    }
  };
  visit(
    stacks.map((_, i) => i),
    1n,
    1n,
    0,
  );
  return equity;
}

describe('ICM deal, exact', () => {
  it('each amount is the exact equity rounded by largest remainder, as every finishing order gives it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10 ** 7 }), { minLength: 2, maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: 10 ** 7 }), { minLength: 5, maxLength: 5 }),
        (stacks, amounts) => {
          const unpaid = amounts.slice(0, stacks.length).sort((a, b) => b - a);
          const exact = equitiesByOrders(stacks, unpaid);
          const deal = icmDeal(stacks, unpaid);
          // Each amount is its equity rounded down or up, and the ones rounded up have the largest remainders.
          const floors = exact.map((e) => e.num / e.den);
          for (const [i, amount] of deal.entries()) {
            expect([floors[i]!, floors[i]! + 1n]).toContain(BigInt(amount));
          }
          const up = deal.map((amount, i) => BigInt(amount) > floors[i]!);
          const rem = (i: number) => ((exact[i]!.num % exact[i]!.den) * 10n ** 30n) / exact[i]!.den;
          for (const [i, isUp] of up.entries())
            for (const [j, otherUp] of up.entries())
              if (isUp && !otherUp) expect(rem(i) > rem(j) || (rem(i) === rem(j) && i < j)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('equal stacks get equal equity: the odd cent goes to the earlier entry, never by rounding noise', () => {
    // Three equal stacks share 10,000 cents, 3,333.33… each: the odd cent to the first.
    expect(icmDeal([700, 700, 700], [5_000, 3_000, 2_000])).toEqual([3_334, 3_333, 3_333]);
    // In floating point the last of these two equal stacks got the odd cent (3,425,047 and 3,425,048).
    const stacks = [1_759_303, 7_698_138, 2_150_599, 5_188_260, 2_241_956, 1_759_303];
    const unpaid = [9_151_302, 5_678_036, 2_995_261, 2_679_317, 2_502_822, 2_234_714];
    const deal = icmDeal(stacks, unpaid);
    expect([deal[0], deal[5]]).toEqual([3_425_048, 3_425_047]);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10 ** 7 }), { minLength: 1, maxLength: 7 }),
        fc.integer({ min: 1, max: 10 ** 7 }),
        fc.array(fc.integer({ min: 0, max: 10 ** 7 }), { minLength: 9, maxLength: 9 }),
        (others, tied, amounts) => {
          const stacks = [tied, ...others, tied];
          const unpaid = amounts.slice(0, stacks.length).sort((a, b) => b - a);
          const deal = icmDeal(stacks, unpaid);
          expect(deal[0]! - deal.at(-1)!).toBeGreaterThanOrEqual(0);
          expect(deal[0]! - deal.at(-1)!).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a final table of ten is dealt', () => {
    const stacks = [
      9_871_234, 8_000_000, 5_500_001, 5_500_001, 3_000_000, 2_000_000, 1_234_567, 999_999, 500_000, 1,
    ];
    const unpaid = [
      3_000_000, 1_900_000, 1_400_000, 1_000_000, 800_000, 600_000, 450_000, 350_000, 300_000, 250_000,
    ];
    const deal = icmDeal(stacks, unpaid);
    expect(sum(deal)).toBe(sum(unpaid));
    expect(deal[2]).toBe(deal[3]! + (deal[2]! === deal[3]! ? 0 : 1));
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
