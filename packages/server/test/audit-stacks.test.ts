/**
 * The audit sees every chip at the tables: a seat whose stack no ledger entry paid for — made by the
 * real path an attacker would forge, the table's `restore-seat` given a stack — is reported by the staff
 * console's audit, on one process (SQLite) and on a cluster through the table's owner (PostgreSQL,
 * NATS); `felt admin audit` reports a hand in progress dealt from such a stack; a normal room stays
 * conserved. Without PostgreSQL or NATS the cluster case skips, or fails when CI=true (./services.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminAudit } from '../src/ledger/admin.js';
import { openMigratedSqliteStorage } from '../src/storage/index.js';
import type { Table } from '../src/table/types.js';
import { NATS_URL, natsReachable } from './nats-helpers.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { history, user } from './storage-contract-helpers.js';
import { nlHoldem } from './table-configs.js';
import {
  roomUrl,
  signedUp,
  staffSignedIn,
  startTestRoom,
  until,
  type TestClient,
  type TestRoom,
} from './transport-client.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const FORGED = 1_000_000;

/** The table `id` of a room's lobby. */
const tableOf = (room: TestRoom, id: string): Table => {
  const table = room.server.lobby.allTables().find((candidate) => candidate.id === id);
  if (table === undefined) throw new Error(`no table ${id}`);
  return table;
};

const auditOf = async (staff: TestClient) =>
  (await staff.ok('staff-audit', {})).audit as { conserved: boolean; problems: readonly string[] };

describe('the staff console’s audit compares every live seat with its ledger account', () => {
  it('a seat whose stack no ledger entry paid for is reported; a normal room stays conserved (one process)', async () => {
    const room = await startTestRoom({ tables: [nlHoldem('paid'), nlHoldem('forged')] });
    const clients: TestClient[] = [];
    try {
      const { client: staff } = await staffSignedIn(roomUrl(room), room.dataDir);
      const ann = await signedUp(room);
      const bob = await signedUp(room);
      clients.push(staff, ann.client, bob.client);
      await ann.client.ok('seat-take', { tableId: 'paid', seat: 0, buyIn: 10_000 });
      await bob.client.ok('seat-take', { tableId: 'paid', seat: 1, buyIn: 10_000 });
      expect(await auditOf(staff)).toMatchObject({ conserved: true, problems: [] });

      const mallory = await signedUp(room);
      clients.push(mallory.client);
      const forged = await tableOf(room, 'forged').control({
        type: 'restore-seat',
        player: { account: mallory.id, name: 'mallory' },
        seat: 2,
        stack: FORGED,
      });
      expect(forged).toEqual({ ok: true });
      const report = await auditOf(staff);
      expect(report.conserved).toBe(false);
      expect(report.problems).toEqual([
        `table forged seat 2: user ${mallory.id} has ${FORGED} at the table but his seat account holds 0`,
      ]);
    } finally {
      for (const client of clients) client.close();
      await room.close();
    }
  });
});

describe.runIf(reachable)('the audit on a cluster asks each table’s owner (PostgreSQL, NATS)', () => {
  const db = testDatabase();

  it('a seat forged at a table another process runs is reported by the audit asked through this one', async () => {
    const url = await db.freshDatabase();
    const tables = ['stack-1', 'stack-2'].map((id) => nlHoldem(id));
    const a = await startTestRoom({ db: url, bus: NATS_URL, node: 'stacks-a', tables });
    const b = await startTestRoom({ db: url, bus: NATS_URL, node: 'stacks-b', tables });
    const clients: TestClient[] = [];
    try {
      const { client: staff } = await staffSignedIn(roomUrl(a), { url });
      const ann = await signedUp(b);
      const mallory = await signedUp(a);
      clients.push(staff, ann.client, mallory.client);
      // A table process b runs, as process a sees it: a proxy of its owner.
      const target = await until(() =>
        b.server.lobby.allTables().find((table) => table.view(null).seats.length > 0 && owned(b, table.id)),
      );
      const proxy = tableOf(a, target.id);
      await until(() => (owned(a, target.id) ? undefined : true));
      await ann.client.ok('seat-take', { tableId: target.id, seat: 0, buyIn: 10_000 });
      expect(await auditOf(staff)).toMatchObject({ conserved: true, problems: [] });

      // The forged command crosses the bus to the owner, as a forged request on the bus would.
      const forged = await proxy.control({
        type: 'restore-seat',
        player: { account: mallory.id, name: 'mallory' },
        seat: 3,
        stack: FORGED,
      });
      expect(forged).toEqual({ ok: true });
      const report = await auditOf(staff);
      expect(report.conserved).toBe(false);
      expect(report.problems).toEqual([
        `table ${target.id} seat 3: user ${mallory.id} has ${FORGED} at the table but his seat account holds 0`,
      ]);
    } finally {
      for (const client of clients) client.close();
      await b.close();
      await a.close();
    }
  }, 120_000);
});

/** Whether `room`'s process runs the table itself. */
function owned(room: TestRoom, tableId: string): boolean {
  const table = tableOf(room, tableId) as Table & { readonly local?: Table | null };
  return table.local !== undefined && table.local !== null;
}

describe('felt admin audit', () => {
  it('reports a hand dealt from a stack the seat’s ledger account does not hold, in progress and settled', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'felt-dealt-'));
    const storage = await openMigratedSqliteStorage({ dataDir });
    try {
      const ann = await user(storage, 'ann');
      const bob = await user(storage, 'bob');
      for (const id of [ann, bob]) {
        await storage.topUp(id, 5000);
        await storage.buyIn('t1', id, 'play', 1000);
      }
      const hand = (stacks: readonly number[]) =>
        storage.startHand({
          tableId: 't1',
          currency: 'play',
          description: "NL Hold'em 5/10",
          participants: [
            { userId: ann, seat: 1, position: 0 },
            { userId: bob, seat: 4, position: 1 },
          ],
          posts: [
            { userId: ann, amount: 5 },
            { userId: bob, amount: 10 },
          ],
          start: JSON.stringify({ accounts: [ann, bob], stacks }),
        });
      const paid = await hand([1000, 1000]);
      if (!paid.ok) throw new Error(paid.error.message);
      expect((await adminAudit(dataDir)).output).toMatchObject({ conserved: true, problems: [] });
      await storage.cancelHand(paid.value);

      const forged = await hand([1000, FORGED]);
      if (!forged.ok) throw new Error(forged.error.message);
      const inPlay = await adminAudit(dataDir);
      expect(inPlay.exitCode).toBe(1);
      expect(inPlay.output).toMatchObject({
        conserved: false,
        problems: [
          `hand ${forged.value} (in progress) at t1: user ${bob} was dealt in with ${FORGED} but his seat account holds 1000`,
        ],
      });
      // Settled, the hand still tells: its settlement moved a seat that held less than was dealt.
      const settled = await storage.settleHand({
        handId: forged.value,
        awards: [{ userId: ann, amount: 15 }],
        rake: 0,
        history: history([ann, bob]),
      });
      if (!settled.ok) throw new Error(settled.error.message);
      expect((await adminAudit(dataDir)).output).toMatchObject({
        conserved: false,
        problems: [
          `hand ${forged.value} at t1: user ${bob} was dealt in with ${FORGED} but his seat account held 1000`,
        ],
      });
    } finally {
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
