import { describe, expect, it } from 'vitest';
import { formatCard, parseCards } from '../src/cards.js';
import { decideShowdown } from '../src/eval/showdown.js';
import { SHOWDOWN_RULES } from '../src/eval/games.js';
import { parsePhh } from '../src/phh/parse.js';
import { shownHands } from '../src/showdown-names.js';

const read = (lines: readonly string[]) => {
  const parsed = parsePhh(lines.join('\n'));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};

const HOLDEM = [
  "variant = 'NT'",
  'antes = [0, 0]',
  'blinds_or_straddles = [1, 2]',
  'min_bet = 2',
  'starting_stacks = [100, 100]',
];

describe("a history's shown hands, named by the evaluator", () => {
  it('names each shown hand and its five cards as the showdown decides them', () => {
    const hand = read([
      ...HOLDEM,
      "actions = ['d dh p1 AsAh', 'd dh p2 KdQd', 'p2 cc', 'p1 cc', 'd db Ac7d2d', 'p1 cc', 'p2 cc', 'd db 9s', 'p1 cc', 'p2 cc', 'd db 3d', 'p1 cc', 'p2 cc', 'p1 sm AsAh', 'p2 sm KdQd']",
    ]);
    const hands = shownHands(hand);
    expect(hands.map((h) => h.player)).toEqual([0, 1]);
    const board = parseCards('Ac7d2d9s3d');
    if (!board.ok) throw new Error('board');
    for (const [player, hole] of [
      [0, 'AsAh'],
      [1, 'KdQd'],
    ] as const) {
      const cards = parseCards(hole);
      if (!cards.ok) throw new Error('hole');
      const best = decideShowdown({ rules: SHOWDOWN_RULES.holdem, board: board.value, holes: [cards.value] })
        .hands[0]!;
      const shown = hands.find((h) => h.player === player)!;
      expect(shown.high.name).toBe(best.high.name);
      expect(shown.high.cards.map(formatCard)).toEqual(best.high.cards.map(formatCard));
      expect(shown.high.cards).toHaveLength(5);
      expect(shown.low).toBeNull();
    }
    expect(hands[1]!.high.cards.map(formatCard).sort()).toEqual(['2d', '3d', '7d', 'Kd', 'Qd'].sort());
  });

  it('leaves out a mucked hand and cards the viewer may not see', () => {
    const hand = read([
      ...HOLDEM,
      "actions = ['d dh p1 AsAh', 'd dh p2 ????', 'p2 cc', 'p1 cc', 'd db Ac7d2d', 'p1 cc', 'p2 cc', 'd db 9s', 'p1 cc', 'p2 cc', 'd db 3d', 'p1 cc', 'p2 cc', 'p1 sm AsAh', 'p2 sm']",
    ]);
    expect(shownHands(hand).map((h) => h.player)).toEqual([0]);
  });

  it('names the low half in a hi/lo game, two cards from the hand in Omaha', () => {
    const hand = read([
      "variant = 'PO/8'",
      'antes = [0, 0]',
      'blinds_or_straddles = [1, 2]',
      'min_bet = 2',
      'starting_stacks = [100, 100]',
      "actions = ['d dh p1 As2h3c9d', 'd dh p2 KdKsQcQh', 'p2 cc', 'p1 cc', 'd db 4d5c8h', 'p1 cc', 'p2 cc', 'd db Ts', 'p1 cc', 'p2 cc', 'd db Jd', 'p1 cc', 'p2 cc', 'p1 sm As2h3c9d', 'p2 sm KdKsQcQh']",
    ]);
    const hands = shownHands(hand);
    // A-2 from the hand and 4-5-8 of the board: never three of his own (A-2-3) in Omaha.
    expect(hands[0]!.low?.cards.map(formatCard).sort()).toEqual(['2h', '4d', '5c', '8h', 'As'].sort());
    expect(hands[1]!.low).toBeNull();
  });
});
