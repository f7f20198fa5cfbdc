/**
 * The staff console's cluster view (`staff-figures`' `cluster`, docs/protocol.md) on two processes of
 * one room (PostgreSQL, NATS): each names itself, both members are live, every table has one live
 * lease, and the tables a process says it runs are those whose lease it holds. A room of one process
 * has no cluster view.
 */
import type { ClusterStatusView } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { NATS_URL, natsReachable } from './nats-helpers.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { nlHoldem } from './table-configs.js';
import { roomUrl, staffSignedIn, startTestRoom, until } from './transport-client.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const IDS = ['console-1', 'console-2', 'console-3', 'console-4'];
const tables = IDS.map((id) => nlHoldem(id));

describe('the console’s view of the room', () => {
  it('a room of one process has no cluster view', async () => {
    const room = await startTestRoom({ tables: [] });
    try {
      const { client: staff } = await staffSignedIn(roomUrl(room), room.dataDir);
      expect((await staff.ok('staff-figures')).figures.cluster).toBeNull();
      staff.close();
    } finally {
      await room.close();
    }
  });

  describe.runIf(reachable)('on two processes (PostgreSQL, NATS)', () => {
    const db = testDatabase();

    it('each process names itself; both are live; every table has one live lease, held by the process that says it runs it', async () => {
      const url = await db.freshDatabase();
      // Closed here, before the file's databases are dropped.
      const a = await startTestRoom({ db: url, bus: NATS_URL, node: 'console-a', tables });
      const b = await startTestRoom({ db: url, bus: NATS_URL, node: 'console-b', tables });
      try {
        const { client: staffA } = await staffSignedIn(roomUrl(a), { url });
        const { client: staffB } = await staffSignedIn(roomUrl(b), { url });
        const held = (view: ClusterStatusView) =>
          view.leases
            .filter((lease) => lease.memberId === view.member && lease.expiresInMs > 0)
            .map((l) => l.tableId);
        // Settled: both members live, every table leased, and each process running exactly the tables
        // it holds (not while a table is being handed over between them to spread the load).
        const settled = (view: ClusterStatusView | null | undefined): view is ClusterStatusView =>
          view != null &&
          view.members.filter((member) => member.live).length === 2 &&
          IDS.every((id) => view.leases.some((lease) => lease.tableId === id && lease.expiresInMs > 0)) &&
          [...view.tables].sort().join() === held(view).sort().join();
        const [viewA, viewB] = await until(async () => {
          // Asked twice a second, as a console would (and within the room's message rate).
          await new Promise((resolve) => setTimeout(resolve, 500));
          const [seenA, seenB] = await Promise.all(
            [staffA, staffB].map(async (staff) => (await staff.ok('staff-figures')).figures.cluster),
          );
          // Between them they run every table, each once.
          if (!settled(seenA) || !settled(seenB)) return undefined;
          const runs = [...seenA.tables, ...seenB.tables].sort();
          return runs.join() === IDS.join() ? [seenA, seenB] : undefined;
        }, 60_000);
        expect([viewA.label, viewB.label]).toEqual(['console-a', 'console-b']);
        expect(viewA.member).not.toBe(viewB.member);
        for (const view of [viewA, viewB])
          expect(view.members.map((member) => member.id).sort()).toEqual([viewA.member, viewB.member].sort());
        staffA.close();
        staffB.close();
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    }, 120_000);
  });
});
