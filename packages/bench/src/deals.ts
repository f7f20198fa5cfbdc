import { deckCards, seededRandom, shuffleInPlace, type Card } from '@felt/engine';

/** Every row deals from the same seed, so every library sees the same hands. */
export const SEED = 0xfe17;

/**
 * A deal: five board cards, then six players' two hole cards (an Omaha row reads two players' four or
 * five hole cards from the same places).
 */
export const DEAL_SIZE = 5 + 6 * 2;

export class Deals {
  /** Deal i is `cards[i * DEAL_SIZE …]`. */
  readonly cards: Uint8Array;

  constructor(readonly count: number) {
    const random = seededRandom(SEED);
    const deck = deckCards('standard52');
    this.cards = new Uint8Array(count * DEAL_SIZE);
    for (let i = 0; i < count; i++)
      this.cards.set(shuffleInPlace(deck, random).slice(0, DEAL_SIZE), i * DEAL_SIZE);
  }

  board(i: number): Card[] {
    return this.slice(i, 0, 5);
  }

  /** The hole cards of a seat, `size` cards a seat. */
  hole(i: number, seat: number, size: number): Card[] {
    return this.slice(i, 5 + seat * size, 5 + (seat + 1) * size);
  }

  /** The board and the hole cards of a seat at hold'em: seven cards. */
  seven(i: number, seat: number): Card[] {
    return [...this.board(i), ...this.hole(i, seat, 2)];
  }

  private slice(i: number, from: number, to: number): Card[] {
    return Array.from(this.cards.subarray(i * DEAL_SIZE + from, i * DEAL_SIZE + to));
  }
}
