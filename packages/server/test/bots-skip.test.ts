import type { EventView } from '@felt/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unusedByBot } from '../src/bots/bot.js';
import type { TableMessage } from '../src/table/types.js';
import { toServerMessage } from '../src/transport/wire.js';

/** A table message as the server writes it (its own conversion and key order). */
const wire = (message: TableMessage): Buffer => Buffer.from(JSON.stringify(toServerMessage(message)));
const event = (shown: EventView): Buffer =>
  wire({ type: 'table-event', tableId: 'room-1', handId: 12, seq: 7, event: shown });

describe('bots: messages a bot has no use for are dropped unread', () => {
  it('clocks and the table events it does not follow its cards by are dropped', () => {
    const clock = wire({
      type: 'clock',
      tableId: 'room-1',
      seq: 7,
      handId: 12,
      seat: 3,
      deadline: 1_800_000_000_000,
      timeBankMs: 30_000,
    });
    expect(unusedByBot(clock)).toBe(true);
    expect(unusedByBot(event({ type: 'call', seat: 3, amount: 100, allIn: false }))).toBe(true);
    expect(unusedByBot(event({ type: 'round', round: 1, seat: 2 }))).toBe(true);
    expect(unusedByBot(event({ type: 'deal-board', cards: ['Ks', 'Kd', '5s'] }))).toBe(true);
  });

  it('the deals and discards, legal actions, snapshots and anything unrecognised are read', () => {
    const dealt = event({ type: 'deal-hole', seat: 0, cards: ['Jd', 'Th'], up: [false, false] });
    expect(unusedByBot(dealt)).toBe(false);
    expect(unusedByBot(event({ type: 'deal-draw', seat: 0, cards: ['2c', '3c'] }))).toBe(false);
    expect(unusedByBot(event({ type: 'discard', seat: 0, cards: ['2c', '3c'], timedOut: false }))).toBe(
      false,
    );
    const legal = wire({
      type: 'legal-actions',
      tableId: 'room-1',
      seq: 7,
      handId: 12,
      legal: {
        seat: 0,
        fold: true,
        check: false,
        call: 200,
        bringIn: null,
        raise: { min: 300, max: 10_000 },
        raiseTos: null,
        discard: null,
        split: false,
      },
    });
    expect(unusedByBot(legal)).toBe(false);
    expect(unusedByBot(Buffer.from('{"op":"ack","id":5,"for":"act","data":{}}'))).toBe(false);
    expect(unusedByBot(Buffer.from('{"op":"table-snapshot","tableId":"room-1","view":{}}'))).toBe(false);
    expect(unusedByBot(Buffer.from('{"op":"hand-summary","tableId":"room-1","summary":{}}'))).toBe(false);
    // A table event whose type cannot be found: read.
    expect(unusedByBot(Buffer.from('{"op":"table-event","tableId":"room-1","handId":12}'))).toBe(false);
    // In another key order: read (and parsed) rather than guessed at.
    expect(unusedByBot(Buffer.from('{"tableId":"room-1","op":"clock"}'))).toBe(false);
  });

  it('a message is judged by its own bytes where it lies in a read, never by its neighbours (property)', () => {
    const messages = [
      wire({
        type: 'clock',
        tableId: 'room-1',
        seq: 7,
        handId: 12,
        seat: 3,
        deadline: 1,
        timeBankMs: 30_000,
      }),
      event({ type: 'call', seat: 3, amount: 100, allIn: false }),
      event({ type: 'deal-draw', seat: 0, cards: ['2c', '3c'] }),
      Buffer.from('{"op":"table-event","tableId":"room-1","handId":12}'),
      Buffer.from('"event":{"type":"discard"'),
      Buffer.from('{"op":"ack","id":5,"for":"act","data":{}}'),
    ];
    fc.assert(
      fc.property(fc.array(fc.nat(messages.length - 1), { minLength: 1, maxLength: 6 }), (picks) => {
        const parts = picks.map((i) => messages[i]!);
        const data = Buffer.concat(parts);
        let start = 0;
        for (const part of parts) {
          expect(unusedByBot(data, start, start + part.length)).toBe(unusedByBot(Buffer.from(part)));
          start += part.length;
        }
      }),
    );
  });
});
