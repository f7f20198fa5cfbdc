import { describe, expect, test } from 'vitest';
import { Hand, seededRandom, type Card } from '../src/index.js';
import { act, awards, call, cards, deal, dealHoles, fold, raiseTo, start } from './hand-helpers.js';

describe('draws', () => {
  test('discard and stand pat; replacements are dealt after everybody has discarded', () => {
    const hand = start({
      variant: 'draw5',
      structure: 'no-limit',
      stacks: [100, 100, 100],
      blinds: [1, 2],
      autoShowdown: true,
    });
    dealHoles(hand, 'AsKsQsJs9h', '2c2d7h8h9c', '3c4c5c6c8d');
    call(hand, 2);
    call(hand, 0);
    call(hand, 1);
    expect(hand.phase).toBe('draw');
    expect(hand.legalActions()).toMatchObject({ player: 0, discard: 5 });
    act(hand, { type: 'discard', player: 0, cards: cards('9h') });
    act(hand, { type: 'discard', player: 1, cards: cards('7h8h9c') });
    expect(hand.can({ type: 'discard', player: 2, cards: cards('As') })).toBe(false); // not his card
    act(hand, { type: 'discard', player: 2, cards: [] });
    expect(hand.pendingDeal()).toEqual({ kind: 'draw', player: 0, count: 1 });
    deal(hand, 'Ts');
    expect(hand.pendingDeal()).toEqual({ kind: 'draw', player: 1, count: 3 });
    expect(hand.can({ type: 'deal', cards: cards('9hTdJd') })).toBe(false); // 9h was discarded: never dealt twice
    deal(hand, '2h3h4h');
    expect(hand.phase).toBe('bet');
    expect(hand.actor).toBe(0);
  });

  test('32-card draw: at most four cards may be discarded', () => {
    const hand = start({ variant: 'draw32', structure: 'no-limit', stacks: [100, 100], blinds: [2, 1] });
    dealHoles(hand, 'AsKsQsJs9s', 'AhKhQhJh9h');
    call(hand, 1);
    call(hand, 0);
    expect(hand.legalActions()!.discard).toBe(4);
    expect(hand.can({ type: 'discard', player: 0, cards: cards('AsKsQsJs9s') })).toBe(false);
  });

  test('discards are reshuffled when the stub runs out, and a player never gets his own discards back', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const created = Hand.create(
        {
          variant: 'triple-draw-27',
          structure: 'fixed-limit',
          stacks: [1000, 1000, 1000, 1000, 1000, 1000],
          blinds: [1, 2],
          smallBet: 2,
          bigBet: 4,
          autoShowdown: true,
        },
        seededRandom(seed),
      );
      if (!created.ok) throw new Error(created.error.message);
      const hand = created.value;
      const ownDiscards = new Map<number, Card[]>();
      while (!hand.isDone) {
        if (hand.phase === 'deal') {
          const event = act(hand, { type: 'deal' });
          if (event.type === 'deal-draw') {
            for (const card of event.cards) expect(ownDiscards.get(event.player)).not.toContain(card);
          }
        } else if (hand.phase === 'draw') {
          const player = hand.actor!;
          const discards = hand.snapshot().players[player]!.cards.filter((c): c is Card => c !== null);
          ownDiscards.set(player, discards);
          act(hand, { type: 'discard', player, cards: discards });
        } else act(hand, { type: 'check-call', player: hand.actor! });
      }
      // 6 × 5 dealt + 3 draws × 30 replacements = 120 cards from a 52-card deck: reshuffles happened.
      expect(hand.events.filter((e) => e.type === 'deal-draw')).toHaveLength(18);
    }
  });

  test('a player who stood pat because his draw clock ran out may not bet or raise on the next round', () => {
    const hand = start({ variant: 'draw5', structure: 'no-limit', stacks: [100, 100], blinds: [2, 1] });
    dealHoles(hand, 'AsKsQsJs9h', '2c2d7h8h9c');
    call(hand, 1);
    call(hand, 0);
    act(hand, { type: 'discard', player: 0, cards: [], timedOut: true });
    act(hand, { type: 'discard', player: 1, cards: [] });
    expect(hand.actor).toBe(0);
    expect(hand.legalActions()!.raise).toBeNull();
    expect(hand.legalActions()!.check).toBe(true);
  });

  test('32-card draw split agreement: when everybody accepts, every pot is divided equally', () => {
    const hand = start({ variant: 'draw32', structure: 'no-limit', stacks: [101, 100, 100], blinds: [1, 2] });
    dealHoles(hand, 'AsKsQsJs9s', 'AhKhQhJh9h', 'AdKdQdJd9d');
    raiseTo(hand, 2, 11);
    call(hand, 0);
    call(hand, 1);
    for (let p = 0; p < 3; p++) act(hand, { type: 'discard', player: p, cards: [] });
    expect(hand.phase).toBe('split');
    for (const p of [2, 0, 1]) act(hand, { type: 'split', player: p, accept: true });
    expect(hand.isDone).toBe(true);
    expect(awards(hand).every((a) => a.share === 'agreed' && a.amount === 11)).toBe(true);
  });
});

describe('showdown', () => {
  test('the last aggressor of the last round shows first', () => {
    const hand = start({ variant: 'holdem', structure: 'no-limit', stacks: [100, 100, 100], blinds: [1, 2] });
    dealHoles(hand, 'AsKs', 'QhQd', 'JcTc');
    for (const p of [2, 0, 1]) call(hand, p);
    deal(hand, '2h7c9d');
    for (const p of [0, 1, 2]) call(hand, p);
    deal(hand, '3s');
    for (const p of [0, 1, 2]) call(hand, p);
    deal(hand, '4d');
    call(hand, 0);
    raiseTo(hand, 1, 10);
    call(hand, 2);
    call(hand, 0);
    expect(hand.phase).toBe('showdown');
    expect(hand.showdownOrder()).toEqual([1, 2, 0]);
  });

  test('without a bet on the last round, the first player left of the button shows first; stud: the best hand showing', () => {
    const hand = start({ variant: 'holdem', structure: 'no-limit', stacks: [100, 100, 100], blinds: [1, 2] });
    dealHoles(hand, 'AsKs', 'QhQd', 'JcTc');
    for (const p of [2, 0, 1]) call(hand, p);
    for (const board of ['2h7c9d', '3s', '4d']) {
      deal(hand, board);
      for (const p of [0, 1, 2]) call(hand, p);
    }
    expect(hand.showdownOrder()).toEqual([0, 1, 2]);
  });

  test('a caller may muck; the last player in a pot cannot; the shown best hand wins', () => {
    const hand = start({ variant: 'holdem', structure: 'no-limit', stacks: [100, 100, 100], blinds: [1, 2] });
    dealHoles(hand, 'AsKs', 'QhQd', 'JcTc');
    for (const p of [2, 0, 1]) call(hand, p);
    for (const board of ['2h7c9d', '3s', '4d']) {
      deal(hand, board);
      for (const p of [0, 1, 2]) call(hand, p);
    }
    act(hand, { type: 'show', player: 0 });
    act(hand, { type: 'muck', player: 2 });
    expect(hand.can({ type: 'muck', player: 1 })).toBe(true);
    act(hand, { type: 'show', player: 1 });
    expect(hand.isDone).toBe(true);
    expect(awards(hand)).toEqual([{ pot: 0, player: 1, amount: 6, share: 'all' }]);
    const lone = start({ variant: 'holdem', structure: 'no-limit', stacks: [100, 100], blinds: [2, 1] });
    dealHoles(lone, 'AsKs', 'QhQd');
    call(lone, 1);
    call(lone, 0);
    for (const board of ['2h7c9d', '3s', '4d']) {
      deal(lone, board);
      call(lone, 0);
      call(lone, 1);
    }
    act(lone, { type: 'muck', player: 0 });
    expect(lone.can({ type: 'muck', player: 1 })).toBe(false);
  });

  test('unknown cards (PHH ??) may be dealt and filled in when shown', () => {
    const hand = start({ variant: 'holdem', structure: 'no-limit', stacks: [100, 100], blinds: [2, 1] });
    act(hand, { type: 'deal', cards: [null, null] });
    deal(hand, 'QhQd');
    call(hand, 1);
    fold(hand, 0);
    expect(hand.finishingStacks()).toEqual([98, 102]);
    const shown = start({ variant: 'holdem', structure: 'no-limit', stacks: [100, 100], blinds: [2, 1] });
    act(shown, { type: 'deal', cards: [null, null] });
    deal(shown, 'QhQd');
    raiseTo(shown, 1, 100);
    call(shown, 0);
    expect(shown.can({ type: 'show', player: 0 })).toBe(false);
    act(shown, { type: 'show', player: 0, cards: cards('AsAh') });
    act(shown, { type: 'show', player: 1 });
    deal(shown, '2c7d9s');
    deal(shown, '3c');
    deal(shown, '4d');
    expect(shown.finishingStacks()).toEqual([200, 0]);
  });
});
