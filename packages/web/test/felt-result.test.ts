import { describe, expect, it } from 'vitest';
import { resultOnFelt } from '../src/felt-result';
import type { HandRecap } from '../src/net/views';
import { FAIR_HAND, holdemView } from './fixtures';

const player = (seat: number, name: string, patch: Partial<HandRecap['players'][number]>) => ({
  seat,
  account: seat + 1,
  name,
  committed: 200,
  won: 0,
  cards: ['??', '??'],
  up: [false, false],
  showed: false,
  mucked: false,
  folded: false,
  high: null,
  low: null,
  ...patch,
});

const recap = (patch: Partial<HandRecap>): HandRecap => ({
  handId: 7,
  number: 1,
  fair: FAIR_HAND,
  reveal: null,
  game: 'holdem',
  board: ['Ac', '7d', '2d', '9s', '3d'],
  secondBoard: null,
  rake: 0,
  players: [],
  awards: [],
  ...patch,
});

const hand = holdemView().hand!;

describe('the result on the felt, read off the server’s summary', () => {
  it("highlights the winner's five cards (board and his own) and names every shown hand", () => {
    const summary = recap({
      players: [
        player(0, 'alice', {
          cards: ['As', 'Ah'],
          showed: true,
          high: { name: 'Three of a kind, aces', cards: ['As', 'Ah', 'Ac', '9s', '7d'] },
        }),
        player(1, 'bob', {
          cards: ['Kd', 'Qd'],
          showed: true,
          won: 400,
          high: { name: 'Flush, king high', cards: ['Kd', 'Qd', '7d', '3d', '2d'] },
        }),
      ],
      awards: [{ pot: 0, seat: 1, amount: 400, share: 'all' }],
    });
    const result = resultOnFelt(summary, hand)!;
    expect([...result.best].sort()).toEqual(['2d', '3d', '7d']);
    expect([...result.bestBySeat.get(1)!].sort()).toEqual(['Kd', 'Qd']);
    expect(result.bestBySeat.has(0)).toBe(false);
    expect(result.names.get(0)).toBe('Three of a kind, aces');
    expect(result.names.get(1)).toBe('Flush, king high');
  });

  it('hi/lo: the high half by its high hand, the low half by its low', () => {
    const summary = recap({
      game: 'omaha-hilo',
      board: ['2c', '3d', '8h', 'Ks', 'Kd'],
      players: [
        player(0, 'alice', {
          cards: ['Ac', '4d', 'Kh', 'Qs'],
          showed: true,
          high: { name: 'Three of a kind, kings', cards: ['Kh', 'Qs', 'Ks', 'Kd', '8h'] },
          low: { name: '8-4-3-2-A', cards: ['8h', '4d', '3d', '2c', 'Ac'] },
        }),
      ],
      awards: [
        { pot: 0, seat: 0, amount: 10, share: 'high' },
        { pot: 0, seat: 0, amount: 10, share: 'low' },
      ],
    });
    const result = resultOnFelt(summary, hand)!;
    expect([...result.bestBySeat.get(0)!].sort()).toEqual(['4d', 'Ac', 'Kh', 'Qs']);
    expect([...result.best].sort()).toEqual(['2c', '3d', '8h', 'Kd', 'Ks']);
    expect(result.names.get(0)).toBe('Three of a kind, kings · Low: 8-4-3-2-A');
  });

  it("a hand run twice: each run's winner named and highlighted by his hand on that run's board", () => {
    const summary = recap({
      board: ['Ac', '7d', '2d', '9s', '3c'],
      secondBoard: ['Kc', '8d', '5d', 'Js', '4d'],
      players: [
        player(0, 'alice', {
          cards: ['As', 'Ah'],
          showed: true,
          won: 200,
          high: { name: 'Three of a kind, aces', cards: ['As', 'Ah', 'Ac', '9s', '7d'] },
          second: { high: { name: 'Pair of aces', cards: ['As', 'Ah', 'Kc', 'Js', '8d'] }, low: null },
        }),
        player(1, 'bob', {
          cards: ['Kd', 'Qd'],
          showed: true,
          won: 200,
          high: { name: 'King high', cards: ['Kd', 'Qd', 'Ac', '9s', '7d'] },
          second: { high: { name: 'Flush, king high', cards: ['Kd', 'Qd', '8d', '5d', '4d'] }, low: null },
        }),
      ],
      awards: [
        { pot: 0, seat: 0, amount: 200, share: 'all', run: 1 },
        { pot: 0, seat: 1, amount: 200, share: 'all', run: 2 },
      ],
    });
    const result = resultOnFelt(summary, hand)!;
    expect(result.names.get(0)).toBe('Three of a kind, aces | 2nd board: Pair of aces');
    expect(result.names.get(1)).toBe('King high | 2nd board: Flush, king high');
    // The board cards of alice's hand on the first board, and of bob's on the second.
    expect([...result.best].sort()).toEqual(['4d', '5d', '7d', '8d', '9s', 'Ac']);
    expect([...result.bestBySeat.get(0)!].sort()).toEqual(['Ah', 'As']);
    expect([...result.bestBySeat.get(1)!].sort()).toEqual(['Kd', 'Qd']);
  });

  it('a hand won without a showdown highlights nothing and names nothing; nor does a mucked hand', () => {
    const summary = recap({
      players: [
        player(0, 'alice', { folded: true }),
        player(1, 'bob', { won: 300, mucked: true, high: { name: 'Pair of twos', cards: ['2d', '2h'] } }),
      ],
      awards: [{ pot: 0, seat: 1, amount: 300, share: 'all' }],
    });
    const result = resultOnFelt(summary, hand)!;
    expect(result.best.size).toBe(0);
    expect(result.bestBySeat.size).toBe(0);
    expect(result.names.size).toBe(0);
  });

  it("another hand's summary is not drawn over the hand on the table", () => {
    expect(resultOnFelt(recap({ number: 2 }), hand)).toBeNull();
    expect(resultOnFelt(null, hand)).toBeNull();
    expect(resultOnFelt(recap({}), null)).toBeNull();
  });
});
