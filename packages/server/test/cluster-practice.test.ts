/**
 * A practice table on a room of several processes: the process that owns the table runs its house bots,
 * and a person connected to another process plays against them through the bus. The owner is killed
 * (SIGKILL): the other process takes the table, its seats restored — the person's and the bots' — and
 * its house bots there play the bots' seats on (they act: the table's clocks would not act for them),
 * never more bots at the table than it asks for, and `felt admin audit --db` finds every chip. Real
 * `felt serve --db postgres://… --bus nats://…` processes; without PostgreSQL or NATS it skips, or fails
 * when CI=true (./services.ts).
 */
import { describe, expect, it } from 'vitest';
import type { PracticeConfig } from '../src/practice/config.js';
import { intCol, textCol } from '../src/storage/sql.js';
import { clusterRooms, eventually, memberOf } from './cluster-helpers.js';
import { felt, Player } from './integration-helpers.js';
import { natsReachable } from './nats-helpers.js';
import { postgresReachable } from './postgres-helpers.js';

const reachable = (await postgresReachable()) && (await natsReachable());

const PRACTICE = 'cluster-practice';
const HOUSE_BOTS = 3;
/** Nobody's clock runs out in the test's time: a hand ends only if the bots act. */
const practice: PracticeConfig = {
  id: PRACTICE,
  name: PRACTICE,
  game: 'holdem',
  structure: 'no-limit',
  stakes: { small: 100, big: 200 },
  currency: 'play',
  seats: 6,
  clocks: { betweenHandsMs: 50, actionMs: 600_000, timeBankMs: 0 },
  houseBots: HOUSE_BOTS,
};

describe.runIf(reachable)('a practice table on several processes (PostgreSQL, NATS)', () => {
  const { room } = clusterRooms([practice], [PRACTICE]);

  it('the owner runs the house bots, a person on the other process plays them; the owner killed, the other takes the table and its bots play on, every chip kept', async () => {
    const cluster = await room();
    const a = await cluster.first();
    const b = await cluster.start('b');

    /** Settled hands at the table since hand `after`, each with the accounts dealt in. */
    const settledHands = async (after: number) => {
      const players = new Map<number, number[]>();
      for (const row of await cluster.sql.all(
        `SELECT h.id, hp.user_id FROM hands h JOIN hand_players hp ON hp.hand_id = h.id
          WHERE h.table_id = ? AND h.status = 'settled' AND h.id > ? ORDER BY h.id`,
        [PRACTICE, after],
      )) {
        const id = intCol(row, 'id');
        players.set(id, [...(players.get(id) ?? []), intCol(row, 'user_id')]);
      }
      return players;
    };
    const lastHand = async () =>
      intCol((await cluster.sql.get('SELECT COALESCE(MAX(id), 0) AS id FROM hands'))!, 'id');
    const userNames = async () =>
      new Map(
        (await cluster.sql.all('SELECT id, name FROM users')).map((row) => [
          intCol(row, 'id'),
          textCol(row, 'name'),
        ]),
      );

    // A person signs up on the process that does not run the table and sits down there.
    const guest = await Player.signUp(b.url, 'guest');
    let mostBots = 0;
    guest.client.onPush((message) => {
      if (message.op !== 'table-snapshot' || message.tableId !== PRACTICE) return;
      mostBots = Math.max(mostBots, message.view.seats.filter((seat) => seat?.bot === true).length);
    });
    await guest.sit(PRACTICE, 0, 10_000, 'post');
    const wanted = HOUSE_BOTS - 1;
    const before = await eventually(async () => {
      const hands = [...(await settledHands(0)).values()].filter(
        (dealt) => dealt.includes(guest.id) && dealt.length === 1 + wanted,
      );
      return hands.length >= 3 ? hands : null;
    }, 'the guest to play three hands with the house bots');
    const names = await userNames();
    const bots = before[before.length - 1]!.filter((account) => account !== guest.id);
    for (const account of bots) expect(names.get(account)).toMatch(/^Bot /);
    expect((await cluster.owners()).get(PRACTICE)).toBe(memberOf(a));
    // The house bots play where the table runs: the other process's log never took the table.
    expect(b.logs.some((line) => line['tableId'] === PRACTICE && line.msg === 'table taken over')).toBe(
      false,
    );

    await a.kill();
    const killed = await lastHand();
    await eventually(
      async () => ((await cluster.owners()).get(PRACTICE) === memberOf(b) ? true : null),
      'the other process to take the table',
    );
    // The bots' seats were restored and its house bots play them: hands end, though no clock acts.
    const after = await eventually(async () => {
      const hands = [...(await settledHands(killed)).values()].filter((dealt) =>
        bots.every((account) => dealt.includes(account)),
      );
      return hands.length >= 3 ? hands : null;
    }, 'the same house bots to play three hands at the table taken over');
    expect(after.length).toBeGreaterThanOrEqual(3);
    const takeover = b.logs.find((line) => line['tableId'] === PRACTICE && line.msg === 'table taken over');
    expect(Number(takeover?.['seatsKept'])).toBeGreaterThanOrEqual(wanted);
    expect(mostBots).toBeGreaterThan(0);
    expect(mostBots).toBeLessThanOrEqual(HOUSE_BOTS);

    guest.client.close();
    expect(await b.stop()).toBe(0);
    const audit = await felt(['admin', 'audit', '--db', cluster.url]);
    const report = audit.json as { conserved: boolean; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.conserved).toBe(true);
  }, 600_000);
});
