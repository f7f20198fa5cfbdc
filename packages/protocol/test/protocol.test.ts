/**
 * The protocol's schemas: every request op has one; good requests parse into exactly their declared
 * fields; bad ones are refused with the field named; arbitrary input never throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_OPS,
  ClientMessageSchema,
  ERROR_CODES,
  ErrorCode,
  PUBLIC_OPS,
  ServerMessageSchema,
  parseClientFrame,
  type ClientMessage,
} from '../src/index.js';

/** One valid example of every request. */
const EXAMPLES: readonly ClientMessage[] = [
  { op: 'signup', id: 1, name: 'alice', password: 'correct horse' },
  { op: 'login', id: 2, name: 'alice', password: 'correct horse' },
  { op: 'resume', id: 3, token: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG' },
  { op: 'logout', id: 4 },
  { op: 'change-password', id: 5, oldPassword: 'a', newPassword: 'battery staple' },
  { op: 'balances', id: 6 },
  { op: 'top-up', id: 7, amount: 1000 },
  { op: 'lobby-list', id: 8, game: 'holdem', structure: 'no-limit', currency: 'play' },
  { op: 'lobby-subscribe', id: 9 },
  { op: 'lobby-unsubscribe', id: 10 },
  { op: 'waitlist-join', id: 11, tableId: 't-1' },
  { op: 'waitlist-leave', id: 12, tableId: 't-1' },
  { op: 'table-open', id: 13, tableId: 't-1' },
  { op: 'table-close', id: 14, tableId: 't-1' },
  { op: 'table-preview', id: 141, tableId: 't-1' },
  { op: 'seat-take', id: 15, tableId: 't-1', seat: 3, buyIn: 5000, post: 'wait', autoPost: true },
  { op: 'rebuy', id: 16, tableId: 't-1', amount: 500 },
  { op: 'sit-out', id: 17, tableId: 't-1' },
  { op: 'sit-in', id: 18, tableId: 't-1' },
  { op: 'seat-leave', id: 19, tableId: 't-1' },
  { op: 'missed-blinds', id: 20, tableId: 't-1', choice: 'post' },
  { op: 'auto-post', id: 21, tableId: 't-1', enabled: false },
  { op: 'post-blind', id: 29, tableId: 't-1', post: true },
  { op: 'run-twice', id: 29, tableId: 't-1', accept: true },
  { op: 'muck-losing', id: 28, tableId: 't-1', enabled: false },
  { op: 'act', id: 22, tableId: 't-1', handId: 7, action: { type: 'raise', to: 400 } },
  { op: 'history-list', id: 23, limit: 10, before: 99 },
  { op: 'history-fetch', id: 24, handId: 12 },
  { op: 'hand-summary', id: 25, tableId: 't-1' },
  { op: 'ping', id: 26 },
  { op: 'chat-send', id: 34, tableId: 't-1', text: 'nice hand' },
  { op: 'notes-list', id: 35 },
  {
    op: 'staff-table-open',
    id: 38,
    table: {
      id: 'nl-extra',
      name: 'Extra',
      game: 'holdem',
      structure: 'no-limit',
      currency: 'play',
      stakes: { small: 100, big: 200 },
    },
    reason: 'a crowded evening',
  },
  { op: 'staff-table-close', id: 39, tableId: 'nl-extra', reason: 'quiet again' },
  { op: 'note-set', id: 36, about: 12, colour: 'red', note: 'bluffs rivers' },
  { op: 'note-set', id: 37, about: 12, colour: null, note: '' },
  { op: 'fair-contribute', id: 33, tableId: 't-1', commitment: 'ab'.repeat(32), bytes: '0f'.repeat(32) },
  { op: 'staff-player', id: 27, name: 'victim' },
  { op: 'staff-cashier', id: 28, name: 'victim', direction: 'debit', amount: 500, reason: 'refund' },
  { op: 'staff-hand', id: 29, handId: 7 },
  { op: 'staff-broadcast', id: 32, tableId: 't-1', text: 'restart at 03:00' },
  { op: 'staff-suspend', id: 31, name: 'victim', suspended: true, reason: 'chip dumping' },
  { op: 'staff-end-sessions', id: 33, name: 'victim', reason: 'password stolen' },
  { op: 'staff-figures', id: 34 },
  { op: 'staff-audit', id: 35 },
  { op: 'staff-integrity', id: 36 },
  { op: 'staff-hands', id: 38, tableId: 't-1', endedFrom: 1_790_000_000_000, endedTo: 1_790_000_600_000 },
  { op: 'staff-pause', id: 37, tableId: 't-1', paused: true, reason: 'restart at 03:00' },
  { op: 'staff-transaction', id: 40, transactionId: 1234 },
  { op: 'staff-transactions', id: 41, name: 'victim', limit: 20 },
  { op: 'staff-transactions', id: 42, handId: 7 },
  { op: 'login', id: 30, name: 'ann', password: 'hunter22hunter', totp: '012345' },
  { op: 'tournament-list', id: 34 },
  { op: 'tournament-get', id: 35, tournamentId: 'daily@2026-12-03T20:00:00.000Z' },
  { op: 'tournament-register', id: 36, tournamentId: 'sng-6@2026-12-03T13:05:00.000Z' },
  { op: 'tournament-unregister', id: 37, tournamentId: 'sng-6@2026-12-03T13:05:00.000Z' },
  { op: 'tournament-rebuy', id: 38, tournamentId: 'daily@2026-12-03T20:00:00.000Z' },
  { op: 'tournament-addon', id: 39, tournamentId: 'daily@2026-12-03T20:00:00.000Z' },
  { op: 'tournament-reenter', id: 40, tournamentId: 'daily@2026-12-03T20:00:00.000Z' },
  { op: 'tournament-deal-propose', id: 43, tournamentId: 'daily@2026-12-03T20:00:00.000Z', kind: 'icm' },
  {
    op: 'tournament-deal-propose',
    id: 44,
    tournamentId: 'daily@2026-12-03T20:00:00.000Z',
    kind: 'chip-chop',
  },
  { op: 'tournament-deal-accept', id: 45, tournamentId: 'daily@2026-12-03T20:00:00.000Z' },
  { op: 'tournament-deal-decline', id: 46, tournamentId: 'daily@2026-12-03T20:00:00.000Z' },
];

describe('client messages', () => {
  it('every request op has a schema, and a valid request parses to itself', () => {
    expect(new Set(EXAMPLES.map((m) => m.op))).toEqual(new Set(CLIENT_OPS));
    for (const message of EXAMPLES)
      expect(ClientMessageSchema.parse(message)).toEqual({ ok: true, value: message });
  });

  it('every hand action of the protocol parses', () => {
    const actions = [
      { type: 'fold' },
      { type: 'check' },
      { type: 'call' },
      { type: 'bet', to: 200 },
      { type: 'raise', to: 400 },
      { type: 'bring-in' },
      { type: 'complete', to: 100 },
      { type: 'discard', cards: ['As', 'Td'] },
      { type: 'stand-pat' },
      { type: 'show' },
      { type: 'muck' },
      { type: 'split', accept: true },
    ];
    for (const action of actions) {
      expect(ClientMessageSchema.parse({ op: 'act', id: 1, tableId: 't', action }).ok).toBe(true);
    }
    const bad = [
      { type: 'discard', cards: ['Xx'] },
      { type: 'bet' },
      { type: 'raise', to: 1.5 },
      { type: 'dance' },
    ];
    for (const action of bad) {
      expect(ClientMessageSchema.parse({ op: 'act', id: 1, tableId: 't', action }).ok).toBe(false);
    }
  });

  it('unknown fields are dropped, so a handler sees only what it declared', () => {
    const parsed = ClientMessageSchema.parse({
      op: 'ping',
      id: 1,
      admin: true,
      ['__proto__']: { polluted: 1 },
    });
    expect(parsed).toEqual({ ok: true, value: { op: 'ping', id: 1 } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a bad field is refused with its path', () => {
    const parsed = ClientMessageSchema.parse({ op: 'seat-take', id: 1, tableId: 't', seat: 12, buyIn: 100 });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issue.path).toBe('seat');
    const name = ClientMessageSchema.parse({ op: 'signup', id: 1, name: 'a b', password: 'x' });
    expect(!name.ok && name.issue.path).toBe('name');
  });

  it('only signup, login, resume and ping are public', () => {
    expect([...PUBLIC_OPS].sort()).toEqual(['login', 'ping', 'resume', 'signup']);
  });
});

describe('parseClientFrame', () => {
  it('not JSON or not an object: BAD_FRAME without an id', () => {
    for (const text of ['', 'nope', '[1,2]', '42', 'null', '"op"']) {
      expect(parseClientFrame(text)).toMatchObject({ ok: false, id: null, code: ErrorCode.BAD_FRAME });
    }
  });

  it('no readable id: BAD_MESSAGE without an id; unknown op: UNKNOWN_OP with the id', () => {
    expect(parseClientFrame('{"op":"ping"}')).toMatchObject({ ok: false, id: null, code: 'BAD_MESSAGE' });
    expect(parseClientFrame('{"op":"ping","id":-1}')).toMatchObject({ ok: false, id: null });
    expect(parseClientFrame('{"op":"nope","id":5}')).toMatchObject({ ok: false, id: 5, code: 'UNKNOWN_OP' });
    expect(parseClientFrame('{"op":"top-up","id":6,"amount":"9"}')).toMatchObject({
      ok: false,
      id: 6,
      code: 'BAD_MESSAGE',
    });
  });

  it('arbitrary input never throws and always yields a message or a typed error', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => {
          const result = parseClientFrame(text);
          if (!result.ok) expect(ERROR_CODES).toContain(result.code);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('random objects with real ops never throw', () => {
    const frame = fc.record({
      op: fc.constantFrom(...CLIENT_OPS),
      id: fc.oneof(fc.nat(), fc.string(), fc.constant(null)),
      tableId: fc.oneof(fc.string(), fc.integer()),
      amount: fc.oneof(fc.integer(), fc.double(), fc.string()),
      seat: fc.oneof(fc.integer(), fc.string()),
      action: fc.anything(),
      name: fc.string(),
      password: fc.string(),
    });
    fc.assert(
      fc.property(frame, (message) => {
        const result = parseClientFrame(JSON.stringify(message));
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });
});

describe('server messages', () => {
  it('the envelope schema accepts what the server sends', () => {
    const messages = [
      { op: 'ack', id: 1, for: 'ping', data: { time: 1 } },
      { op: 'error', id: null, code: 'BAD_FRAME', message: 'not JSON' },
      { op: 'hello', protocol: 1, maxFrameBytes: 16384, rate: { perSecond: 20, burst: 40 } },
      { op: 'clock', tableId: 't', seq: 12, handId: 3, seat: 1, deadline: 1e12, timeBankMs: 30000 },
      { op: 'table-snapshot', tableId: 't', seq: 12, view: {} },
      { op: 'legal-actions', tableId: 't', seq: 12, handId: 3, legal: {} },
      { op: 'hand-summary', tableId: 't', seq: 13, summary: {} },
      { op: 'session-ended', reason: 'logout' },
      { op: 'tournament-seat', tournamentId: 'daily@x', tableId: 'daily@x-2', seat: 4, moved: true },
      {
        op: 'tournament-out',
        tournamentId: 'daily@x',
        result: { account: 7, name: 'ann', place: 3, tied: 1, prize: 2000 },
      },
      { op: 'tournament-end', tournamentId: 'daily@x', state: 'cancelled', results: [] },
    ];
    for (const message of messages) expect(ServerMessageSchema.parse(message).ok).toBe(true);
    expect(ServerMessageSchema.parse({ op: 'error', id: 1, code: 'NOPE', message: '' }).ok).toBe(false);
    // every table message carries the table's stream number
    expect(ServerMessageSchema.parse({ op: 'table-snapshot', tableId: 't', view: {} }).ok).toBe(false);
  });
});
