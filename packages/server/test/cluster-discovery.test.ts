/**
 * Every process of a room lists the same tables (src/cluster/member.ts): a table only one process knows
 * — its lobby opened it, every table of its kind being full there — is told to the others in its owner's
 * news, once, and listed by them too; a process of another room (another database) on the same NATS is
 * never heard. Two members in this process on a real PostgreSQL and NATS. Without them it skips, or
 * fails when CI=true (./services.ts).
 */
import { describe, expect, it } from 'vitest';
import { openClusterRoom, type ClusterRoom } from '../src/cluster/room.js';
import { silentLogger } from '../src/log.js';
import { createTable, cryptoRandomSource, realClock } from '../src/table/index.js';
import type { TableConfig } from '../src/table/types.js';
import { NATS_URL, natsReachable } from './nats-helpers.js';
import { postgresReachable, testDatabase } from './postgres-helpers.js';
import { nlHoldem } from './table-configs.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const table = (id: string): TableConfig => nlHoldem(id, { seats: 2 });

/** Polls until `fn` is true; generous, for a busy machine. */
async function eventually(fn: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(reachable)('the tables every process lists (PostgreSQL, NATS)', () => {
  const db = testDatabase();

  /** A process of the room on `url` knowing `tables`; the tables it was told of go to `found`. */
  async function member(url: string, node: string, tables: readonly string[], found: string[]) {
    const room: ClusterRoom = await openClusterRoom({
      db: url,
      bus: NATS_URL,
      node,
      openActor: (config, storage) =>
        createTable(config, { storage, clock: realClock(), random: cryptoRandomSource() }),
      dropped: () => undefined,
      closed: () => undefined,
      // As the lobby does: the table is listed, so it is told only once.
      discovered: (config) => {
        found.push(config.id);
        room.member.table(config);
      },
      logger: silentLogger,
    });
    for (const id of tables) room.member.table(table(id));
    await room.member.start(node);
    return room;
  }

  it('a table one process opened is listed by the others, told once; another room on the same NATS is not heard', async () => {
    const [url, elsewhere] = [await db.freshDatabase(), await db.freshDatabase()];
    const found = { first: [] as string[], second: [] as string[], other: [] as string[] };
    const rooms = [
      await member(url, 'first', ['t-1', 't-1-2'], found.first),
      await member(url, 'second', ['t-1'], found.second),
      await member(elsewhere, 'other', ['o-1'], found.other),
    ];
    try {
      await eventually(() => found.second.length > 0, 'the second process to be told of t-1-2');
      // Both run a table (the targets agree once both know both tables).
      await eventually(
        () => rooms[0]!.member.owned().length === 1 && rooms[1]!.member.owned().length === 1,
        'the two tables to spread over the two processes',
      );
      expect(found).toEqual({ first: [], second: ['t-1-2'], other: [] });
      expect(rooms[2]!.member.owned()).toEqual(['o-1']);
    } finally {
      for (const room of rooms) await room.close();
    }
  }, 120_000);
});
