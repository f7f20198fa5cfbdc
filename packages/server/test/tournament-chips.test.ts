import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addOnOffer,
  chipsSold,
  prizePool,
  reEntryOffer,
  rebuyOffer,
  type BuyerState,
  type TournamentDefinition,
} from '../src/tournament/index.js';

const freezeout: TournamentDefinition = {
  name: 'Rebuy madness',
  kind: 'scheduled',
  startsAt: 0,
  games: [{ game: 'holdem', structure: 'no-limit' }],
  levels: Array.from({ length: 8 }, (_, k) => ({ blinds: { small: 25 * (k + 1), big: 50 * (k + 1) } })),
  levelLength: { unit: 'minutes', value: 10 },
  breaks: { everyLevels: 4, minutes: 5 },
  startingChips: 5_000,
  minEntrants: 2,
  maxEntrants: 500,
  lateRegistrationLevels: 3,
  money: 'real',
  buyIn: 1_000,
  fee: 100,
};

const rebuyEvent: TournamentDefinition = {
  ...freezeout,
  rebuy: {
    cost: 1_000,
    fee: 100,
    chips: 5_000,
    maxPerPlayer: 3,
    maxStack: 5_000,
    window: { fromLevel: 0, untilLevel: 3 },
  },
  addOn: { cost: 1_000, fee: 0, chips: 10_000, maxPerPlayer: 1, window: { fromLevel: 3, untilLevel: 3 } },
  reEntry: { maxPerPlayer: 2, window: { fromLevel: 0, untilLevel: 3 } },
};

const fresh: BuyerState = { stack: 5_000, playing: true, rebuys: 0, addOns: 0, reEntries: 0 };

describe('chips accounting', () => {
  it('total tournament chips = chips sold (entries, rebuys, add-ons); the pool = their cost, fees to the house', () => {
    const sold = { entries: 120, rebuys: 40, addOns: 90 };
    expect(chipsSold(rebuyEvent, sold)).toBe(120 * 5_000 + 40 * 5_000 + 90 * 10_000);
    expect(prizePool(rebuyEvent, sold)).toBe(120 * 1_000 + 40 * 1_000 + 90 * 1_000);
  });

  it('property: the chips of the offers accepted are exactly the chips sold', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('rebuy', 'add-on', 're-entry'),
            fc.integer({ min: 0, max: 8 }),
            fc.integer({ min: 0, max: 20_000 }),
          ),
          { maxLength: 40 },
        ),
        (asks) => {
          let buyer: BuyerState = fresh;
          const sold = { entries: 1, rebuys: 0, addOns: 0 };
          let chips = rebuyEvent.startingChips;
          for (const [kind, level, stack] of asks) {
            buyer = { ...buyer, stack, playing: stack > 0 };
            const offer =
              kind === 'rebuy'
                ? rebuyOffer(rebuyEvent, buyer, level)
                : kind === 'add-on'
                  ? addOnOffer(rebuyEvent, buyer, level)
                  : reEntryOffer(rebuyEvent, buyer, level);
            if (!offer.ok) continue;
            chips += offer.value.chips;
            if (kind === 'rebuy') {
              sold.rebuys++;
              buyer = { ...buyer, rebuys: buyer.rebuys + 1 };
            } else if (kind === 'add-on') {
              sold.addOns++;
              buyer = { ...buyer, addOns: buyer.addOns + 1 };
            } else {
              sold.entries++;
              buyer = { ...buyer, reEntries: buyer.reEntries + 1 };
            }
          }
          expect(chips).toBe(chipsSold(rebuyEvent, sold));
          expect(buyer.rebuys).toBeLessThanOrEqual(3);
          expect(buyer.addOns).toBeLessThanOrEqual(1);
          expect(buyer.reEntries).toBeLessThanOrEqual(2);
        },
      ),
    );
  });
});

describe('rebuys, add-ons and re-entry', () => {
  it('a rebuy: during its levels, up to its number, while the stack is at most its limit', () => {
    expect(rebuyOffer(rebuyEvent, { ...fresh, stack: 0 }, 0)).toEqual({
      ok: true,
      value: { cost: 1_000, fee: 100, chips: 5_000 },
    });
    expect(rebuyOffer(rebuyEvent, fresh, 4)).toMatchObject({ ok: false, error: { code: 'OUT_OF_WINDOW' } });
    expect(rebuyOffer(rebuyEvent, { ...fresh, rebuys: 3 }, 1)).toMatchObject({
      ok: false,
      error: { code: 'LIMIT_REACHED' },
    });
    expect(rebuyOffer(rebuyEvent, { ...fresh, stack: 5_001 }, 1)).toMatchObject({
      ok: false,
      error: { code: 'STACK_TOO_BIG' },
    });
    expect(rebuyOffer(rebuyEvent, { ...fresh, stack: 0, playing: false }, 1)).toMatchObject({
      ok: false,
      error: { code: 'NOT_PLAYING' },
    });
    expect(rebuyOffer(freezeout, fresh, 0)).toMatchObject({ ok: false, error: { code: 'NOT_OFFERED' } });
  });

  it('an add-on: once, in its levels, whatever the stack', () => {
    expect(addOnOffer(rebuyEvent, { ...fresh, stack: 40_000 }, 3)).toEqual({
      ok: true,
      value: { cost: 1_000, fee: 0, chips: 10_000 },
    });
    expect(addOnOffer(rebuyEvent, fresh, 2)).toMatchObject({ ok: false, error: { code: 'OUT_OF_WINDOW' } });
    expect(addOnOffer(rebuyEvent, { ...fresh, addOns: 1 }, 3)).toMatchObject({
      ok: false,
      error: { code: 'LIMIT_REACHED' },
    });
  });

  it('re-entry: only for a player who is out, a new entry at the buy-in and fee for a starting stack', () => {
    const out = { ...fresh, stack: 0, playing: false };
    expect(reEntryOffer(rebuyEvent, out, 2)).toEqual({
      ok: true,
      value: { cost: 1_000, fee: 100, chips: 5_000 },
    });
    expect(reEntryOffer(rebuyEvent, fresh, 2)).toMatchObject({ ok: false, error: { code: 'STILL_PLAYING' } });
    expect(reEntryOffer(rebuyEvent, { ...out, reEntries: 2 }, 2)).toMatchObject({
      ok: false,
      error: { code: 'LIMIT_REACHED' },
    });
    expect(reEntryOffer(rebuyEvent, out, 4)).toMatchObject({ ok: false, error: { code: 'OUT_OF_WINDOW' } });
  });
});
