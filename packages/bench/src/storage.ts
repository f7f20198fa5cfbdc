/**
 * storage: what the room's storage costs per action, offline — the write workload of 1,000 six-seat
 * tables on a fresh SQLite file with the room's durability (synchronous = FULL, checkpoints on a thread
 * of their own): every action recorded (half of them moving chips), 30 actions a hand, each hand settled
 * with its histories (PHH of the room's size) and the next one started. The actions of many tables are
 * committed together, as the room's group commit does; rows for commits of 1, 4 and 16 actions:
 * `storage-cpu-N` (µs of CPU per action, every thread of this process: statements, commits, syncs,
 * checkpoints) and `storage-written-N` (KB written per action: the WAL and the checkpoints, from
 * `/proc/self/io`). No peer library stores a poker room, so the rows have no peers.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedSqliteStorage, type HandActionRecord, type Storage } from '@felt/server';
import type { BenchGroup, BenchRow } from './registry.js';

const TABLES = 1000;
const SEATS = 6;
const ACTIONS_PER_HAND = 30;
const STACK = 100_000;
/** The size of a hold'em hand's PHH in the room (its views are the same length, `??` for a hidden card). */
const PHH_CHARS = 900;
const BLINDS = [50, 100] as const;
const BET = 20;

interface TableHand {
  readonly id: number;
  readonly players: readonly number[];
  seq: number;
  pot: number;
}

/** Bytes this process has written (Linux); null elsewhere. */
function writtenBytes(): number | null {
  try {
    return Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
  } catch {
    return null;
  }
}

class Room {
  readonly #hands: TableHand[] = [];
  #next = 0;

  private constructor(
    readonly storage: Storage,
    readonly players: readonly number[],
  ) {}

  static async open(dataDir: string): Promise<Room> {
    const storage = await openMigratedSqliteStorage({ dataDir });
    const players: number[] = [];
    for (let i = 0; i < TABLES * SEATS; i++) {
      const user = await storage.createUser({ name: `p${i}`, passwordHash: 'h', passwordSalt: 's' });
      if (!user.ok) throw new Error(user.error.message);
      const topped = await storage.topUp(user.value.id, STACK);
      const seated = await storage.buyIn(`t${Math.floor(i / SEATS)}`, user.value.id, 'play', STACK);
      if (!topped.ok || !seated.ok) throw new Error('set-up refused');
      players.push(user.value.id);
    }
    const room = new Room(storage, players);
    await Promise.all(Array.from({ length: TABLES }, (_, table) => room.#deal(table)));
    return room;
  }

  async #deal(table: number): Promise<void> {
    const players = this.players.slice(table * SEATS, (table + 1) * SEATS);
    const started = await this.storage.startHand({
      tableId: `t${table}`,
      currency: 'play',
      description: "NL Hold'em 50/100",
      participants: players.map((userId, position) => ({ userId, seat: position, position })),
      posts: BLINDS.map((amount, i) => ({ userId: players[i]!, amount })),
    });
    if (!started.ok) throw new Error(started.error.message);
    this.#hands[table] = { id: started.value, players, seq: 0, pot: BLINDS[0] + BLINDS[1] };
  }

  /** The next action of the next table, round the room; the hand's last one settles it and deals again. */
  async act(): Promise<void> {
    const table = this.#next++ % TABLES;
    const hand = this.#hands[table]!;
    const seq = hand.seq++;
    const by = hand.players[seq % SEATS]!;
    const bets = seq % 2 === 0;
    if (bets) hand.pot += BET;
    const record: HandActionRecord = {
      handId: hand.id,
      seq,
      action: JSON.stringify({
        by,
        action: { type: bets ? 'bet' : 'check', player: seq % SEATS },
        events: 1,
      }),
      moves: bets ? [{ userId: by, amount: BET }] : [],
      ...(seq === ACTIONS_PER_HAND - 1
        ? {
            settlement: {
              awards: [{ userId: by, amount: hand.pot }],
              rake: 0,
              history: {
                phh: 'x'.repeat(PHH_CHARS),
                views: hand.players.map((userId) => ({ userId, phh: 'x'.repeat(PHH_CHARS) })),
              },
            },
          }
        : {}),
    };
    const recorded = await this.storage.recordAction(record);
    if (!recorded.ok) throw new Error(recorded.error.message);
    if (record.settlement !== undefined) await this.#deal(table);
  }
}

/** Plays `actions` actions, `perCommit` at a time (they reach the storage together: one group commit). */
async function measure(perCommit: number, actions: number): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'felt-bench-storage-'));
  const room = await Room.open(dataDir);
  try {
    const written = writtenBytes();
    const cpu = process.cpuUsage();
    for (let done = 0; done < actions; done += perCommit) {
      await Promise.all(Array.from({ length: perCommit }, () => room.act()));
    }
    const used = process.cpuUsage(cpu);
    const rows: BenchRow[] = [
      {
        name: `storage-cpu-${perCommit}`,
        unit: 'µs/action',
        felt: Math.round((10 * (used.user + used.system)) / actions) / 10,
        peers: {},
      },
    ];
    const after = writtenBytes();
    if (written !== null && after !== null) {
      rows.push({
        name: `storage-written-${perCommit}`,
        unit: 'KB/action',
        felt: Math.round((10 * (after - written)) / 1024 / actions) / 10,
        peers: {},
      });
    }
    return rows;
  } finally {
    await room.storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const storageGroup: BenchGroup = {
  name: 'storage',
  async *rows() {
    // Three hands a table: the journal, the settlements and the checkpoints all reach a steady state.
    for (const perCommit of [1, 4, 16]) yield* await measure(perCommit, 3 * TABLES * ACTIONS_PER_HAND);
  },
};
