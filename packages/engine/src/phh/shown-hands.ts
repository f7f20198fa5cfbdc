import type { Card } from '../cards.js';
import { decideShowdown } from '../eval/showdown.js';
import { SHOWDOWN_RULES } from '../eval/games.js';
import type { PhhHand } from './types.js';
import { parseVariantCode } from './variants.js';

/** A best hand as the evaluator names it, with the cards that make it (in showing order). */
export interface NamedCards {
  readonly name: string;
  readonly cards: readonly Card[];
}

/** What one player showed at the end of a history: his best high hand and (hi/lo games) his low. */
export interface ShownHand {
  /** The player's index in the history (0 is `p1`). */
  readonly player: number;
  readonly high: NamedCards;
  readonly low: NamedCards | null;
}

/**
 * The hands a history shows at its showdown, named as the room names them at the table (the same
 * evaluator call as the server's recap): every player whose last show action names all his cards. A
 * hand the evaluator cannot name (too few cards) is left out.
 */
export function shownHands(hand: PhhHand): ShownHand[] {
  const variant = parseVariantCode(hand.variant);
  if (variant === null) return [];
  const rules = SHOWDOWN_RULES[variant.game];
  const board: Card[] = [];
  const shown = new Map<number, readonly Card[]>();
  for (const action of hand.actions) {
    if (action.kind === 'deal-board') {
      for (const card of action.cards) if (card !== null) board.push(card);
    } else if (action.kind === 'show-muck' && action.cards.length > 0) {
      const cards = action.cards.filter((card): card is Card => card !== null);
      if (cards.length === action.cards.length) shown.set(action.player, cards);
    }
  }
  const hands: ShownHand[] = [];
  for (const [player, cards] of [...shown].sort(([a], [b]) => a - b)) {
    try {
      const best = decideShowdown({ rules, board, holes: [cards] }).hands[0];
      if (best === undefined) continue;
      hands.push({
        player,
        high: { name: best.high.name, cards: best.high.cards },
        low: best.low === null ? null : { name: best.low.name, cards: best.low.cards },
      });
    } catch {
      // too few cards for the game's hand: shown, but not named
    }
  }
  return hands;
}
