import {
  bestOmahaValueOf,
  highRankingStandard,
  SHOWDOWN_RULES,
  showdownWinners,
  standardHigh,
  type Card,
  type ShowdownInput,
} from '@felt/engine';
import { DEAL_SIZE, type Deals } from '../deals.js';
import { OMAHA_HOLE, type Contender, type Task } from './contender.js';

const sign = (difference: number): string => String(Math.sign(difference));

/** Felt's tasks, through the calls the room makes. Cards are Felt's own ints, so there is nothing to convert. */
export function feltContender(): Contender {
  const high = standardHigh();
  // The room's Omaha showdown path: the standard high ranking's best two-plus-three hand.
  const omahaValue = (hole: readonly Card[], board: readonly Card[]): number =>
    bestOmahaValueOf(highRankingStandard, hole, board);
  const omaha =
    (size: number) =>
    (deals: Deals): Task => {
      const boards = Array.from({ length: deals.count }, (_, i) => deals.board(i));
      const holes = Array.from({ length: deals.count }, (_, i) => deals.hole(i, 0, size));
      const values = new Int32Array(deals.count);
      return {
        run: (from, to) => {
          for (let i = from; i < to; i++) values[i] = omahaValue(holes[i]!, boards[i]!);
        },
        verdict: (i) =>
          sign(omahaValue(holes[i]!, boards[i]!) - omahaValue(deals.hole(i, 1, size), boards[i]!)),
      };
    };
  return {
    eval7: (deals) => {
      // Seat 0's seven cards are the first seven of each deal.
      const { cards, count } = deals;
      const values = new Int32Array(count);
      return {
        run: (from, to) => {
          for (let i = from, o = from * DEAL_SIZE; i < to; i++, o += DEAL_SIZE) {
            values[i] = high.value7(
              cards[o]!,
              cards[o + 1]!,
              cards[o + 2]!,
              cards[o + 3]!,
              cards[o + 4]!,
              cards[o + 5]!,
              cards[o + 6]!,
            );
          }
        },
        verdict: (i) => sign(high.value(deals.seven(i, 0)) - high.value(deals.seven(i, 1))),
      };
    },
    omaha: omaha(OMAHA_HOLE.omaha),
    omaha5: omaha(OMAHA_HOLE.omaha5),
    showdown6: (deals) => {
      const inputs = Array.from({ length: deals.count }, (_, i): ShowdownInput => ({
        rules: SHOWDOWN_RULES.holdem,
        board: deals.board(i),
        holes: Array.from({ length: 6 }, (_, seat) => deals.hole(i, seat, 2)),
      }));
      const winners = new Array<number[]>(deals.count);
      return {
        run: (from, to) => {
          for (let i = from; i < to; i++) winners[i] = showdownWinners(inputs[i]!).winners;
        },
        verdict: (i) => showdownWinners(inputs[i]!).winners.join(','),
      };
    },
  };
}
