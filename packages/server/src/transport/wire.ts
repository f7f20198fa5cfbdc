/**
 * Between the table actor's words and the protocol's: its outgoing messages become server messages
 * (`type` → `op`, nothing else changes: they are already filtered by `viewFor`), the protocol's hand
 * actions become table commands, and table refusals keep their codes (a subset of the protocol's).
 *
 * The type assertions below fail to compile when the table's output types and the protocol's wire
 * types drift apart.
 */
import type {
  ErrorCode,
  EventView as WireEventView,
  HandRecap as WireHandRecap,
  LegalView as WireLegalView,
  ServerMessage,
  TableView as WireTableView,
  WireHandAction,
} from '@felt/protocol';
import type {
  EventView,
  HandRecap,
  LegalView,
  PlayerAction,
  TableErrorCode,
  TableMessage,
  TableView,
} from '../table/types.js';

type Assignable<From, To> = [From] extends [To] ? true : never;
// Every table output is a valid wire payload, and every table error code is a protocol error code.
export const WIRE_TYPES_AGREE: [
  Assignable<TableView, WireTableView>,
  Assignable<EventView, WireEventView>,
  Assignable<LegalView, WireLegalView>,
  Assignable<HandRecap, WireHandRecap>,
  Assignable<TableErrorCode, ErrorCode>,
] = [true, true, true, true, true];

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
      // The room shows down automatically in showdown order (RULES.md §1); nothing to choose.
      return null;
  }
}
