/**
 * A server never recovers a database that another kind of room runs, and recovers nothing before its
 * port is bound: real `felt serve` processes on a real PostgreSQL database (and NATS for the cluster),
 * and on a real SQLite file. Without PostgreSQL or NATS the cluster cases skip, or fail when CI=true
 * (./services.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { TableConfig } from '../src/table/types.js';
import { intCol } from '../src/storage/sql.js';
import { PostgresDriver } from '../src/storage/index.js';
import { clusterRooms, eventually, expectConserved } from './cluster-helpers.js';
import {
  audit,
  felt,
  FeltServer,
  freePort,
  tempDir,
  writeTables,
  type AuditOutput,
  type FeltRun,
} from './integration-helpers.js';
import { NATS_URL, natsReachable } from './nats-helpers.js';
import { postgresReachable } from './postgres-helpers.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const IDS = ['mode-1', 'mode-2', 'mode-3', 'mode-4'];
const table = (id: string): TableConfig => ({
  id,
  name: id,
  game: 'holdem',
  structure: 'no-limit',
  stakes: { small: 100, big: 200 },
  currency: 'play',
  seats: 3,
  clocks: { betweenHandsMs: 50 },
});

/** `felt serve ARGS` on a free port, expected to exit by itself (refused); one that listens is killed. */
async function refusedStart(dataDir: string, args: readonly string[]): Promise<FeltRun> {
  const port = await freePort();
  return felt(['serve', '--port', String(port), '--data', dataDir, ...args], (child) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('"msg":"listening"')) child.kill('SIGKILL');
    });
  });
}

/** The refusal's words in a run's log (the `cannot start` line). */
const refusal = (run: FeltRun): string => `${run.stdout}${run.stderr}`;

const count = async (sql: PostgresDriver, query: string): Promise<number> =>
  intCol((await sql.get(query))!, 'n');

describe.skipIf(!reachable)('a server of the other kind of room is refused', () => {
  const rooms = clusterRooms(IDS.map(table), IDS);

  it('a start whose port is taken recovers nothing (PostgreSQL, one process)', async () => {
    const { url } = await rooms.room();
    await portTakenRecoversNothing(['--db', url], async () => {
      const run = await felt(['admin', 'audit', '--db', url]);
      return run.json as AuditOutput;
    });
  }, 120_000);

  it('a process without --bus on a live cluster’s database is refused, and the cluster’s seats and chips are untouched', async () => {
    const room = await rooms.room();
    const first = await room.first();
    const runs = room.play([first]);
    await room.handsEverywhere();
    const data = tempDir('felt-stray-');
    try {
      for (const extra of [[], ['--switch-mode']]) {
        const stray = await refusedStart(data.dir, ['--db', room.url, '--tables', room.tablesFile, ...extra]);
        expect(stray.status).not.toBe(0);
        expect(refusal(stray)).toContain('ROOM_IN_USE');
      }
    } finally {
      data.remove();
    }
    // Nothing recovered: no seat cashed out, no hand cancelled, the seats still hold their chips.
    expect(
      await count(room.sql, "SELECT COUNT(*) AS n FROM ledger_transactions WHERE kind = 'crash-cash-out'"),
    ).toBe(0);
    expect(await room.handsWith('cancelled')).toEqual([]);
    expect(await room.seatsWithChips()).toBeGreaterThan(0);
    await room.everyTableDealsAfter(Date.now(), 'every table to deal on after the stray');
    await room.finish(runs, [first]);
  }, 300_000);

  it('a cluster member on a one-process room’s database is refused while it runs, and after it without --switch-mode', async () => {
    const room = await rooms.room();
    const sql = room.sql;
    const port = await freePort();
    const data = tempDir('felt-one-');
    try {
      const alone = await FeltServer.start(data.dir, port, ['--db', room.url, '--tables', room.tablesFile]);
      const member = ['--db', room.url, '--bus', NATS_URL, '--tables', room.tablesFile];
      const whileLive = await refusedStart(data.dir, [...member, '--switch-mode']);
      expect(whileLive.status).not.toBe(0);
      expect(refusal(whileLive)).toContain('ROOM_IN_USE');
      expect(await count(sql, 'SELECT COUNT(*) AS n FROM cluster_members')).toBe(0);
      expect(await alone.stop()).toBe(0);
      const after = await refusedStart(data.dir, member);
      expect(after.status).not.toBe(0);
      expect(refusal(after)).toContain('WRONG_MODE');
      expect(await count(sql, 'SELECT COUNT(*) AS n FROM cluster_members')).toBe(0);
      // The operator's deliberate switch, once nothing of the one-process room runs.
      const switched = await FeltServer.start(data.dir, await freePort(), [...member, '--switch-mode']);
      // It runs the room: it takes the tables.
      await eventually(async () => ((await room.owners()).size > 0 ? true : null), 'the tables taken');
      expect(await switched.stop()).toBe(0);
      await expectConserved(room.url);
    } finally {
      data.remove();
    }
  }, 120_000);
});

/**
 * A room crashed (SIGKILL) with chips at its table, then started again on a port another process holds:
 * that start fails and the room's seats are as the crash left them. `where`: the database's arguments.
 */
async function portTakenRecoversNothing(
  where: readonly string[],
  audited: (dataDir: string) => Promise<AuditOutput>,
) {
  const data = tempDir('felt-port-');
  const file = writeTables(data.dir, [table('port-1')]);
  const args = [...where, '--tables', file];
  let blocker: Server | null = null;
  try {
    const server = await FeltServer.start(data.dir, await freePort(), args);
    let botsChild: ChildProcess | null = null;
    const bots = felt(
      ['bots', '--url', server.url, '--bots', '3', '--seconds', '600', '--think-ms', '5'],
      (child) => (botsChild = child),
    );
    await eventually(
      async () => ((await audited(data.dir)).currencies.play.seats > 0 ? true : null),
      'chips at the table',
    );
    await server.kill();
    (botsChild as ChildProcess | null)?.kill('SIGKILL');
    await bots;
    // The crash left chips at the table for the next start's recovery.
    const crashed = await audited(data.dir);
    expect(crashed.currencies.play.seats + crashed.currencies.play.pots).toBeGreaterThan(0);
    const taken = createServer();
    blocker = taken;
    const port = await new Promise<number>((resolve) => {
      taken.listen(0, () => {
        resolve((taken.address() as { port: number }).port);
      });
    });
    const run = await felt(['serve', '--port', String(port), '--data', data.dir, ...args]);
    expect(run.status).not.toBe(0);
    expect(refusal(run)).toContain('EADDRINUSE');
    expect(await audited(data.dir)).toEqual(crashed);
  } finally {
    blocker?.close();
    data.remove();
  }
}

describe('a start whose port is taken', () => {
  it('recovers nothing (SQLite)', async () => {
    await portTakenRecoversNothing([], (dataDir) => audit(dataDir));
  }, 120_000);
});
