/**
 * Fuzzing the socket: random and malformed frames (not JSON, binary, huge, wrong types, random ops and
 * fields, deep nesting) over a real WebSocket. The server keeps running, answers each readable request
 * with a typed error or an ack, and every table stays consistent (no chip moved by garbage).
 */
import fc from 'fast-check';
import { ClientOp, ERROR_CODES, type ServerMessage } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, signedUp, startTestRoom, type TestRoom } from './transport-client.js';

let room: TestRoom;

beforeAll(async () => {
  // A roomy rate limit so that the fuzzer's frames are judged on their content, not their pace.
  room = await startTestRoom({ rate: { perSecond: 10_000, burst: 10_000 } });
});

afterAll(async () => {
  await room.close();
});

const TABLE = 'holdem-nl-play-100';

const frame = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        op: fc.oneof(fc.constantFrom(...Object.values(ClientOp)), fc.string({ maxLength: 12 })),
        id: fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.string({ maxLength: 5 }), fc.constant(null)),
        tableId: fc.oneof(fc.constant(TABLE), fc.string({ maxLength: 70 }), fc.nat()),
        seat: fc.oneof(fc.integer({ min: -2, max: 12 }), fc.string({ maxLength: 3 })),
        buyIn: fc.oneof(fc.integer(), fc.double()),
        amount: fc.oneof(fc.integer(), fc.double(), fc.constant(1e300)),
        action: fc.oneof(
          fc.record({
            type: fc.constantFrom('fold', 'check', 'call', 'bet', 'raise', 'discard', 'x'),
            to: fc.integer(),
          }),
          fc.anything({ maxDepth: 2 }),
        ),
        name: fc.string({ maxLength: 30 }),
        password: fc.string({ maxLength: 30 }),
        token: fc.string({ maxLength: 60 }),
      },
      { requiredKeys: ['op'] },
    )
    .map((v) => JSON.stringify(v)),
  fc.constant('{"op":"ping","id":1'),
  fc.constant('{"__proto__":{"op":"ping"},"id":2}'),
  fc.constant(`${'['.repeat(5000)}${']'.repeat(5000)}`),
);

function answered(client: TestClient, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = (): void => {
      const answers = client.received.filter((m) => m.op === 'ack' || m.op === 'error').length;
      if (answers >= count) resolve();
      else if (Date.now() - started > 10_000) reject(new Error(`only ${answers} of ${count} answers`));
      else setTimeout(check, 20);
    };
    check();
  });
}

describe('fuzz: random and malformed frames over a real WebSocket', () => {
  it('an anonymous connection: every frame gets a typed answer and the server keeps running', async () => {
    const client = await TestClient.connect(room);
    const frames = fc.sample(frame, { numRuns: 400, seed: 4242 });
    for (const text of frames) client.sendRaw(text);
    client.sendRaw(Buffer.from([0xff, 0x00, 0x13]), true);
    client.sendRaw('x'.repeat(20_000));
    await answered(client, frames.length + 2);
    for (const message of client.received) {
      if (message.op === 'error') expect(ERROR_CODES).toContain(message.code);
    }
    expect(client.closed).toBe(false);
    expect((await client.request('ping')).op).toBe('ack');
    client.close();
  });

  it('a logged-in player seated at a table: garbage changes no balance and no stack', async () => {
    const { client } = await signedUp(room);
    await client.ok('seat-take', { tableId: TABLE, seat: 7, buyIn: 5000 });
    const before = await client.ok('balances');
    // Frames that are valid JSON requests but never valid seat/money changes, and random garbage.
    const frames = fc.sample(frame, { numRuns: 400, seed: 777 }).filter((text) => {
      try {
        const parsed = JSON.parse(text) as { op?: unknown };
        return !['top-up', 'seat-take', 'seat-leave', 'rebuy', 'logout', 'change-password'].includes(
          String(parsed.op),
        );
      } catch {
        return true;
      }
    });
    const answersBefore = client.received.filter((m) => m.op === 'ack' || m.op === 'error').length;
    for (const text of frames) client.sendRaw(text);
    await answered(client, answersBefore + frames.length);
    expect((await client.ok('balances')).balances).toEqual(before.balances);
    const snapshot = await new Promise<ServerMessage>((resolve) => {
      void client.ok('table-close', { tableId: TABLE }).then(async () => {
        const next = client.next((m) => m.op === 'table-snapshot');
        await client.ok('table-open', { tableId: TABLE });
        resolve(await next);
      });
    });
    if (snapshot.op !== 'table-snapshot') throw new Error('expected a snapshot');
    expect(snapshot.view.seats[7]?.stack).toBe(5000);
    expect(snapshot.view.you).toBe(7);
    await client.ok('seat-leave', { tableId: TABLE });
    expect((await client.ok('balances')).balances.play).toBe(100_000);
    client.close();
  });

  it('a frame over 1 MiB closes that connection only; the server goes on', async () => {
    const client = await TestClient.connect(room);
    client.sendRaw('y'.repeat(1_100_000));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.closed).toBe(true);
    const other = await TestClient.connect(room);
    expect((await other.request('ping')).op).toBe('ack');
    expect((await fetch(`${room.http}/health`)).status).toBe(200);
    other.close();
  });
});
