import type { EventView } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import {
  describeEvent,
  emptyTable,
  potTotal,
  withClock,
  withEvent,
  withLegal,
  withSummary,
  withView,
} from '../src/state/table';
import { holdemView } from './fixtures';

const play = (events: EventView[]) => {
  let state = withView(emptyTable('nl-holdem-1'), holdemView());
  for (const event of events) state = withEvent(state, event);
  return state;
};

describe('table state: bookkeeping of the server events', () => {
  it('moves chips from stacks to bets and into the pot at the next round', () => {
    const state = play([
      { type: 'call', seat: 1, amount: 1, allIn: false },
      { type: 'check', seat: 0 },
      { type: 'round', round: 1, seat: 1 },
      { type: 'deal-board', cards: ['2c', '7d', 'Jh'] },
      { type: 'bet-raise', seat: 1, to: 4, amount: 4, allIn: false, full: true },
    ]);
    const hand = state.view!.hand!;
    expect(hand.board).toEqual(['2c', '7d', 'Jh']);
    expect(hand.players[1]).toMatchObject({ stack: 194, bet: 4, committed: 6 });
    expect(hand.players[0]).toMatchObject({ stack: 198, bet: 0, committed: 2 });
    expect(potTotal(hand)).toBe(4);
    expect(hand.currentBet).toBe(4);
    expect(state.log).toContain('bob bets 0.04');
  });

  it('the first view of a hand already counts the blinds: their post events are not applied twice', () => {
    // holdemView: alice posted 2 (big blind), bob 1 (small blind); the view was taken after the posts.
    let state = withView(emptyTable('t'), holdemView());
    state = withEvent(state, { type: 'post', seat: 1, kind: 'blind', amount: 1, allIn: false }, 1);
    state = withEvent(state, { type: 'post', seat: 0, kind: 'blind', amount: 2, allIn: false }, 2);
    state = withEvent(state, { type: 'deal-hole', seat: 1, cards: ['??', '??'], up: [false, false] }, 3);
    state = withEvent(state, { type: 'deal-hole', seat: 1, cards: ['??', '??'], up: [false, false] }, 3);
    const hand = state.view!.hand!;
    expect(hand.players.map((p) => [p.stack, p.bet, p.committed])).toEqual([
      [198, 2, 2],
      [199, 1, 1],
    ]);
    expect(hand.players[1]!.cards).toHaveLength(4); // fixture's two + one deal (the repeated seq 3 dropped)
    expect(state.log).toContain('bob posts a blind of 0.01');
  });

  it('keeps the finished hand on the table until the next one', () => {
    let state = withView(emptyTable('t'), holdemView());
    state = withEvent(state, {
      type: 'end',
      stacks: [
        { seat: 0, stack: 201 },
        { seat: 1, stack: 199 },
      ],
    });
    state = withView(state, { ...holdemView(), hand: null });
    expect(state.lastHand?.phase).toBe('done');
    expect(state.lastHand?.players[0]!.stack).toBe(201);
    state = withView(state, holdemView({ handId: 8, number: 2 }));
    expect(state.lastHand).toBeNull();
    expect(state.log).toEqual(['Hand #2 starts']);
  });

  it('pays the winner and ends with the server stacks', () => {
    const state = play([
      { type: 'fold', seat: 1 },
      { type: 'return', seat: 0, amount: 1 },
      { type: 'award', pot: 0, seat: 0, amount: 2, share: 'all' },
      {
        type: 'end',
        stacks: [
          { seat: 0, stack: 201 },
          { seat: 1, stack: 199 },
        ],
      },
    ]);
    expect(state.won).toEqual({ 0: 2 });
    expect(state.view!.hand!.phase).toBe('done');
    expect(state.view!.seats[0]!.stack).toBe(201);
    expect(state.view!.hand!.players[0]!.stack).toBe(201);
    expect(state.log.at(-2)).toBe('alice wins 0.02 from the main pot');
  });

  it("a draw replaces the discarded cards; an opponent's stay hidden", () => {
    let state = withView(emptyTable('t'), holdemView({ phase: 'draw' }));
    state = withEvent(state, { type: 'discard', seat: 0, cards: ['Kd'], timedOut: false });
    state = withEvent(state, { type: 'deal-draw', seat: 0, cards: ['Qs'] });
    state = withEvent(state, { type: 'discard', seat: 1, cards: ['??', '??'], timedOut: false });
    state = withEvent(state, { type: 'deal-draw', seat: 1, cards: ['??', '??'] });
    expect(state.view!.hand!.players[0]!.cards).toEqual(['As', 'Qs']);
    expect(state.view!.hand!.players[1]!.cards).toEqual(['??', '??']);
    expect(state.log).toContain('bob discards 2');
  });

  it("legal actions are the viewer's until he acts or the clock passes to another seat", () => {
    let state = withView(emptyTable('t'), holdemView({ actor: 0 }));
    const legal = {
      seat: 0,
      fold: true,
      check: false,
      call: 1,
      bringIn: null,
      raise: { min: 4, max: 199 },
      raiseTos: null,
      discard: null,
      split: false,
    };
    state = withLegal(state, legal);
    state = withClock(state, { seat: 0, deadline: 1000, actionMs: 15_000, timeBankMs: 30_000 });
    expect(state.legal).toEqual(legal);
    state = withEvent(state, { type: 'call', seat: 0, amount: 1, allIn: false });
    expect(state.legal).toBeNull();
    expect(state.clock).toBeNull();
    state = withLegal(state, legal);
    state = withClock(state, { seat: 1, deadline: 1000, actionMs: 15_000, timeBankMs: 30_000 });
    expect(state.legal).toBeNull();
    expect(state.view!.hand!.actor).toBe(1);
  });

  it('names hands and halves from the summary', () => {
    const state = withSummary(withView(emptyTable('t'), holdemView()), {
      handId: 7,
      number: 1,
      game: 'omaha-hilo',
      board: ['2c', '3d', '8h', 'Ks', 'Kd'],
      rake: 0,
      players: [
        {
          seat: 0,
          account: 1,
          name: 'alice',
          committed: 10,
          won: 10,
          cards: ['Ac', '4d', 'Kh', 'Qs'],
          up: [false, false, false, false],
          showed: true,
          mucked: false,
          folded: false,
          high: { name: 'Three of a kind, kings', cards: [] },
          low: { name: '8-4-3-2-A', cards: [] },
        },
        {
          seat: 1,
          account: 2,
          name: 'bob',
          committed: 10,
          won: 10,
          cards: ['5c', '6d', 'Js', 'Jh'],
          up: [false, false, false, false],
          showed: true,
          mucked: false,
          folded: false,
          high: { name: 'Two pair, kings and jacks', cards: [] },
          low: null,
        },
      ],
      awards: [
        { pot: 0, seat: 0, amount: 10, share: 'high' },
        { pot: 0, seat: 0, amount: 10, share: 'low' },
      ],
    });
    expect(state.log).toContain('alice: Three of a kind, kings; low: 8-4-3-2-A');
    expect(describeEvent({ type: 'award', pot: 1, seat: 1, amount: 5, share: 'low' }, state.view)).toBe(
      'bob wins 0.05 from side pot 1 (low)',
    );
  });
});
