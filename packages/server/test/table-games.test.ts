import { parsePhh, ROOM_VARIANT_IDS, seededRandom, STRUCTURES, textToPhh, variantOf } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import { historyText } from '../src/table/history.js';
import { harness, playHand, sitAll } from './table-helpers.js';

describe('tables: several players play a hand of every game to the end', () => {
  ROOM_VARIANT_IDS.forEach((game, i) => {
    const structure = STRUCTURES[i % STRUCTURES.length]!;
    it(`${game} (${structure})`, async () => {
      const players = Math.min(4, variantOf(game).seats);
      const h = harness(
        { game, structure, currency: 'real', stakes: { small: 100, big: 200 } },
        { players, seed: 7 + i },
      );
      const before = h.storage.total();
      await sitAll(h, 5_000);
      const random = seededRandom(100 + i);
      let hands = 0;
      for (let n = 0; n < 3; n++) {
        // a player who went broke is not dealt in: stop when fewer than two have chips
        if (h.table.view(null).seats.filter((s) => s !== null && s.stack > 0).length < 2) break;
        await playHand(h, random);
        hands++;
      }
      expect(h.errors).toEqual([]);
      expect(h.storage.settled.size).toBe(hands);
      expect(hands).toBeGreaterThan(0);
      expect(h.storage.total()).toBe(before);
      const settlement = [...h.storage.settled.values()][0]!;
      expect(settlement.history.phh).toContain('variant');
      expect(settlement.history.views).toHaveLength(players);
      // The text is made from the stored PHH: the hand it tells is the stored one, in cents.
      for (const stored of [settlement.history, ...settlement.history.views]) {
        const text = historyText(stored.phh);
        expect(text).toMatch(/^Felt Hand #1: /);
        expect(text).toContain('(50.00 in chips)');
        const told = textToPhh(text);
        const phh = parsePhh(stored.phh);
        // In cents; comments (a split accepted) are PHH's alone.
        const played = (hand: typeof phh): unknown =>
          hand.ok &&
          hand.value.actions
            .filter((action) => action.kind !== 'none')
            .map((action) =>
              action.kind === 'bet-raise'
                ? { ...action, amount: action.amount * 10 ** (2 - hand.value.scale) }
                : action,
            );
        expect(played(told)).toEqual(played(phh));
      }
      const summary = (await h.table.lastSummary(1))!;
      expect(summary.players.reduce((a, p) => a + p.won - p.committed, 0) + summary.rake).toBe(0);
      // seats at the table match the ledger's seats
      for (const seat of h.table.view(null).seats) {
        if (seat) expect(h.storage.seat('t1', seat.account)).toBe(seat.stack);
      }
      await h.table.dispose();
    });
  });
});

describe('tables: rake to the house on real-money tables only', () => {
  it('play money pays no rake', async () => {
    const h = harness(
      { game: 'holdem', structure: 'no-limit', currency: 'play', stakes: { small: 100, big: 100 } },
      { players: 4 },
    );
    await sitAll(h, 10_000);
    const random = seededRandom(3);
    // Ten hands, or fewer when all but one player went broke.
    const withChips = (): number => h.table.view(null).seats.filter((s) => s !== null && s.stack > 0).length;
    for (let n = 0; n < 10 && withChips() >= 2; n++) await playHand(h, random);
    expect(h.storage.settled.size).toBeGreaterThan(0);
    expect(h.storage.house).toBe(0);
  });
});
