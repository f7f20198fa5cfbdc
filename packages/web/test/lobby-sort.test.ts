import type { TableSummary } from '@felt/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupOf, orderRows, SORT_KEYS } from '../src/lobby-sort';

const row = (tableId: string, fields: Partial<TableSummary>): TableSummary => ({
  tableId,
  name: tableId,
  game: 'holdem',
  structure: 'no-limit',
  currency: 'play',
  stakes: { small: 100, big: 200 },
  stakesText: '1/2',
  seats: 6,
  taken: 0,
  free: 6,
  waiting: 0,
  minBuyIn: 4000,
  maxBuyIn: 20000,
  averagePot: 0,
  handsPerHour: 0,
  paused: false,
  ...fields,
});

const arbitraryRows = fc
  .array(
    fc.record({
      game: fc.constantFrom('holdem', 'omaha', 'stud', 'razz'),
      structure: fc.constantFrom('no-limit', 'fixed-limit', 'pot-limit'),
      currency: fc.constantFrom('play' as const, 'real' as const),
      big: fc.constantFrom(2, 50, 200, 1000),
      taken: fc.integer({ min: 0, max: 6 }),
      averagePot: fc.integer({ min: 0, max: 10_000 }),
      handsPerHour: fc.integer({ min: 0, max: 120 }),
    }),
    { maxLength: 30 },
  )
  .map((specs) =>
    specs.map((spec, index) =>
      row(`t${String(index).padStart(2, '0')}`, {
        game: spec.game as never,
        structure: spec.structure,
        currency: spec.currency,
        stakes: { small: spec.big / 2, big: spec.big },
        stakesText: `${spec.big / 200}/${spec.big / 100}`,
        taken: spec.taken,
        averagePot: spec.averagePot,
        handsPerHour: spec.handsPerHour,
      }),
    ),
  );

describe('lobby order', () => {
  it("without a column the room's order stays; each column sorts both ways and ties keep the room's order", () => {
    fc.assert(
      fc.property(arbitraryRows, fc.constantFrom(...SORT_KEYS), fc.boolean(), (rows, key, descending) => {
        expect(orderRows(rows, { key: null, descending: false, grouped: false })).toEqual(rows);
        const sorted = orderRows(rows, { key, descending, grouped: false });
        expect([...sorted].sort((a, b) => a.tableId.localeCompare(b.tableId))).toEqual(rows);
        const value = (r: TableSummary): number | string =>
          key === 'stakes'
            ? r.stakes.big
            : key === 'seats'
              ? r.taken
              : key === 'averagePot' || key === 'handsPerHour'
                ? r[key]
                : '';
        for (let i = 1; i < sorted.length; i++) {
          const [a, b] = [sorted[i - 1]!, sorted[i]!];
          const [va, vb] = [value(a), value(b)];
          if (typeof va !== 'number' || typeof vb !== 'number') continue;
          if (va === vb) expect(a.tableId < b.tableId).toBe(true);
          else expect(descending ? va > vb : va < vb).toBe(true);
        }
      }),
    );
  });

  it('grouped: each group of game and stakes is together, under one heading, and sorted inside by the column', () => {
    fc.assert(
      fc.property(arbitraryRows, (rows) => {
        const sorted = orderRows(rows, { key: 'averagePot', descending: true, grouped: true });
        const seen: string[] = [];
        for (const [i, r] of sorted.entries()) {
          const group = groupOf(r);
          if (i === 0 || groupOf(sorted[i - 1]!) !== group) {
            expect(seen).not.toContain(group);
            seen.push(group);
          } else {
            expect(sorted[i - 1]!.averagePot).toBeGreaterThanOrEqual(r.averagePot);
          }
        }
      }),
    );
  });

  it('stakes sort by the big blind, not as text: 0.50/1 before 1/2 before 10/20', () => {
    const rows = [
      row('high', { stakes: { small: 1000, big: 2000 }, stakesText: '10/20' }),
      row('low', { stakes: { small: 50, big: 100 }, stakesText: '0.50/1' }),
      row('mid', { stakes: { small: 100, big: 200 }, stakesText: '1/2' }),
    ];
    const ids = (key: 'stakes', descending: boolean) =>
      orderRows(rows, { key, descending, grouped: false }).map((r) => r.tableId);
    expect(ids('stakes', false)).toEqual(['low', 'mid', 'high']);
    expect(ids('stakes', true)).toEqual(['high', 'mid', 'low']);
    expect(groupOf(rows[1]!)).toBe("Texas Hold'em · 0.50/1 play");
  });
});
