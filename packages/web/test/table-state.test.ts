import type { EventView, LegalView, TableView } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import {
  emptyTable,
  potTotal,
  receive,
  withSummary,
  type ClockState,
  type TableMessage,
  type TableModel,
} from '../src/state/table';
import { FAIR_HAND, holdemView, seat } from './fixtures';

const snapshot = (seq: number, view: TableView = holdemView()): TableMessage => ({
  op: 'table-snapshot',
  seq,
  view,
});
const event = (seq: number, value: EventView, handId = 7): TableMessage => ({
  op: 'table-event',
  seq,
  handId,
  event: value,
});
const clock = (seq: number, seat: number): TableMessage => ({
  op: 'clock',
  seq,
  clock: { seat, deadline: 1000, actionMs: 15_000, timeBankMs: 30_000 } satisfies ClockState,
});
const legalFor = (seq: number, legal: LegalView): TableMessage => ({ op: 'legal-actions', seq, legal });
const LEGAL: LegalView = {
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

const apply = (state: TableModel, messages: readonly TableMessage[]): TableModel =>
  messages.reduce(receive, state);

/** The fixture's view at stream number 10, then the events numbered from 11. */
const play = (events: readonly EventView[], view: TableView = holdemView()) =>
  apply(emptyTable('nl-holdem-1'), [snapshot(10, view), ...events.map((value, i) => event(11 + i, value))]);

describe('table state: the stream of the table', () => {
  it('a snapshot sets the number; the events after it are applied in turn', () => {
    const state = play([
      { type: 'call', seat: 1, amount: 1, allIn: false },
      { type: 'check', seat: 0 },
      { type: 'round', round: 1, seat: 1 },
      { type: 'deal-board', cards: ['2c', '7d', 'Jh'] },
      { type: 'bet-raise', seat: 1, to: 4, amount: 4, allIn: false, full: true },
    ]);
    expect(state.seq).toBe(15);
    const hand = state.view!.hand!;
    expect(hand.board).toEqual(['2c', '7d', 'Jh']);
    expect(hand.players[1]).toMatchObject({ stack: 194, bet: 4, committed: 6 });
    expect(hand.players[0]).toMatchObject({ stack: 198, bet: 0, committed: 2 });
    expect(potTotal(hand)).toBe(4);
    expect(hand.currentBet).toBe(4);
    expect(state.log).toContain('bob bets 0.04');
  });

  it('a repeated or older message changes nothing', () => {
    const call = event(11, { type: 'call', seat: 1, amount: 1, allIn: false });
    const once = apply(emptyTable('t'), [snapshot(10), call]);
    expect(apply(once, [call])).toBe(once);
    expect(apply(once, [event(9, { type: 'fold', seat: 0 })])).toBe(once);
    expect(apply(once, [clock(11, 0)])).toBe(once);
    expect(once.view!.hand!.players[1]).toMatchObject({ stack: 198, committed: 2 });
  });

  it('forced bets the snapshot shows are not counted again', () => {
    // holdemView: alice posted 2 (big blind), bob 1 (small blind); the snapshot stands at the posts (2).
    const blinds = [
      event(1, { type: 'post', seat: 1, kind: 'blind', amount: 1, allIn: false }),
      event(2, { type: 'post', seat: 0, kind: 'blind', amount: 2, allIn: false }),
    ];
    const state = apply(emptyTable('t'), [
      snapshot(0, { ...holdemView(), hand: null }),
      ...blinds,
      snapshot(2),
      ...blinds,
      event(3, { type: 'deal-hole', seat: 1, cards: ['??', '??'], up: [false, false] }),
    ]);
    const hand = state.view!.hand!;
    expect(hand.players.map((p) => [p.stack, p.bet, p.committed])).toEqual([
      [198, 2, 2],
      [199, 1, 1],
    ]);
    expect(hand.players[1]!.cards).toHaveLength(4);
    // The posts came before the view showed their hand: logged once, under the hand's first line.
    expect(state.log).toEqual(['Hand #1 starts', 'bob posts a blind of 0.01', 'alice posts a blind of 0.02']);
  });

  it('forced bets after a snapshot that does not show them are counted once', () => {
    const before = holdemView({
      currentBet: 0,
      players: holdemView().hand!.players.map((p) => ({
        ...p,
        stack: p.stack + p.bet,
        bet: 0,
        committed: 0,
      })),
    });
    const state = apply(emptyTable('t'), [
      snapshot(4, before),
      event(5, { type: 'post', seat: 1, kind: 'blind', amount: 1, allIn: false }),
      event(6, { type: 'post', seat: 0, kind: 'blind', amount: 2, allIn: false }),
    ]);
    expect(state.view!.hand!.players.map((p) => [p.stack, p.bet, p.committed])).toEqual([
      [198, 2, 2],
      [199, 1, 1],
    ]);
  });

  it('legal actions are applied only at the current number', () => {
    const atClock = apply(emptyTable('t'), [snapshot(10, holdemView({ actor: 1 })), clock(11, 0)]);
    expect(apply(atClock, [legalFor(11, LEGAL)]).legal).toEqual(LEGAL);
    expect(apply(atClock, [legalFor(10, LEGAL)]).legal).toBeNull();
    expect(apply(atClock, [legalFor(12, LEGAL)]).legal).toBeNull();
    // Late: the table has moved on since the clock they went with.
    const moved = apply(atClock, [event(12, { type: 'fold', seat: 1 }), legalFor(11, LEGAL)]);
    expect(moved.legal).toBeNull();
  });

  it('keeps the finished hand on the table until the next one', () => {
    let state = play([
      {
        type: 'end',
        stacks: [
          { seat: 0, stack: 201 },
          { seat: 1, stack: 199 },
        ],
      },
    ]);
    state = receive(state, snapshot(12, { ...holdemView(), hand: null }));
    expect(state.lastHand?.phase).toBe('done');
    expect(state.lastHand?.players[0]!.stack).toBe(201);
    state = receive(state, snapshot(13, holdemView({ handId: 8, number: 2 })));
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
    const state = play(
      [
        { type: 'discard', seat: 0, cards: ['Kd'], timedOut: false },
        { type: 'deal-draw', seat: 0, cards: ['Qs'] },
        { type: 'discard', seat: 1, cards: ['??', '??'], timedOut: false },
        { type: 'deal-draw', seat: 1, cards: ['??', '??'] },
      ],
      holdemView({ phase: 'draw' }),
    );
    expect(state.view!.hand!.players[0]!.cards).toEqual(['As', 'Qs']);
    expect(state.view!.hand!.players[1]!.cards).toEqual(['??', '??']);
    expect(state.log).toContain('bob discards 2');
  });

  it("legal actions are the viewer's until he acts or the clock passes to another seat", () => {
    let state = apply(emptyTable('t'), [
      snapshot(10, holdemView({ actor: 0 })),
      clock(11, 0),
      legalFor(11, LEGAL),
    ]);
    expect(state.legal).toEqual(LEGAL);
    state = receive(state, event(12, { type: 'call', seat: 0, amount: 1, allIn: false }));
    expect(state.legal).toBeNull();
    expect(state.clock).toBeNull();
    state = apply(state, [clock(13, 0), legalFor(13, LEGAL), clock(14, 1)]);
    expect(state.legal).toBeNull();
    expect(state.view!.hand!.actor).toBe(1);
  });

  it('names hands and halves from the summary', () => {
    const state = withSummary(receive(emptyTable('t'), snapshot(1)), {
      handId: 7,
      number: 1,
      fair: FAIR_HAND,
      reveal: null,
      game: 'omaha-hilo',
      board: ['2c', '3d', '8h', 'Ks', 'Kd'],
      secondBoard: null,
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
  });
});

describe('table state: the hand log names a bet a bet and a raise a raise', () => {
  it('a preflop bet-raise over the blinds raises to its amount, even by a player with no blind in', () => {
    // Three-handed: carol (seat 2) has no blind in; the big blind is 2.
    const view = holdemView();
    const three: TableView = {
      ...view,
      seats: [view.seats[0]!, view.seats[1]!, seat(2, 'carol', 200), null, null, null],
      hand: {
        ...view.hand!,
        actor: 2,
        players: [
          ...view.hand!.players,
          {
            seat: 2,
            stack: 200,
            bet: 0,
            committed: 0,
            folded: false,
            allIn: false,
            cards: ['??', '??'],
            up: [false, false],
          },
        ],
      },
    };
    const state = play([{ type: 'bet-raise', seat: 2, to: 4, amount: 4, allIn: false, full: true }], three);
    expect(state.log).toContain('carol raises to 0.04');
    expect(state.log.join('\n')).not.toMatch(/bets/);
  });

  it('an all-in over a bet on a later street raises to, and the first bet of a street bets', () => {
    const state = play([
      { type: 'call', seat: 1, amount: 1, allIn: false },
      { type: 'check', seat: 0 },
      { type: 'round', round: 1, seat: 1 },
      { type: 'deal-board', cards: ['2c', '7d', 'Jh'] },
      { type: 'bet-raise', seat: 1, to: 4, amount: 4, allIn: false, full: true },
      { type: 'bet-raise', seat: 0, to: 198, amount: 198, allIn: true, full: true },
    ]);
    expect(state.log).toContain('bob bets 0.04');
    expect(state.log).toContain('alice raises to 1.98 (all in)');
  });
});

describe('table state: the pots on the felt are the server’s', () => {
  const allInView = (): TableView =>
    holdemView({
      pots: [
        { amount: 4, seats: [0, 1] },
        { amount: 3, seats: [1] },
      ],
    });

  it('a view’s pots hold until chips move; then the view has none (the felt shows the total)', () => {
    const before = play([], allInView());
    expect(before.view!.hand!.pots).toHaveLength(2);
    const after = play([{ type: 'call', seat: 1, amount: 1, allIn: false }], allInView());
    expect(after.view!.hand!.pots).toEqual([]);
    expect(potTotal(after.view!.hand!)).toBe(0);
  });

  it('a fold takes the seat out of every pot, the amounts stay', () => {
    const state = play([{ type: 'fold', seat: 1 }], allInView());
    expect(state.view!.hand!.pots).toEqual([
      { amount: 4, seats: [0] },
      { amount: 3, seats: [] },
    ]);
  });

  it('the next view brings the pots back', () => {
    const moved = play([{ type: 'call', seat: 1, amount: 1, allIn: false }], allInView());
    const again = receive(moved, snapshot(20, allInView()));
    expect(again.view!.hand!.pots).toHaveLength(2);
  });
});

describe('table state: hands turned up once betting is over with a player all in are shown', () => {
  it('the show events of the run-out put every hand face up, and they stay on the table after the hand', () => {
    const events: EventView[] = [
      { type: 'bet-raise', seat: 1, to: 199, amount: 198, allIn: true, full: true },
      { type: 'call', seat: 0, amount: 197, allIn: false },
      // All betting is over with a player all in: the server turns both hands up before the board.
      { type: 'show', seat: 1, cards: ['Qh', 'Qc'] },
      { type: 'show', seat: 0, cards: ['As', 'Kd'] },
      { type: 'round', round: 1, seat: 1 },
      { type: 'deal-board', cards: ['2c', '7d', 'Jh'] },
      { type: 'deal-board', cards: ['3s'] },
      { type: 'deal-board', cards: ['9d'] },
      { type: 'award', pot: 0, seat: 1, amount: 398, share: 'all' },
      {
        type: 'end',
        stacks: [
          { seat: 0, stack: 0 },
          { seat: 1, stack: 398 },
        ],
      },
    ];
    const state = play(events);
    const players = state.view!.hand!.players;
    expect(players[1]).toMatchObject({ cards: ['Qh', 'Qc'], up: [true, true], folded: false });
    expect(players[0]).toMatchObject({ cards: ['As', 'Kd'], up: [true, true], folded: false });
    expect(state.mucked).toEqual([]);
    expect(state.log).toContain('bob shows Qh Qc');
    // The hand-end view has no hand: the one that ended stays on the table with its shown cards.
    const ended = receive(state, snapshot(30, { ...holdemView(), hand: null }));
    expect(ended.lastHand!.players[1]).toMatchObject({ cards: ['Qh', 'Qc'], up: [true, true] });
  });
});
