import { decideShowdown, deckCards, formatCard, shuffleInPlace, SHOWDOWN_RULES } from '@felt/engine';
import { cryptoRandomSource } from '@felt/server';
import type { Command } from './command.js';

/** What `npm start` runs until the room exists: a freshly shuffled six-player hold'em showdown. */
export const demo: Command = {
  run() {
    const deck = shuffleInPlace(deckCards('standard52'), cryptoRandomSource());
    const holes = Array.from({ length: 6 }, (_, seat) => deck.slice(seat * 2, seat * 2 + 2));
    const board = deck.slice(12, 17);
    const result = decideShowdown({ rules: SHOWDOWN_RULES.holdem, board, holes });
    const show = (cards: readonly number[]): string => cards.map(formatCard).join(' ');
    const lines = [`Board: ${show(board)}`];
    result.hands.forEach(({ high }, seat) => {
      const mark = result.winners.includes(seat) ? '  <- wins' : '';
      lines.push(`Seat ${seat + 1}: ${show(holes[seat]!)}  ${high.name} (${show(high.cards)})${mark}`);
    });
    process.stdout.write(`${lines.join('\n')}\n`);
    return Promise.resolve(0);
  },
};
