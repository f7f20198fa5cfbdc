import type { Card } from '../cards.js';
import { showdownWinners } from '../eval/showdown.js';
import type { OddsSpot } from './spot.js';

/**
 * Each player's pot share if the hands were shown down as they are (the room's own showdown): hi/lo
 * pots split in halves, ties split evenly.
 */
function sharesNow(spot: OddsSpot, holes: readonly (readonly Card[])[], board: readonly Card[]): number[] {
  const { winners, lowWinners } = showdownWinners({ rules: spot.rules, board, holes });
  const hasLow = lowWinners !== null && lowWinners.length > 0;
  return holes.map((_, player) => {
    const high = winners.includes(player) ? 1 / winners.length : 0;
    const low = hasLow && lowWinners.includes(player) ? 1 / lowWinners.length : 0;
    return hasLow ? (high + low) / 2 : high;
  });
}

/** Ahead: a pot share larger than every other player's. */
function isAhead(shares: readonly number[], player: number): boolean {
  const mine = shares[player]!;
  return shares.every((share, other) => other === player || share < mine);
}

/**
 * The cards that, dealt next, put each player ahead when he is not ahead now — ahead meaning a larger
 * share of the pot than anybody else's if the hands were shown down right after that card. "Next card":
 * - board games on the flop or turn: the next board card (every hand plays it);
 * - the stud games, once every hand holds a five-card hand: the player's own next card, the others'
 *   hands staying as they are; Telesina with five cards each: the Vela;
 * - draw games: the card the first player draws when he discards exactly one.
 * Outs need every hand's cards known (no `??`); elsewhere every list is empty.
 */
export function outsOf(spot: OddsSpot): Card[][] {
  const none = spot.hands.map((): Card[] => []);
  if (spot.hands.some((hand) => hand.hidden > 0)) return none;
  const holes = spot.hands.map((hand) => hand.known);
  const handSize = spot.high.handSize;

  const sharedNextCard = (): Card[][] => {
    const before = sharesNow(spot, holes, spot.board);
    const outs = spot.hands.map((): Card[] => []);
    for (const card of spot.stub) {
      const after = sharesNow(spot, holes, [...spot.board, card]);
      outs.forEach((list, player) => {
        if (isAhead(after, player) && !isAhead(before, player)) list.push(card);
      });
    }
    return outs;
  };

  if (spot.kind === 'board') {
    return spot.board.length === 3 || spot.board.length === 4 ? sharedNextCard() : none;
  }

  if (spot.kind === 'draw') {
    const [kept, ...others] = holes;
    if (spot.discard.length !== 1 || !kept) return none;
    const before = sharesNow(spot, [[...kept, ...spot.discard], ...others], spot.board);
    if (isAhead(before, 0)) return none;
    const outs: Card[] = [];
    for (const card of spot.stub) {
      if (isAhead(sharesNow(spot, [[...kept, card], ...others], spot.board), 0)) outs.push(card);
    }
    return [outs, ...others.map((): Card[] => [])];
  }

  // Stud games: every hand must already make a hand of its own.
  if (holes.some((hole) => hole.length + spot.board.length < handSize)) return none;
  const complete = spot.hands.every((hand) => hand.known.length === hand.size);
  if (complete) return spot.board.length < spot.boardSize ? sharedNextCard() : none;
  const before = sharesNow(spot, holes, spot.board);
  return spot.hands.map((hand, player) => {
    if (hand.known.length === hand.size || isAhead(before, player)) return [];
    const outs: Card[] = [];
    for (const card of spot.stub) {
      const after = holes.map((hole, other) => (other === player ? [...hole, card] : hole));
      if (isAhead(sharesNow(spot, after, spot.board), player)) outs.push(card);
    }
    return outs;
  });
}
