import type { Card } from '@felt/engine';
import type { Deals } from '../deals.js';

export const EVAL_ROWS = ['eval7', 'omaha', 'omaha5', 'showdown6'] as const;
export type EvalRow = (typeof EVAL_ROWS)[number];

/** One library doing one row's task on the shared deals, its input converted before timing. */
export interface Task {
  /** Decides items [from, to) of the timed set, keeping every result so that no work can be skipped. */
  readonly run: (from: number, to: number) => void;
  /**
   * Agreement case i, compared with Felt's: which of seat 0's and seat 1's hands is better ("1", "0",
   * "-1"), or the showdown's winners ("0,3").
   */
  readonly verdict: (i: number) => string;
}

export type Contender = Readonly<Record<EvalRow, (deals: Deals) => Task>>;

/** Hole cards per player in an Omaha row. */
export const OMAHA_HOLE: Readonly<Record<'omaha' | 'omaha5', number>> = { omaha: 4, omaha5: 5 };

/** A peer library, called through its fastest public API. C: its card; V: its hand value. */
export interface Peer<C, V> {
  /** The library's form of a card, found through its own parser or table. */
  readonly card: (card: Card) => C;
  /** The best hand of 5 to 7 cards. */
  readonly evaluate: (cards: C[]) => V;
  /** Positive when a beats b, zero on a tie, by the library's own rule. */
  readonly compare: (a: V, b: V) => number;
  /** The library's own showdown, where it has one: the indexes of the best hands. */
  readonly winners?: (hands: V[]) => number[];
}

const build = <T>(count: number, item: (i: number) => T): T[] =>
  Array.from({ length: count }, (_, i) => item(i));

/**
 * The tasks of a peer. The peers evaluate five to seven cards, not Omaha: an Omaha hand is the best
 * of the 60 (4 hole cards) or 100 (5 hole cards) five-card hands of two hole and three board cards,
 * which is what a user of these libraries would write.
 */
export function peerContender<C, V>(peer: Peer<C, V>): Contender {
  const { evaluate, compare } = peer;
  const convert = (cards: readonly Card[]): C[] => cards.map((card) => peer.card(card));
  const order = (a: V, b: V): string => String(Math.sign(compare(a, b)));

  const five = new Array<C>(5);
  const bestOmaha = (hole: readonly C[], board: readonly C[]): V => {
    let best: V | undefined;
    for (let h1 = 0; h1 < hole.length; h1++) {
      five[0] = hole[h1]!;
      for (let h2 = h1 + 1; h2 < hole.length; h2++) {
        five[1] = hole[h2]!;
        for (let b1 = 0; b1 < board.length; b1++) {
          five[2] = board[b1]!;
          for (let b2 = b1 + 1; b2 < board.length; b2++) {
            five[3] = board[b2]!;
            for (let b3 = b2 + 1; b3 < board.length; b3++) {
              five[4] = board[b3]!;
              const value = evaluate(five);
              if (best === undefined || compare(value, best) > 0) best = value;
            }
          }
        }
      }
    }
    return best!;
  };

  const winnersOf = peer.winners ?? ((hands: V[]): number[] => bestIndexes(hands, compare));
  const seven = new Array<C>(7);
  const hands = new Array<V>(6);
  const showdown = (board: readonly C[], holes: readonly (readonly C[])[]): number[] => {
    for (let i = 0; i < 5; i++) seven[i] = board[i]!;
    for (let seat = 0; seat < holes.length; seat++) {
      seven[5] = holes[seat]![0]!;
      seven[6] = holes[seat]![1]!;
      hands[seat] = evaluate(seven);
    }
    return winnersOf(hands);
  };

  const omaha = (size: number) => (deals: Deals) => {
    const boards = build(deals.count, (i) => convert(deals.board(i)));
    const holes = build(deals.count, (i) => convert(deals.hole(i, 0, size)));
    const values = new Array<V>(deals.count);
    return {
      run: (from: number, to: number) => {
        for (let i = from; i < to; i++) values[i] = bestOmaha(holes[i]!, boards[i]!);
      },
      verdict: (i: number) =>
        order(bestOmaha(holes[i]!, boards[i]!), bestOmaha(convert(deals.hole(i, 1, size)), boards[i]!)),
    };
  };

  return {
    eval7: (deals) => {
      const sevens = build(deals.count, (i) => convert(deals.seven(i, 0)));
      const values = new Array<V>(deals.count);
      return {
        run: (from, to) => {
          for (let i = from; i < to; i++) values[i] = evaluate(sevens[i]!);
        },
        verdict: (i) => order(evaluate(sevens[i]!), evaluate(convert(deals.seven(i, 1)))),
      };
    },
    omaha: omaha(OMAHA_HOLE.omaha),
    omaha5: omaha(OMAHA_HOLE.omaha5),
    showdown6: (deals) => {
      const boards = build(deals.count, (i) => convert(deals.board(i)));
      const holes = build(deals.count, (i) => build(6, (seat) => convert(deals.hole(i, seat, 2))));
      const winners = new Array<number[]>(deals.count);
      return {
        run: (from, to) => {
          for (let i = from; i < to; i++) winners[i] = showdown(boards[i]!, holes[i]!);
        },
        verdict: (i) => showdown(boards[i]!, holes[i]!).join(','),
      };
    },
  };
}

/** The indexes of the best values, in order. */
function bestIndexes<V>(values: readonly V[], compare: (a: V, b: V) => number): number[] {
  let winners = [0];
  for (let i = 1; i < values.length; i++) {
    const order = compare(values[i]!, values[winners[0]!]!);
    if (order > 0) winners = [i];
    else if (order === 0) winners.push(i);
  }
  return winners;
}
