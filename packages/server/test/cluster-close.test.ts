/**
 * A table the staff close in a room of several processes (PostgreSQL, NATS; docs/deploy.md): closed
 * through one process while another runs it, it leaves every process's lobby, its lease runs out, and
 * no process takes it again.
 */
import type { ClusterStatusView } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { NATS_URL, natsReachable } from './nats-helpers.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { nlHoldem } from './table-configs.js';
import {
  roomUrl,
  signedUp,
  staffSignedIn,
  startTestRoom,
  until,
  type TestClient,
} from './transport-client.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const IDS = ['close-1', 'close-2', 'close-3', 'close-4'];
const tables = IDS.map((id) => nlHoldem(id));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(reachable)('closing a table on two processes (PostgreSQL, NATS)', () => {
  const db = testDatabase();

  it('a table the staff close through one process while another runs it leaves every lobby, and nobody takes it again', async () => {
    const url = await db.freshDatabase();
    const a = await startTestRoom({ db: url, bus: NATS_URL, node: 'close-a', tables });
    const b = await startTestRoom({ db: url, bus: NATS_URL, node: 'close-b', tables });
    const clients: TestClient[] = [];
    try {
      const { client: staff } = await staffSignedIn(roomUrl(a), { url });
      const { client: player } = await signedUp(b);
      clients.push(staff, player);
      const cluster = async (): Promise<ClusterStatusView> =>
        (await staff.ok('staff-figures')).figures.cluster!;
      // A table process b runs (process a's view of the leases names its owner).
      const target = await until(async () => {
        await sleep(500);
        const view = await cluster();
        const other = view.members.find((member) => member.id !== view.member && member.live);
        const lease = view.leases.find(
          (held) => other !== undefined && held.memberId === other.id && held.expiresInMs > 0,
        );
        return lease?.tableId;
      }, 60_000);
      await player.ok('seat-take', { tableId: target, seat: 0, buyIn: 10_000 });

      await staff.ok('staff-table-close', { tableId: target, reason: 'closing test' });
      const listed = async (client: TestClient) =>
        (await client.ok('lobby-list')).tables.map((table) => table.tableId);
      await until(async () => {
        await sleep(250);
        const [onA, onB] = await Promise.all([listed(staff), listed(player)]);
        return !onA.includes(target) && !onB.includes(target) ? true : undefined;
      }, 30_000);
      // The player was cashed out by the table's own leave.
      expect((await player.ok('balances')).balances.play).toBeGreaterThan(0);

      // Some seconds later still nobody holds it, and neither lobby lists it again.
      await sleep(6000);
      const view = await cluster();
      const lease = view.leases.find((held) => held.tableId === target);
      expect(lease === undefined || lease.expiresInMs <= 0).toBe(true);
      expect(await listed(staff)).not.toContain(target);
      expect(await listed(player)).not.toContain(target);
      // The other tables are still run.
      for (const id of IDS.filter((other) => other !== target))
        expect(view.leases.find((held) => held.tableId === id)!.expiresInMs).toBeGreaterThan(0);
    } finally {
      for (const client of clients) client.close();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
