import type { Card } from '../cards.js';
import type { Ranking } from './ranking.js';

/** A hand as shown: its value under a ranking and the cards that make it. */
export interface HandValue {
  readonly value: number;
  readonly cards: readonly Card[];
}

/** Calls `visit` with every `size`-card subset of `cards` (the array passed is reused). */
export function forEachSubset(cards: readonly Card[], size: number, visit: (subset: Card[]) => void): void {
  const subset = new Array<Card>(size);
  const step = (from: number, depth: number): void => {
    if (depth === size) {
      visit(subset);
      return;
    }
    for (let i = from; i <= cards.length - (size - depth); i++) {
      subset[depth] = cards[i]!;
      step(i + 1, depth + 1);
    }
  };
  step(0, 0);
}

/** The best `handSize` of any of the cards, with the cards that make it. */
export function bestHandOf(ranking: Ranking, cards: readonly Card[]): HandValue {
  let best: HandValue = { value: -1, cards: [] };
  forEachSubset(cards, ranking.handSize, (subset) => {
    const value = ranking.evaluate(subset);
    if (value > best.value) best = { value, cards: [...subset] };
  });
  return best;
}

/** The best value of any `handSize` of the cards, by the ranking's fast path where it has one. */
export function bestValueOf(ranking: Ranking, cards: readonly Card[]): number {
  return ranking.best ? ranking.best(cards) : bestHandOf(ranking, cards).value;
}

/** `bestValueOf` a player's own cards and the board's together. */
export function bestValueOfParts(ranking: Ranking, own: readonly Card[], board: readonly Card[]): number {
  return ranking.bestOfParts ? ranking.bestOfParts(own, board) : bestValueOf(ranking, [...own, ...board]);
}

/** The best hand of exactly two hole cards and exactly three board cards (Omaha), with its cards. */
export function bestOmahaHandOf(ranking: Ranking, hole: readonly Card[], board: readonly Card[]): HandValue {
  let best: HandValue = { value: -1, cards: [] };
  forEachSubset(hole, 2, (pair) => {
    forEachSubset(board, 3, (triple) => {
      const cards = [...pair, ...triple];
      const value = ranking.evaluate(cards);
      if (value > best.value) best = { value, cards };
    });
  });
  return best;
}

export function bestOmahaValueOf(ranking: Ranking, hole: readonly Card[], board: readonly Card[]): number {
  return ranking.bestOmaha ? ranking.bestOmaha(hole, board) : bestOmahaHandOf(ranking, hole, board).value;
}
