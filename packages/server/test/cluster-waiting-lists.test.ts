/**
 * Waiting lists across the processes of a room (PostgreSQL, NATS; docs/deploy.md): a table's list is
 * one list whichever process a player joins it through, in the order they joined; a freed seat is
 * offered once, to the list's head, on the process he is connected to; leaving the list through another
 * process takes him off it.
 */
import type { ServerMessage } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { NATS_URL, natsReachable } from './nats-helpers.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { nlHoldem } from './table-configs.js';
import { signedUp, startTestRoom, until, type TestClient } from './transport-client.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const table = nlHoldem('wl-hu', {
  seats: 2,
  // A hand in play when a player leaves ends soon: his turn times out at once.
  clocks: { actionMs: 500, timeBankMs: 0, betweenHandsMs: 60_000 },
});

const isOffer = (m: ServerMessage) => m.op === 'waitlist-seat';

describe.runIf(reachable)('waiting lists on two processes (PostgreSQL, NATS)', () => {
  const db = testDatabase();

  it('a waiting list is one list across processes: its head, wherever he joined and is connected, is offered the freed seat, once', async () => {
    const url = await db.freshDatabase();
    const a = await startTestRoom({
      db: url,
      bus: NATS_URL,
      node: 'wl-a',
      tables: [table],
      lobbyPollMs: 200,
    });
    const b = await startTestRoom({
      db: url,
      bus: NATS_URL,
      node: 'wl-b',
      tables: [table],
      lobbyPollMs: 200,
    });
    const clients: TestClient[] = [];
    try {
      const [first, second, third, fourth, fifth] = await Promise.all([
        signedUp(a),
        signedUp(b),
        signedUp(b),
        signedUp(a),
        signedUp(a),
      ]);
      clients.push(first.client, second.client, third.client, fourth.client, fifth.client);
      // Taken through either process once the table has an owner.
      await until(async () => {
        const answer = await first.client.request('seat-take', { tableId: table.id, seat: 0, buyIn: 10_000 });
        if (answer.op === 'ack') return true;
        await new Promise((resolve) => setTimeout(resolve, 250));
        return undefined;
      }, 60_000);
      await second.client.ok('seat-take', { tableId: table.id, seat: 1, buyIn: 10_000 });

      expect((await third.client.ok('waitlist-join', { tableId: table.id })).position).toBe(1);
      expect((await fourth.client.ok('waitlist-join', { tableId: table.id })).position).toBe(2);
      expect((await fifth.client.ok('waitlist-join', { tableId: table.id })).position).toBe(3);
      // Joining again keeps his place.
      expect((await third.client.ok('waitlist-join', { tableId: table.id })).position).toBe(1);
      // Leaving through the other process: the fifth player is off the list.
      await fifth.client.ok('waitlist-leave', { tableId: table.id });
      const waiting = (client: TestClient) =>
        until(async () => {
          const { tables } = await client.ok('lobby-list');
          const count = tables.find((listed) => listed.tableId === table.id)?.waiting;
          return count === 2 ? count : undefined;
        }, 30_000);
      expect(await waiting(first.client)).toBe(2);
      expect(await waiting(second.client)).toBe(2);

      const offered = third.client.next(isOffer, 60_000);
      await first.client.ok('seat-leave', { tableId: table.id });
      expect(await offered).toEqual({ op: 'waitlist-seat', tableId: table.id, seat: 0 });
      // Offered once: nobody else hears of that seat, on either process.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (const client of [first.client, second.client, fourth.client, fifth.client])
        expect(client.received.filter(isOffer)).toEqual([]);
      expect(third.client.received.filter(isOffer)).toHaveLength(1);
      await third.client.ok('seat-take', { tableId: table.id, seat: 0, buyIn: 10_000 });
    } finally {
      for (const client of clients) client.close();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
