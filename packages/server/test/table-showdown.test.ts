import { parsePhh, replayPhh } from '@felt/engine';
import { describe, expect, it } from 'vitest';
import type { TableMessage } from '../src/table/index.js';
import { actor, harness, sitAll, tick, type Harness } from './table-helpers.js';

/** Everybody checks or calls until the hand is over: every hand goes to the showdown. */
async function checkDown(h: Harness): Promise<number> {
  await tick(h, 2_000);
  const handId = h.table.view(null).hand!.handId;
  for (let who = actor(h); who !== null; who = actor(h)) {
    const legal = h.table.view(who.account).hand!.legal!;
    const result = await h.table.handle(who, {
      type: 'act',
      action: { type: legal.check ? 'check' : 'call' },
    });
    if (!result.ok) throw new Error(result.error.message);
  }
  return handId;
}

const eventsOf = (messages: readonly TableMessage[], handId: number) =>
  messages.flatMap((m) => (m.type === 'table-event' && m.handId === handId ? [m.event] : []));

/** The hole cards a player was dealt, from his own messages. */
function holeCards(h: Harness, account: number, handId: number, seat: number): string[] {
  return eventsOf(h.inbox.get(account)!, handId).flatMap((e) =>
    e.type === 'deal-hole' && e.seat === seat ? [...e.cards] : [],
  );
}

describe('tables: the showdown (RULES.md §1: a player who called may muck)', () => {
  it('a hand already beaten by a shown one is mucked by default, never shown to anyone; the first in order and every winner show', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 3, seed: 5 });
    await sitAll(h, 200);
    // Player 3 turns the option off: he shows every hand, beaten or not.
    expect(await h.table.handle(h.players[2]!, { type: 'muck-losing', on: false })).toEqual({ ok: true });
    expect(h.table.view(null).seats[2]!.muckLosing).toBe(false);
    expect(h.table.view(null).seats[0]!.muckLosing).toBe(true);
    let mucks = 0;
    let beatenShown = 0;
    for (let n = 0; n < 30; n++) {
      const handId = await checkDown(h);
      const events = eventsOf(h.inbox.get('spectator')!, handId);
      const showdown = events.filter((e) => e.type === 'show' || e.type === 'muck');
      expect(showdown.length).toBe(3);
      expect(showdown[0]!.type).toBe('show');
      const summary = (await h.table.lastSummary(null))!;
      for (const e of showdown) {
        const player = summary.players.find((p) => p.seat === e.seat)!;
        if (e.type === 'show') {
          if (player.won === 0 && e.seat === 2) beatenShown++;
          continue;
        }
        mucks++;
        expect(e.seat).not.toBe(2);
        // The operator's history replays to the same stacks, the muck included.
        const phh = parsePhh(h.storage.settled.get(handId)!.history.phh);
        if (!phh.ok) throw new Error(phh.error.message);
        expect(phh.value.actions.some((a) => a.kind === 'show-muck' && a.cards.length === 0)).toBe(true);
        const replayed = replayPhh(phh.value, {});
        if (!replayed.ok) throw new Error(replayed.error.message);
        expect(replayed.finishingStacks).toEqual(phh.value.finishingStacks);
        expect(player.won).toBe(0);
        // His cards reach nobody else: not the other players, not the spectator.
        const cards = holeCards(h, player.account, handId, e.seat);
        expect(cards).toHaveLength(2);
        for (const [who, inbox] of h.inbox) {
          if (who === player.account) continue;
          const received = JSON.stringify(inbox.filter((m) => !('handId' in m) || m.handId === handId));
          for (const card of cards) expect(received).not.toContain(`"${card}"`);
        }
      }
      for (const inbox of h.inbox.values()) inbox.length = 0;
    }
    // The seeded hands met both cases, or the test proved nothing.
    expect(mucks).toBeGreaterThan(0);
    expect(beatenShown).toBeGreaterThan(0);
    expect(h.errors).toEqual([]);
    await h.table.dispose();
  });

  it('the summary a player dealt in asks for shows the hands mucked at the showdown; spectators and the pushed summary do not', async () => {
    const h = harness({ game: 'holdem', structure: 'fixed-limit' }, { players: 3, seed: 11 });
    await sitAll(h, 200);
    for (let n = 0; n < 30; n++) {
      const handId = await checkDown(h);
      const muck = eventsOf(h.inbox.get('spectator')!, handId).find((e) => e.type === 'muck');
      if (muck === undefined) {
        for (const inbox of h.inbox.values()) inbox.length = 0;
        continue;
      }
      const mucker = h.table.view(null).seats[muck.seat]!.account;
      const other = h.players.find((p) => p.account !== mucker)!.account;
      const cards = holeCards(h, mucker, handId, muck.seat);
      const asked = (await h.table.lastSummary(other))!.players.find((p) => p.seat === muck.seat)!;
      expect(asked.mucked).toBe(true);
      expect(asked.showed).toBe(false);
      expect(asked.cards).toEqual(cards);
      expect(asked.high).not.toBeNull();
      const spectator = (await h.table.lastSummary(null))!.players.find((p) => p.seat === muck.seat)!;
      expect(spectator.cards).toEqual(['??', '??']);
      const pushed = h.inbox
        .get(other)!
        .find((m) => m.type === 'hand-summary' && m.summary.handId === handId);
      expect(
        pushed?.type === 'hand-summary' && pushed.summary.players.find((p) => p.seat === muck.seat),
      ).toMatchObject({
        mucked: true,
        cards: ['??', '??'],
        high: null,
      });
      await h.table.dispose();
      return;
    }
    throw new Error('no hand of the seeded run had a muck');
  });

  it('muck-losing needs a seat and changes nothing else', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 2 });
    const stranger = { account: 99, name: 'stranger' };
    await h.table.idle();
    const before = h.table.view(null);
    expect(await h.table.handle(stranger, { type: 'muck-losing', on: false })).toMatchObject({
      ok: false,
      error: { code: 'NOT_SEATED' },
    });
    expect(h.table.view(null)).toEqual(before);
    await h.table.dispose();
  });
});

describe('tables: all in with no betting left, the hands are turned up before the rest is dealt', () => {
  /** The events of the hand in progress as the spectator saw them, by type. */
  const typesSeen = (h: Harness, handId: number): string[] =>
    eventsOf(h.inbox.get('spectator')!, handId).map((e) => e.type);

  it("hold'em heads-up all-in preflop: both hands shown to everyone, then the board, and the history replays", async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 2, seed: 3 });
    await sitAll(h, 100);
    await tick(h, 2_000);
    const handId = h.table.view(null).hand!.handId;
    await h.table.handle(actor(h)!, { type: 'act', action: { type: 'raise', to: 100 } });
    await h.table.handle(actor(h)!, { type: 'act', action: { type: 'call' } });
    const types = typesSeen(h, handId);
    expect(types.slice(types.indexOf('call'))).toEqual([
      'call',
      'show',
      'show',
      'deal-board',
      'deal-board',
      'deal-board',
      'award',
      'end',
    ]);
    // What was shown is what each was dealt, and the spectator saw it.
    const shows = eventsOf(h.inbox.get('spectator')!, handId).flatMap((e) => (e.type === 'show' ? [e] : []));
    for (const show of shows) {
      const account = h.table.view(null).seats[show.seat]!.account;
      expect(show.cards).toEqual(holeCards(h, account, handId, show.seat));
    }
    const phh = parsePhh(h.storage.settled.get(handId)!.history.phh);
    if (!phh.ok) throw new Error(phh.error.message);
    const replayed = replayPhh(phh.value, {});
    if (!replayed.ok) throw new Error(replayed.error.message);
    expect(replayed.finishingStacks).toEqual(phh.value.finishingStacks);
    expect(h.errors).toEqual([]);
  });

  it('hands turned face up with a player all in stay face up in every later snapshot, for everyone', async () => {
    // A table that offers run it twice waits for the answers with the hands shown and the board to come.
    const h = harness({ game: 'holdem', structure: 'no-limit', runItTwice: true }, { players: 2, seed: 3 });
    await sitAll(h, 100);
    await tick(h, 2_000);
    const handId = h.table.view(null).hand!.handId;
    await h.table.handle(actor(h)!, { type: 'act', action: { type: 'raise', to: 100 } });
    await h.table.handle(actor(h)!, { type: 'act', action: { type: 'call' } });
    const hand = h.table.view(null).hand!;
    expect(hand.runTwice).not.toBeNull();
    expect(hand.board).toEqual([]);
    for (const viewer of [null, ...h.players.map((p) => p.account)]) {
      for (const player of h.table.view(viewer).hand!.players) {
        const account = h.table.view(null).seats[player.seat]!.account;
        expect(player.cards).toEqual(holeCards(h, account, handId, player.seat));
      }
    }
  });

  it('one player all in while two others can still bet: nothing is shown before the showdown', async () => {
    const h = harness({ game: 'holdem', structure: 'no-limit' }, { players: 3, seed: 4 });
    for (const [i, p] of h.players.entries())
      await h.table.handle(p, { type: 'sit', seat: i, buyIn: i === 0 ? 40 : 200 });
    await tick(h, 2_000);
    const handId = h.table.view(null).hand!.handId;
    const short = h.table.view(null).seats[0]!.account;
    // Everybody calls the short stack's all-in; the two others check it down.
    for (let who = actor(h); who !== null; who = actor(h)) {
      const legal = h.table.view(who.account).hand!.legal!;
      const action =
        who.account === short && legal.raise !== null
          ? { type: 'raise' as const, to: legal.raise.max }
          : { type: legal.check ? ('check' as const) : ('call' as const) };
      await h.table.handle(who, { type: 'act', action });
    }
    const events = eventsOf(h.inbox.get('spectator')!, handId);
    expect(events.some((e) => e.type === 'bet-raise' && e.seat === 0 && e.allIn)).toBe(true);
    const types = typesSeen(h, handId);
    expect(types.indexOf('show')).toBeGreaterThan(types.lastIndexOf('deal-board'));
    expect(h.errors).toEqual([]);
  });

  it('5-card draw all in before the draw: the hands stay down until the showdown (the draw may change them)', async () => {
    const h = harness({ game: 'draw5', structure: 'no-limit' }, { players: 2, seed: 6 });
    await sitAll(h, 100);
    // Neither mucks a beaten hand: both are shown, whoever wins.
    for (const p of h.players) await h.table.handle(p, { type: 'muck-losing', on: false });
    await tick(h, 2_000);
    const handId = h.table.view(null).hand!.handId;
    for (let who = actor(h); who !== null; who = actor(h)) {
      const legal = h.table.view(who.account).hand!.legal!;
      const action =
        legal.discard !== null
          ? { type: 'discard' as const, cards: [] }
          : legal.raise !== null
            ? { type: 'raise' as const, to: legal.raise.max }
            : { type: 'call' as const };
      await h.table.handle(who, { type: 'act', action });
    }
    const types = typesSeen(h, handId);
    expect(types.filter((t) => t === 'show')).toHaveLength(2);
    expect(types.indexOf('show')).toBeGreaterThan(types.lastIndexOf('discard'));
    expect(h.errors).toEqual([]);
  });
});
