/**
 * Simulated hands are PHH that replays to the finishing stacks they were written with, for every
 * variant code Felt reads, under PHH's shared rules and under the house options; and a seed always
 * gives the same hands.
 */
import { describe, expect, it } from 'vitest';
import { variantOf } from '../src/hand/variants.js';
import {
  allVariantCodes,
  parsePhhs,
  parseVariantCode,
  PHH_STANDARD_VARIANTS,
  replayPhh,
  simulatePhh,
  writePhhs,
} from '../src/phh/index.js';

const CODES = allVariantCodes();

function simulateAndReplay(variant: string, players: number, seed: number, house: boolean): void {
  const simulated = simulatePhh({ variant, players, hands: 3, seed, house });
  if (!simulated.ok) throw new Error(simulated.error.message);
  const file = parsePhhs(writePhhs(simulated.value));
  if (!file.ok) throw new Error(file.error.message);
  for (const [index, hand] of file.value.entries()) {
    if (!hand.ok) throw new Error(hand.error.message);
    const outcome = replayPhh(hand.value, {});
    if (!outcome.ok) throw new Error(`hand ${index + 1}: ${outcome.error.code} ${outcome.error.message}`);
    expect(outcome.finishingStacks).toEqual(hand.value.finishingStacks);
    expect(outcome.finishingStacks.reduce((a, b) => a + b, 0)).toBe(
      hand.value.startingStacks.reduce((a, b) => a + b, 0),
    );
  }
}

describe('simulate → replay gives back the same finishing stacks', () => {
  it(`covers all ${CODES.length} codes, the 11 PHH codes among them`, () => {
    expect(CODES).toEqual(
      expect.arrayContaining([
        ...PHH_STANDARD_VARIANTS,
        'HT',
        'ST',
        'PO5',
        'FSK',
        'FTE',
        'FAM',
        'F32D',
        'N5D',
      ]),
    );
  });

  it.each(CODES)('%s', (code) => {
    const seats = variantOf(parseVariantCode(code)!.game).seats;
    for (const [players, seed] of [
      [2, 1],
      [seats, 3],
    ] as const) {
      simulateAndReplay(code, players, seed, false);
      simulateAndReplay(code, players, seed + 100, true);
    }
  });
});

describe('simulate', () => {
  it('is deterministic for a seed and varies with it', () => {
    const run = (seed: number): string => {
      const hands = simulatePhh({ variant: 'NT', players: 6, hands: 5, seed });
      return hands.ok ? writePhhs(hands.value) : hands.error.message;
    };
    expect(run(42)).toBe(run(42));
    expect(run(42)).not.toBe(run(43));
  });

  it('plays every kind of action: folds, checks and calls, raises, all-ins, showdowns, draws, bring-ins', () => {
    const text = ['NT', 'F2L3D', 'F7S']
      .map((variant) => {
        const hands = simulatePhh({ variant, players: 4, hands: 40, seed: 9 });
        return hands.ok ? writePhhs(hands.value) : '';
      })
      .join('\n');
    for (const pattern of [
      / f"/,
      / cc"/,
      / cbr \d+"/,
      / pb"/,
      / sd [2-9TJQKA]/,
      / sd"/,
      / sm [2-9TJQKA]/,
      / sm"/,
    ]) {
      expect(text).toMatch(pattern);
    }
    const hands = simulatePhh({ variant: 'NT', players: 4, hands: 40, seed: 9 });
    const allIns = hands.ok ? hands.value.filter((hand) => hand.finishingStacks?.includes(0)).length : 0;
    expect(allIns).toBeGreaterThan(0);
  });

  it('refuses an unknown variant or a table too big for the game', () => {
    expect(simulatePhh({ variant: 'XX', players: 2, hands: 1, seed: 1 }).ok).toBe(false);
    expect(simulatePhh({ variant: 'F32D', players: 6, hands: 1, seed: 1 }).ok).toBe(false);
  });
});
