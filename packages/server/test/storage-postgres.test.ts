/**
 * The storage on PostgreSQL: the same contract suites as SQLite's (storage.test.ts), the schema created
 * once by processes migrating at once, and the rules that concurrent writers must not break — no
 * balance overdrawn, the audit conserved — which SQLite's one writer never tests. Runs in a database
 * of its own (./postgres-helpers.ts); without PostgreSQL it skips, or fails when CI=true (./services.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { adminAudit } from '../src/ledger/admin.js';
import {
  migrate,
  MIGRATIONS,
  openMigratedPostgresStorage,
  openMigratedSqliteStorage,
  PostgresDriver,
  type Storage,
} from '../src/storage/index.js';
import { numberPlaceholders } from '../src/storage/postgres.js';
import { intCol } from '../src/storage/sql.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { startTestRoom } from './transport-client.js';
import { storageContract } from './storage-contract.js';
import { migrationsContract } from './storage-contract-migrations.js';
import { staffAuditTamperContract } from './storage-contract-staff.js';
import { conserved, handStarted, history, opener, user } from './storage-contract-helpers.js';

const FELT = join(import.meta.dirname, '..', '..', 'cli', 'bin', 'felt.js');
const reachable = await postgresReachable();

describe.runIf(reachable)('PostgreSQL', () => {
  const db = testDatabase();
  const fresh = async (): Promise<Storage> =>
    openMigratedPostgresStorage({ url: await db.freshSchema(), poolSize: 8 });

  storageContract('PostgreSQL', fresh);
  migrationsContract('PostgreSQL', async () => new PostgresDriver({ url: await db.freshSchema() }));
  staffAuditTamperContract('PostgreSQL', async () => new PostgresDriver({ url: await db.freshSchema() }));

  describe('migrations (PostgreSQL)', () => {
    it('three processes migrating one empty database at once create the schema once', async () => {
      const url = await db.freshDatabase();
      const drivers = [1, 2, 3].map(() => new PostgresDriver({ url, poolSize: 2 }));
      try {
        const applied = await Promise.all(drivers.map((driver) => migrate(driver, () => 1)));
        expect(applied.flat().sort((a, b) => a - b)).toEqual(MIGRATIONS.map((m) => m.version));
        const rows = await drivers[0]!.all('SELECT version FROM schema_migrations ORDER BY version');
        expect(rows.map((row) => intCol(row, 'version'))).toEqual(MIGRATIONS.map((m) => m.version));
        expect(await Promise.all(drivers.map((driver) => migrate(driver, () => 2)))).toEqual([[], [], []]);
      } finally {
        for (const driver of drivers) await driver.close();
      }
    });

    it('a failed migration leaves no trace', async () => {
      const driver = new PostgresDriver({ url: await db.freshSchema() });
      try {
        const bad = {
          version: 1,
          name: 'bad',
          sql: 'CREATE TABLE c (x INTEGER); CREATE TABLE c (x INTEGER);',
        };
        await expect(migrate(driver, () => 1, [bad])).rejects.toThrow();
        expect(await driver.all('SELECT version FROM schema_migrations')).toEqual([]);
        expect(await driver.get("SELECT to_regclass('c') IS NULL AS gone")).toEqual({ gone: true });
      } finally {
        await driver.close();
      }
    });
  });

  describe('concurrent writers (PostgreSQL)', () => {
    const open = opener(fresh);

    it('buy-ins made at once never overdraw the balance: exactly as many as it covers go through', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      await storage.cashier(ann, 'credit', 1000);
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => storage.buyIn(`t${i}`, ann, 'real', 100)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(10);
      expect(results.flatMap((r) => (r.ok ? [] : [r.error.code]))).toEqual(
        Array.from({ length: 20 }, () => 'INSUFFICIENT_FUNDS'),
      );
      expect(await storage.balances(ann)).toEqual({ play: 0, real: 0 });
      await conserved(storage);
    });

    it('buy-ins and cash-outs at once on one account and its seats conserve every chip', async () => {
      const storage = await open();
      const ann = await user(storage, 'ann');
      await storage.cashier(ann, 'credit', 500);
      const calls: Promise<unknown>[] = [];
      for (let round = 0; round < 8; round++) {
        for (let table = 0; table < 6; table++) {
          calls.push(storage.buyIn(`t${table}`, ann, 'real', 60 + table));
          calls.push(storage.cashOut(`t${(table + round) % 6}`, ann, 'real'));
        }
      }
      await Promise.all(calls);
      const seats = (await storage.seats()).filter((seat) => seat.userId === ann);
      const atTables = seats.reduce((sum, seat) => sum + seat.amount, 0);
      const { real } = await storage.balances(ann);
      expect(real).toBeGreaterThanOrEqual(0);
      expect(seats.every((seat) => seat.amount > 0)).toBe(true);
      expect(real + atTables).toBe(500);
      await conserved(storage);
    });

    /**
     * Holds a seat's account row in a transaction of the test's own, so that the calls made meanwhile
     * queue for it in a known order (each started once the one before waits for a lock).
     */
    async function withSeatHeld(
      url: string,
      seatKey: string,
      calls: readonly (() => Promise<unknown>)[],
    ): Promise<unknown[]> {
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT balance FROM ledger_accounts WHERE account_key = $1 FOR UPDATE', [
          seatKey,
        ]);
        const started: Promise<unknown>[] = [];
        for (const call of calls) {
          started.push(call());
          await waitersOnLocks(holder, started.length);
        }
        await holder.query('COMMIT');
        return await Promise.all(started);
      } finally {
        await holder.end();
      }
    }

    async function waitersOnLocks(client: pg.Client, count: number): Promise<void> {
      for (;;) {
        // The statistics views are read once per transaction unless their snapshot is cleared.
        await client.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await client.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (Number(rows[0]?.n) >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }

    interface SeatRace {
      readonly storage: Storage;
      readonly ann: number;
      readonly bob: number;
      readonly hand: number;
      readonly raise: unknown;
      readonly cashOut: unknown;
    }

    /** Ann raises 990 from her 1,000 in the hand and cashes out, the one queued behind the other. */
    async function raiseAndCashOut(
      first: 'raise' | 'cash-out',
      check: (race: SeatRace) => Promise<void>,
    ): Promise<void> {
      const url = await db.freshSchema();
      const storage = await openMigratedPostgresStorage({ url });
      try {
        const { ann, bob, hand } = await handStarted(storage);
        const raise = () =>
          storage.recordAction({
            handId: hand,
            seq: 0,
            action: 'p1 cbr 995',
            moves: [{ userId: ann, amount: 990 }],
          });
        const cashOut = () => storage.cashOut('t1', ann, 'real');
        const seat = `seat:real:${ann}:t1`;
        const [r, c] =
          first === 'raise'
            ? await withSeatHeld(url, seat, [raise, cashOut])
            : (await withSeatHeld(url, seat, [cashOut, raise])).reverse();
        await check({ storage, ann, bob, hand, raise: r, cashOut: c });
        await conserved(storage);
      } finally {
        await storage.close();
      }
    }

    it('a cash-out after an action of a hand counts what the action put in, and leaves it in the seat', () =>
      raiseAndCashOut('raise', async ({ storage, ann, raise, cashOut }) => {
        expect(raise).toEqual({ ok: true, value: undefined });
        expect(cashOut).toEqual({ ok: true, value: 5 });
        expect(await storage.seat('t1', ann, 'real')).toBe(0);
      }));

    it('an action after a cash-out finds the seat emptied and is refused', () =>
      raiseAndCashOut('cash-out', async ({ storage, ann, bob, hand, raise, cashOut }) => {
        expect(cashOut).toEqual({ ok: true, value: 995 });
        expect(raise).toMatchObject({ ok: false, error: { code: 'INSUFFICIENT_FUNDS' } });
        expect(await storage.contributions(hand)).toEqual({
          ok: true,
          value: [
            { userId: ann, amount: 5 },
            { userId: bob, amount: 10 },
          ],
        });
      }));

    it('two sign-ups with one name at once make one user; the other is told the name is taken', async () => {
      const storage = await open();
      const results = await Promise.all(
        [1, 2, 3, 4].map(() => storage.createUser({ name: 'ann', passwordHash: 'h', passwordSalt: 's' })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.flatMap((r) => (r.ok ? [] : [r.error.code]))).toEqual([
        'NAME_TAKEN',
        'NAME_TAKEN',
        'NAME_TAKEN',
      ]);
    });

    it('settlements at many tables at once, all raked into one house account, conserve every chip', async () => {
      const storage = await open();
      const players = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => user(storage, `p${i}`)));
      const hands = await Promise.all(
        [0, 1, 2, 3].map(async (table) => {
          const [a, b] = [players[2 * table]!, players[2 * table + 1]!];
          for (const id of [a, b]) {
            await storage.cashier(id, 'credit', 1000);
            await storage.buyIn(`t${table}`, id, 'real', 1000);
          }
          const started = await storage.startHand({
            tableId: `t${table}`,
            currency: 'real',
            description: 'x',
            participants: [
              { userId: a, seat: 0, position: 0 },
              { userId: b, seat: 1, position: 1 },
            ],
            posts: [
              { userId: a, amount: 50 },
              { userId: b, amount: 50 },
            ],
          });
          if (!started.ok) throw new Error(started.error.message);
          return { hand: started.value, winner: a, loser: b };
        }),
      );
      const settled = await Promise.all(
        hands.map(({ hand, winner, loser }) =>
          storage.settleHand({
            handId: hand,
            rake: 5,
            awards: [{ userId: winner, amount: 95 }],
            history: history([winner, loser]),
          }),
        ),
      );
      expect(settled.every((r) => r.ok)).toBe(true);
      const report = await storage.audit();
      expect(report.currencies.real).toMatchObject({ house: 20, sum: 0 });
      await conserved(storage);
    });
  });

  describe('felt admin on PostgreSQL', () => {
    const dirs: string[] = [];
    afterAll(() => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    /** The same room on either database: ann in a raked hand she won, bob on play money. */
    async function room(storage: Storage): Promise<void> {
      const { ann, bob, hand } = await handStarted(storage);
      await storage.topUp(bob, 700);
      await storage.recordAction({
        handId: hand,
        seq: 0,
        action: 'p1 f',
        settlement: {
          rake: 1,
          awards: [{ userId: bob, amount: 14 }],
          history: history([ann, bob]),
        },
      });
      await storage.close();
    }

    it('the audit prints the same JSON line as on SQLite', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'felt-admin-pg-'));
      dirs.push(dir);
      const url = await db.freshSchema();
      await room(await openMigratedSqliteStorage({ dataDir: dir }));
      await room(await openMigratedPostgresStorage({ url }));
      const onSqlite = await adminAudit(dir);
      const onPostgres = await adminAudit({ url });
      expect(onSqlite.exitCode).toBe(0);
      expect(JSON.stringify(onPostgres)).toBe(JSON.stringify(onSqlite));
    });

    it('felt admin credit and audit --db URL print their JSON lines, end to end', async () => {
      const url = await db.freshSchema();
      const storage = await openMigratedPostgresStorage({ url });
      await user(storage, 'ann');
      await storage.close();
      const felt = (...args: string[]) => {
        const run = spawnSync(process.execPath, [FELT, 'admin', ...args], { encoding: 'utf8' });
        return { status: run.status, line: run.stdout.trim() };
      };
      const credit = felt('credit', '--user', 'ann', '--amount', '250', '--db', url);
      expect(credit.status).toBe(0);
      expect(JSON.parse(credit.line)).toMatchObject({ ok: true, balances: { play: 0, real: 250 } });
      const audit = felt('audit', '--db', url);
      expect(audit.status).toBe(0);
      expect(audit.line).toBe(JSON.stringify((await adminAudit({ url })).output));
      expect(felt('audit', '--db', url, '--data', 'd').line).toContain('one or the other');
    });

    it("a database without Felt's schema is NO_DATABASE, not a new empty room", async () => {
      const url = await db.freshSchema();
      expect(await adminAudit({ url })).toMatchObject({
        exitCode: 1,
        output: { ok: false, error: { code: 'NO_DATABASE' } },
      });
    });
  });

  describe('felt serve on PostgreSQL', () => {
    it('migrates on start, serves, and its stop returns every chip at its tables to the balances', async () => {
      const url = await db.freshSchema();
      const room = await startTestRoom({ db: url });
      const storage = room.server.storage;
      const ann = await user(storage, 'ann');
      await storage.topUp(ann, 100);
      await storage.buyIn('t', ann, 'play', 60);
      expect((await fetch(`${room.http}/health`)).status).toBe(200);
      await room.close();
      const after = await openMigratedPostgresStorage({ url });
      try {
        expect(await after.balances(ann)).toEqual({ play: 100, real: 0 });
        expect(await after.seats()).toEqual([]);
        await conserved(after);
      } finally {
        await after.close();
      }
    });

    it('a second felt serve on the same database is refused while the first runs (it would cancel its hands)', async () => {
      const url = await db.freshSchema();
      const first = await startTestRoom({ db: url });
      try {
        await expect(startTestRoom({ db: url })).rejects.toThrow(/another felt serve runs on this database/);
      } finally {
        await first.close();
      }
      const again = await startTestRoom({ db: url });
      await again.close();
    });
  });
});

describe('the PostgreSQL driver', () => {
  it('numbers the placeholders outside quoted text', () => {
    expect(numberPlaceholders('SELECT \'?\' AS q, "a?" FROM t WHERE a = ? AND b IN (?, ?)')).toBe(
      'SELECT \'?\' AS q, "a?" FROM t WHERE a = $1 AND b IN ($2, $3)',
    );
  });
});
