/**
 * Between the table actor's words and the protocol's: its outgoing messages become server messages
 * (`type` → `op`, nothing else changes: they are already filtered by `viewFor`), and table refusals
 * keep their codes (a subset of the protocol's). A player's action needs no translation here: the
 * table takes the protocol's own shape.
 */
import type { ErrorCode, ServerMessage } from '@felt/protocol';
import type { TableErrorCode, TableMessage } from '../table/types.js';

type Assignable<From, To> = [From] extends [To] ? true : never;
// The table's views are the protocol's own types; its error codes must stay a subset of the protocol's.
export const TABLE_ERRORS_ARE_PROTOCOL_ERRORS: Assignable<TableErrorCode, ErrorCode> = true;

/** A table message as the server message that carries it. */
export function toServerMessage(message: TableMessage): ServerMessage {
  switch (message.type) {
    case 'table-snapshot':
      return { op: 'table-snapshot', tableId: message.tableId, seq: message.seq, view: message.view };
    case 'hand-start':
      return {
        op: 'hand-start',
        tableId: message.tableId,
        seq: message.seq,
        handId: message.handId,
        number: message.number,
        fair: message.fair,
        next: message.next,
      };
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
        seq: message.seq,
        handId: message.handId,
        seat: message.seat,
        deadline: message.deadline,
        timeBankMs: message.timeBankMs,
      };
    case 'legal-actions':
      return {
        op: 'legal-actions',
        tableId: message.tableId,
        seq: message.seq,
        handId: message.handId,
        legal: message.legal,
      };
    case 'hand-summary':
      return { op: 'hand-summary', tableId: message.tableId, seq: message.seq, summary: message.summary };
  }
}
