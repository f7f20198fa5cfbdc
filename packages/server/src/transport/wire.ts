/**
 * Between the table actor's words and the protocol's: its outgoing messages become server messages
 * (`type` → `op`, nothing else changes: they are already filtered by `viewFor`), the protocol's hand
 * actions become table commands, and table refusals keep their codes (a subset of the protocol's).
 */
import type { ErrorCode, ServerMessage, WireHandAction } from '@felt/protocol';
import type { PlayerAction, TableErrorCode, TableMessage } from '../table/types.js';

type Assignable<From, To> = [From] extends [To] ? true : never;
// The table's views are the protocol's own types; its error codes must stay a subset of the protocol's.
export const TABLE_ERRORS_ARE_PROTOCOL_ERRORS: Assignable<TableErrorCode, ErrorCode> = true;

/** A table message as the server message that carries it. */
export function toServerMessage(message: TableMessage): ServerMessage {
  switch (message.type) {
    case 'table-snapshot':
      return { op: 'table-snapshot', tableId: message.tableId, view: message.view };
    case 'table-event':
      return {
        op: 'table-event',
        tableId: message.tableId,
        handId: message.handId,
        seq: message.seq,
        event: message.event,
      };
    case 'clock':
      return {
        op: 'clock',
        tableId: message.tableId,
        handId: message.handId,
        seat: message.seat,
        deadline: message.deadline,
        timeBankMs: message.timeBankMs,
      };
    case 'legal-actions':
      return { op: 'legal-actions', tableId: message.tableId, handId: message.handId, legal: message.legal };
    case 'hand-summary':
      return { op: 'hand-summary', tableId: message.tableId, summary: message.summary };
  }
}

/** The protocol's hand action as the table's, or null for those the room does not take from players. */
export function toPlayerAction(action: WireHandAction): PlayerAction | null {
  switch (action.type) {
    case 'fold':
    case 'check':
    case 'call':
    case 'bring-in':
      return { type: action.type };
    case 'bet':
    case 'raise':
    case 'complete':
      return { type: 'bet-raise', to: action.to };
    case 'discard':
      return { type: 'discard', cards: action.cards };
    case 'stand-pat':
      return { type: 'discard', cards: [] };
    case 'split':
      return { type: 'split', accept: action.accept };
    case 'show':
    case 'muck':
      // The table shows down in showdown order (RULES.md §1); the seat's muck-losing option decides.
      return null;
  }
}
