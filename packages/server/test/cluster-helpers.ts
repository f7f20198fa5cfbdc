/**
 * Helpers for the tests of a room on real `felt serve --db postgres://… --bus nats://…` processes
 * sharing one PostgreSQL database (a fresh one for each room) and the machine's NATS: starting them,
 * reading the leases and the hands they wrote, running `felt bots` against them, and the audit at the
 * end. {@link clusterRooms} registers its clean-up with `afterAll`: call it inside a `describe`.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, expect } from 'vitest';
import { PostgresDriver } from '../src/storage/index.js';
import { intCol, textCol } from '../src/storage/sql.js';
import type { TableConfig } from '../src/table/types.js';
import type { TournamentEntry } from '../src/tournament/schedule.js';
import { felt, FeltServer, freePort, tempDir, writeTables, type FeltRun } from './integration-helpers.js';
import { NATS_URL } from './nats-helpers.js';
import { testDatabase } from './postgres-helpers.js';
import { nlHoldem } from './table-configs.js';

/** The room's one cash table in tests about its tournaments (play money). */
export const PLAY_CASH = nlHoldem('cash');

/** Tournament tables' clocks that never act in a test's time: a run goes on only as its players play. */
export const STILL_CLOCKS = { betweenHandsMs: 20, actionMs: 600_000, timeBankMs: 0 } as const;

/** `felt admin audit --db` finds every chip of the room at `url`. */
export async function expectConserved(url: string): Promise<void> {
  const audit = await felt(['admin', 'audit', '--db', url]);
  const report = audit.json as { conserved: boolean; problems: unknown[] };
  expect(report.problems).toEqual([]);
  expect(report.conserved).toBe(true);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `fn` gives a value; generous, for a busy machine. */
export async function eventually<T>(
  fn: () => Promise<T | null>,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** The member id a process joined as (its last join). */
export const memberOf = (server: FeltServer): number => {
  const joins = server.logs.filter((line) => line.msg === 'cluster member joined');
  return Number(joins[joins.length - 1]!['member']);
};

/** The takeovers processes logged of tables `ids`: hands cancelled and seats kept, by table. */
export const takeoversOf = (servers: readonly FeltServer[], ids: readonly string[]) =>
  servers
    .flatMap((server) => server.logs.filter((line) => line.msg === 'table taken over'))
    .filter((line) => ids.includes(String(line['tableId'])))
    .map((line) => ({
      tableId: String(line['tableId']),
      cancelled: Number(line['handsCancelled']),
      kept: Number(line['seatsKept']),
    }));

/** A room's table set, and the tables of it the bots play. */
export interface ClusterTables {
  readonly tables: readonly TableConfig[];
  readonly ids: readonly string[];
}

/**
 * Rooms of the table set `tables`, whose tables `ids` the bots play: each room a fresh database, its
 * processes, and what the tests read of it. Every process and `felt bots` run is killed after the file.
 */
export function clusterRooms(
  tables: readonly TableConfig[],
  ids: readonly string[],
  tournaments: readonly TournamentEntry[] = [],
) {
  const db = testDatabase();
  const data = tempDir('felt-cluster-');
  const servers: FeltServer[] = [];
  const bots: ChildProcess[] = [];
  const drivers: PostgresDriver[] = [];
  const folders = [data];
  afterAll(async () => {
    for (const child of bots) child.kill('SIGKILL');
    await Promise.all(servers.map((server) => server.kill()));
    await Promise.all(drivers.map((driver) => driver.close()));
    for (const folder of folders) folder.remove();
  }, 60_000);
  const defaultFile = writeTables(data.dir, tables, tournaments);

  /** A fresh database, its processes, and what the test reads of it; another table set when given. */
  async function room(other?: ClusterTables) {
    const tablesFile = other === undefined ? defaultFile : writeTables(tempFolder(), other.tables);
    const roomIds = other?.ids ?? ids;
    const url = await db.freshDatabase();
    const sql = new PostgresDriver({ url, poolSize: 2 });
    drivers.push(sql);
    /** A process labelled `node`; on `port` when given (a process restarted where it was). */
    const start = async (node: string, port?: number) => {
      const server = await FeltServer.start(data.dir, port ?? (await freePort()), [
        ...['--db', url, '--bus', NATS_URL, '--node', node, '--tables', tablesFile],
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
    const handsWith = async (status: string, at: readonly string[] = roomIds) =>
      (await sql.all('SELECT id, table_id FROM hands WHERE status = ? ORDER BY id', [status]))
        .filter((row) => at.includes(textCol(row, 'table_id')))
        .map((row) => intCol(row, 'id'));
    const seatsWithChips = async (at: readonly string[] = roomIds) =>
      (await sql.all("SELECT table_id FROM ledger_accounts WHERE kind = 'seat' AND balance > 0")).filter(
        (row) => at.includes(textCol(row, 'table_id')),
      ).length;
    /**
     * Waits until the tables are spread over `members`: every table held, each member running one more
     * than another at most, and no lease changing hands for two looks in a row; the tables of the room
     * each runs then.
     */
    const spread = async (members: readonly FeltServer[]) => {
      let last = '';
      return eventually(async () => {
        const now = await owners();
        const counts = members.map(
          (server) => [...now.values()].filter((m) => m === memberOf(server)).length,
        );
        const all = counts.reduce((sum, n) => sum + n, 0) === now.size;
        const even = Math.max(...counts) - Math.min(...counts) <= 1;
        const text = JSON.stringify([...now].sort());
        const still = text === last;
        last = text;
        if (!all || !even || !still) {
          await sleep(1000);
          return null;
        }
        return members.map((server) => roomIds.filter((id) => now.get(id) === memberOf(server)));
      }, 'the tables to spread over the processes');
    };
    /** Waits until every table has started a hand after `since` (ms); the slowest one's delay. */
    const everyTableDealsAfter = async (since: number, what: string) => {
      const first = new Map<string, number>();
      await eventually(async () => {
        for (const row of await sql.all(
          'SELECT table_id, MIN(started_at) AS at FROM hands WHERE started_at > ? GROUP BY table_id',
          [since],
        )) {
          first.set(textCol(row, 'table_id'), intCol(row, 'at'));
        }
        return roomIds.every((id) => first.has(id)) ? true : null;
      }, what);
      return Math.max(...roomIds.map((id) => first.get(id)! - since));
    };
    /** The first process, once it runs every table. */
    const first = async () => {
      const server = await start('first');
      await eventually(async () => {
        const now = await owners();
        return roomIds.every((id) => now.get(id) === memberOf(server)) ? true : null;
      }, 'the first process to take every table');
      return server;
    };
    /** `felt bots` on each of `servers`, six each, until stopped. */
    const play = (on: readonly FeltServer[]): Promise<FeltRun>[] =>
      on.map((server, at) =>
        felt(
          [
            ...['bots', '--url', server.url, '--bots', String(12 / on.length), '--prefix', `p${at}x`],
            ...['--seconds', '600', '--think-ms', '5', '--detail'],
          ],
          (child) => bots.push(child),
        ),
      );
    /** Every table deals a few hands (through the bus to the first process). */
    const handsEverywhere = () =>
      eventually(async () => {
        const settled = new Map(
          (
            await sql.all(
              "SELECT table_id, COUNT(*) AS n FROM hands WHERE status = 'settled' GROUP BY table_id",
            )
          ).map((row) => [textCol(row, 'table_id'), intCol(row, 'n')]),
        );
        return roomIds.every((id) => (settled.get(id) ?? 0) >= 3) ? true : null;
      }, 'hands on every table');
    /** The bots leave, the processes stop, and the audit must find every chip. */
    const finish = async (runs: readonly Promise<FeltRun>[], running: readonly FeltServer[]) => {
      for (const child of bots.splice(0)) child.kill('SIGTERM');
      for (const run of await Promise.all(runs)) {
        expect(run.status, run.stderr).toBe(0);
        expect((run.json as { hands: number }).hands).toBeGreaterThan(0);
      }
      await Promise.all(running.map((server) => server.stop()));
      const audit = await felt(['admin', 'audit', '--db', url]);
      const report = audit.json as { conserved: boolean; problems: unknown[] };
      expect(report.problems).toEqual([]);
      expect(report.conserved).toBe(true);
      expect(audit.status).toBe(0);
    };
    /**
     * What the dead or paused process left: read a second after it stopped (a COMMIT it had sent may
     * still land; nobody else writes for its tables before their leases run out, 3 s at the least).
     */
    const leftBehind = async (at: readonly string[] = roomIds) => {
      await sleep(1000);
      return { inProgress: await handsWith('in-progress', at), seats: await seatsWithChips(at) };
    };
    return {
      url,
      sql,
      tablesFile,
      start,
      seatsWithChips,
      owners,
      spread,
      handsWith,
      everyTableDealsAfter,
      first,
      play,
      handsEverywhere,
      finish,
      leftBehind,
    };
  }

  /** A folder of its own for another table set's file (removed after the file). */
  function tempFolder(): string {
    const folder = tempDir('felt-cluster-tables-');
    folders.push(folder);
    return folder.dir;
  }

  return { room, bots };
}
