/**
 * The one translation of a player's decision (the protocol's action, as the client sent it) into the
 * engine's action for engine position `player`; the engine's `verify` is then the one check of it.
 */
import { parseCard, type Card, type Hand, type HandAction } from '@felt/engine';
import { TableErrorCode, type PlayerAction } from './types.js';

export type Translated =
  | { readonly ok: true; readonly action: HandAction }
  | { readonly ok: false; readonly code: TableErrorCode; readonly message: string };

const refused = (code: TableErrorCode, message: string): Translated => ({ ok: false, code, message });

/** The engine's action for `action`, verified against `hand`; a refusal names the first rule broken. */
export function toHandAction(hand: Hand, player: number, action: PlayerAction): Translated {
  let engineAction: HandAction;
  switch (action.type) {
    case 'fold':
      engineAction = { type: 'fold', player };
      break;
    case 'check':
      // The engine's check-call would call: a check facing a bet is the player's mistake, not a call.
      if (hand.legalActions()?.check !== true)
        return refused(TableErrorCode.ILLEGAL_ACTION, 'cannot check facing a bet');
      engineAction = { type: 'check-call', player };
      break;
    case 'call':
      engineAction = { type: 'check-call', player };
      break;
    case 'bet':
    case 'raise':
    case 'complete':
      engineAction = { type: 'bet-raise', player, to: action.to };
      break;
    case 'bring-in':
      engineAction = { type: 'bring-in', player };
      break;
    case 'split':
      engineAction = { type: 'split', player, accept: action.accept };
      break;
    case 'stand-pat':
      engineAction = { type: 'discard', player, cards: [] };
      break;
    case 'discard': {
      const cards: Card[] = [];
      for (const text of action.cards) {
        const parsed = parseCard(text);
        if (!parsed.ok) return refused(TableErrorCode.BAD_CARDS, `not a card: ${JSON.stringify(text)}`);
        cards.push(parsed.value);
      }
      engineAction = { type: 'discard', player, cards };
      break;
    }
    case 'show':
    case 'muck':
      // The table shows down in showdown order (RULES.md §1); the seat's muck-losing option decides.
      return refused(
        TableErrorCode.ILLEGAL_ACTION,
        'the table shows hands down in showdown order; the muck-losing option chooses show or muck',
      );
  }
  const verdict = hand.verify(engineAction);
  if (verdict.ok) return { ok: true, action: engineAction };
  const code =
    verdict.error.code === 'BAD_AMOUNT'
      ? TableErrorCode.BAD_AMOUNT
      : verdict.error.code === 'BAD_CARDS'
        ? TableErrorCode.BAD_CARDS
        : verdict.error.code === 'NOT_YOUR_TURN'
          ? TableErrorCode.NOT_YOUR_TURN
          : TableErrorCode.ILLEGAL_ACTION;
  return refused(code, verdict.error.message);
}
