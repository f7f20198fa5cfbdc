/**
 * A room on three real `felt serve --db postgres://… --bus nats://…` processes, one PostgreSQL database
 * and the machine's NATS, with `felt bots` connected to two of them. The first process runs every table,
 * so every bot's command crosses the bus to it; then it is killed (SIGKILL) in the middle of hands. The
 * two others take its tables over: exactly the hands that were in progress are cancelled, the players
 * keep their seats and stacks, every table deals again, and `felt admin audit --db` finds every chip.
 * Without PostgreSQL or NATS it skips, or fails when CI=true (./services.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresDriver } from '../src/storage/index.js';
import { intCol, textCol } from '../src/storage/sql.js';
import type { TableConfig } from '../src/table/types.js';
import { felt, FeltServer, freePort, tempDir, writeTables, type FeltRun } from './integration-helpers.js';
import { NATS_URL, natsReachable } from './nats-helpers.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const TABLES = 4;
const table = (n: number): TableConfig => ({
  id: `cluster-${n}`,
  name: `cluster-${n}`,
  game: 'holdem',
  structure: 'no-limit',
  stakes: { small: 100, big: 200 },
  currency: 'play',
  seats: 3,
  clocks: { betweenHandsMs: 50 },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `fn` gives a value; generous, for a busy machine. */
async function eventually<T>(fn: () => Promise<T | null>, what: string, timeoutMs = 90_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

describe.runIf(reachable)('a room on three processes, one of them killed (PostgreSQL, NATS)', () => {
  const db = testDatabase();
  const data = tempDir('felt-cluster-');
  const servers: FeltServer[] = [];
  const bots: ChildProcess[] = [];
  let driver: PostgresDriver | null = null;
  afterAll(async () => {
    for (const child of bots) child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.kill()));
    await driver?.close();
    data.remove();
  }, 60_000);

  it('the others take the dead process’s tables: hands in progress cancelled, seats kept, every table deals again, every chip kept', async () => {
    const url = await db.freshDatabase();
    driver = new PostgresDriver({ url, poolSize: 2 });
    const sql = driver;
    const tablesFile = writeTables(
      data.dir,
      Array.from({ length: TABLES }, (_, i) => table(i + 1)),
    );
    const start = async (node: string) => {
      const server = await FeltServer.start(data.dir, await freePort(), [
        '--db',
        url,
        '--bus',
        NATS_URL,
        '--node',
        node,
        '--tables',
        tablesFile,
      ]);
      servers.push(server);
      return server;
    };
    const owners = async () =>
      new Map(
        (
          await sql.all('SELECT table_id, member_id FROM table_leases WHERE expires_at > clock_timestamp()')
        ).map((row) => [textCol(row, 'table_id'), intCol(row, 'member_id')]),
      );
    const memberOf = (server: FeltServer) => Number(/cluster member (\d+)/.exec(server.stderr)![1]);

    // The first process takes every table; the two others come once it runs them.
    const a = await start('a');
    const ids = Array.from({ length: TABLES }, (_, i) => `cluster-${i + 1}`);
    await eventually(async () => {
      const now = await owners();
      return ids.every((id) => now.get(id) === memberOf(a)) ? true : null;
    }, 'the first process to take every table');
    const b = await start('b');
    const c = await start('c');

    const runs: Promise<FeltRun>[] = [b, c].map((server, at) =>
      felt(
        [
          'bots',
          '--url',
          server.url,
          '--bots',
          '6',
          '--prefix',
          `cl${at}`,
          '--seconds',
          '600',
          '--think-ms',
          '5',
          '--detail',
        ],
        (child) => bots.push(child),
      ),
    );
    // Every table deals a few hands, all of them through the bus to the first process.
    const settledPerTable = async () =>
      new Map(
        (
          await sql.all(
            "SELECT table_id, COUNT(*) AS n FROM hands WHERE status = 'settled' GROUP BY table_id",
          )
        ).map((row) => [textCol(row, 'table_id'), intCol(row, 'n')]),
      );
    await eventually(async () => {
      const settled = await settledPerTable();
      return ids.every((id) => (settled.get(id) ?? 0) >= 3) ? true : null;
    }, 'hands on every table');

    await a.kill();
    const killedAt = Date.now();
    // Nobody writes for the dead process's tables until their leases run out: what is in progress now
    // is what was in progress when it died.
    const handsWith = async (status: string) =>
      (await sql.all('SELECT id, table_id FROM hands WHERE status = ? ORDER BY id', [status]))
        .filter((row) => ids.includes(textCol(row, 'table_id')))
        .map((row) => intCol(row, 'id'));
    const inProgress = await handsWith('in-progress');
    const seatsAtKill = (
      await sql.all("SELECT table_id FROM ledger_accounts WHERE kind = 'seat' AND balance > 0")
    ).filter((row) => ids.includes(textCol(row, 'table_id'))).length;

    // Every table deals again, run by b or c.
    const dealtAgainAt = new Map<string, number>();
    await eventually(
      async () => {
        for (const row of await sql.all(
          'SELECT table_id, MIN(started_at) AS at FROM hands WHERE started_at > ? GROUP BY table_id',
          [killedAt],
        )) {
          if (!dealtAgainAt.has(textCol(row, 'table_id')))
            dealtAgainAt.set(textCol(row, 'table_id'), intCol(row, 'at'));
        }
        return ids.every((id) => dealtAgainAt.has(id)) ? true : null;
      },
      'every table to deal again',
      120_000,
    );
    const slowest = Math.max(...ids.map((id) => dealtAgainAt.get(id)! - killedAt));
    console.log(
      `cluster failover: the slowest table dealt again ${(slowest / 1000).toFixed(1)} s after the kill`,
    );
    const now = await owners();
    const survivors = new Set(ids.map((id) => now.get(id)));
    expect(survivors).toEqual(new Set([memberOf(b), memberOf(c)]));

    // The hands cut short are exactly those the kill caught in progress.
    expect(await handsWith('cancelled')).toEqual(inProgress);
    // Every seat that held chips at the kill was kept and seated again by the member that took its table.
    const takeovers = [
      ...`${b.stderr}${c.stderr}`.matchAll(
        /took table (\S+) \(epoch \d+\): (\d+) hands cancelled, (\d+) seats kept/g,
      ),
    ].filter((match) => ids.includes(match[1]!));
    expect(takeovers.map((match) => match[1]).sort()).toEqual(ids);
    expect(takeovers.reduce((sum, match) => sum + Number(match[2]), 0)).toBe(inProgress.length);
    expect(takeovers.reduce((sum, match) => sum + Number(match[3]), 0)).toBe(seatsAtKill);

    // Play on a while, then everybody leaves and the two processes stop.
    await sleep(3000);
    for (const child of bots) child.kill('SIGTERM');
    const results = await Promise.all(runs);
    for (const run of results) {
      expect(run.status, run.stderr).toBe(0);
      expect((run.json as { hands: number }).hands).toBeGreaterThan(0);
    }
    await Promise.all([b.stop(), c.stop()]);
    const audit = await felt(['admin', 'audit', '--db', url]);
    const report = audit.json as { conserved: boolean; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.conserved).toBe(true);
    expect(audit.status).toBe(0);
  }, 400_000);
});
