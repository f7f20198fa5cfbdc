import { ROOM_VARIANT_IDS, seededRandom, STRUCTURES, variantOf } from '@felt/engine';
import { describe, expect, it } from 'vitest';
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
      expect(settlement.history.text).toContain('Felt Hand #1');
      expect(settlement.history.views).toHaveLength(players);
      const summary = h.table.lastSummary(1)!;
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
    for (let n = 0; n < 10; n++) await playHand(h, random);
    expect(h.storage.house).toBe(0);
  });
});
