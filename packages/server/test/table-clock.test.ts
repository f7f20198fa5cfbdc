import { seededRandom } from '@felt/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryAllInCounter, type EventView } from '../src/table/index.js';
import {
  actor,
  connect,
  disconnect,
  harness,
  playHand,
  randomDecision,
  sitAll,
  tick,
} from './table-helpers.js';

const eventsOf = (h: ReturnType<typeof harness>, handId: number): EventView[] =>
  h.inbox
    .get('spectator')!
    .flatMap((m) => (m.type === 'table-event' && m.handId === handId ? [m.event] : []));

describe('clocks', () => {
  it('time-out: check if free, else fold (after the time bank)', async () => {
    const h = harness(
      { game: 'holdem', structure: 'no-limit', clocks: { actionMs: 15_000, timeBankMs: 30_000 } },
      { players: 3 },
    );
    await sitAll(h, 100);
    await tick(h, 2_000);
    const handId = h.table.view(null).hand!.handId;
    const first = actor(h)!; // facing the big blind: must fold
    await tick(h, 15_000); // action clock out: the time bank runs
    expect(actor(h)).toEqual(first);
    await tick(h, 30_000);
    expect(eventsOf(h, handId)).toContainEqual({
      type: 'timeout',
      seat: h.table.view(first.account).you!,
      result: 'fold',
    });
    expect(h.table.view(null).seats[h.table.view(first.account).you!]!.timeBankMs).toBe(0);
    // small blind calls, big blind may check: his time-out checks
    const sb = actor(h)!;
    await h.table.handle(sb, { type: 'act', action: { type: 'call' } });
    const bb = actor(h)!;
    await tick(h, 15_000);
    await tick(h, 30_000);
    expect(eventsOf(h, handId)).toContainEqual({ type: 'check', seat: h.table.view(bb.account).you! });
  });

  it('draw time-out: stand pat, flagged timed out (30 s)', async () => {
    const h = harness({ game: 'draw5', structure: 'fixed-limit', clocks: { timeBankMs: 0 } }, { players: 2 });
    await sitAll(h, 100);
    await tick(h, 2_000);
    const handId = h.table.view(null).hand!.handId;
    while (h.table.view(null).hand?.phase === 'bet') {
      const who = actor(h)!;
      const legal = h.table.view(who.account).hand!.legal!;
      await h.table.handle(who, { type: 'act', action: legal.check ? { type: 'check' } : { type: 'call' } });
    }
    expect(h.table.view(null).hand!.phase).toBe('draw');
    const drawer = h.table.view(null).hand!.actor!;
    await tick(h, 29_999);
    expect(h.table.view(null).hand!.actor).toBe(drawer);
    await tick(h, 1);
    expect(eventsOf(h, handId)).toContainEqual({ type: 'discard', seat: drawer, cards: [], timedOut: true });
  });

  it('disconnect and reconnect: the seat and the hand are kept; the full view comes back', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 3 });
    await sitAll(h, 100);
    await tick(h, 2_000);
    const who = actor(h)!;
    disconnect(h, who.account);
    expect(h.table.view(null).seats[h.table.view(who.account).you!]!.connected).toBe(false);
    h.inbox.set(who.account, []);
    connect(h, who.account);
    await h.table.idle();
    const got = h.inbox.get(who.account)!;
    const snapshot = got.find((m) => m.type === 'table-snapshot');
    expect(snapshot?.type === 'table-snapshot' && snapshot.view.hand?.legal).toBeTruthy();
    const mine =
      snapshot?.type === 'table-snapshot'
        ? snapshot.view.hand!.players.find((p) => p.seat === snapshot.view.you)!
        : null;
    expect(mine!.cards.every((c) => c !== '??')).toBe(true);
    expect(got.some((m) => m.type === 'legal-actions')).toBe(true);
    expect(
      (await h.table.handle(who, { type: 'act', action: randomDecision(h, who, seededRandom(1)) })).ok,
    ).toBe(true);
  });

  it('disconnected without an artificial all-in: his hand is folded when his clock runs out (no time bank)', async () => {
    const h = harness(
      { game: 'holdem', structure: 'pot-limit', currency: 'real', stakes: { small: 2, big: 4 } },
      { players: 3 },
    );
    await sitAll(h, 100);
    await tick(h, 2_000);
    const handId = h.table.view(null).hand!.handId;
    const who = actor(h)!;
    const seat = h.table.view(who.account).you!;
    disconnect(h, who.account);
    await tick(h, 15_000);
    expect(eventsOf(h, handId)).toContainEqual({ type: 'timeout', seat, result: 'fold' });
  });

  it('artificial all-in: fixed and spread limit real money only, a limited number per 24 hours', async () => {
    const counter = memoryAllInCounter();
    const run = async (currency: 'play' | 'real', structure: 'fixed-limit' | 'no-limit', seed: number) => {
      const h = harness(
        { game: 'holdem', structure, currency, stakes: { small: 100, big: 200 } },
        { players: 2, allIns: counter, seed },
      );
      await sitAll(h, 2_000);
      await tick(h, 2_000);
      const handId = h.table.view(null).hand!.handId;
      const who = actor(h)!; // heads-up: the button/small blind, chips in the pot
      const seat = h.table.view(who.account).you!;
      disconnect(h, who.account);
      await tick(h, 15_000);
      return (
        eventsOf(h, handId).find((e) => e.type === 'timeout' && e.seat === seat) ??
        eventsOf(h, handId).find((e) => e.type === 'fold' && e.seat === seat)
      );
    };
    expect(await run('play', 'fixed-limit', 1)).toMatchObject({ type: 'fold' });
    expect(await run('real', 'no-limit', 2)).toMatchObject({ type: 'timeout', result: 'fold' });
    expect(await run('real', 'fixed-limit', 3)).toMatchObject({
      type: 'timeout',
      result: 'artificial-all-in',
    });
    expect(await run('real', 'fixed-limit', 4)).toMatchObject({
      type: 'timeout',
      result: 'artificial-all-in',
    });
    // two were granted, counted per account over 24 hours
    const now = 1_700_000_100_000;
    expect(counter.left(1, now, 2) + counter.left(2, now, 2)).toBe(2);
    expect(counter.left(1, now + 25 * 3_600_000, 2) + counter.left(2, now + 25 * 3_600_000, 2)).toBe(4);
  });
});

describe('chips are conserved across many random hands (property)', () => {
  it('ledger total never changes; seats match the table', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.constantFrom('fixed-limit', 'spread-limit', 'pot-limit', 'half-pot-limit', 'no-limit' as const),
        fc.integer({ min: 1, max: 1e6 }),
        async (gameIndex, structure, seed) => {
          const { ROOM_VARIANT_IDS, variantOf } = await import('@felt/engine');
          const game = ROOM_VARIANT_IDS[gameIndex]!;
          const h = harness(
            { game, structure, currency: seed % 2 === 0 ? 'real' : 'play', stakes: { small: 20, big: 40 } },
            { players: Math.min(4, variantOf(game).seats), seed },
          );
          const before = h.storage.total();
          await sitAll(h, 400);
          const random = seededRandom(seed);
          for (let n = 0; n < 6; n++) {
            if (h.table.view(null).seats.filter((s) => s !== null && s.stack > 0).length < 2) break;
            if (n === 2) await h.table.handle(h.players[0]!, { type: 'sit-out' });
            if (n === 4) await h.table.handle(h.players[0]!, { type: 'sit-in', post: 'post' });
            if (n === 3) await h.table.handle(h.players[1]!, { type: 'leave' });
            if (h.table.view(null).hand === null) await tick(h, 2_000);
            if (h.table.view(null).hand === null) break;
            await playHand(h, random);
            expect(h.storage.total()).toBe(before);
          }
          expect(h.errors).toEqual([]);
          expect(h.storage.total()).toBe(before);
          for (const s of h.table.view(null).seats)
            if (s) expect(h.storage.seat('t1', s.account)).toBe(s.stack);
          await h.table.dispose();
        },
      ),
      { numRuns: 25 },
    );
  });
});
