/**
 * A practice table on a room of several processes: the process that owns the table runs its house bots,
 * and a person connected to another process plays against them through the bus. The owner is killed
 * (SIGKILL): the other process takes the table, its seats restored — the person's and the bots' — and
 * its house bots there play the bots' seats on (they act: the table's clocks would not act for them),
 * never more bots at the table than it asks for, and `felt admin audit --db` finds every chip. The
 * person's process is paused (SIGSTOP) until its heartbeat runs out: the owner ends its subscriptions
 * (the person is disconnected there); woken, it joins again and subscribes again, so that he is seen
 * back and plays on. And a process that starts takes one of two practice tables between two hands: the
 * new owner's house bots play the handed-over bots' seats on (nothing cancelled). Real
 * `felt serve --db postgres://… --bus nats://…` processes; without PostgreSQL or NATS it skips, or fails
 * when CI=true (./services.ts).
 */
import { describe, expect, it } from 'vitest';
import type { TableView, WireHandAction } from '@felt/protocol';
import type { PracticeConfig } from '../src/practice/config.js';
import { intCol, textCol } from '../src/storage/sql.js';
import { clusterRooms, eventually, memberOf } from './cluster-helpers.js';
import { felt, Player, type FeltServer } from './integration-helpers.js';
import type { PostgresDriver } from '../src/storage/index.js';
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

/** Settled hands at table `tableId` since hand `after`, each with the accounts dealt in. */
async function settledHands(sql: PostgresDriver, tableId: string, after: number) {
  const players = new Map<number, number[]>();
  for (const row of await sql.all(
    `SELECT h.id, hp.user_id FROM hands h JOIN hand_players hp ON hp.hand_id = h.id
      WHERE h.table_id = ? AND h.status = 'settled' AND h.id > ? ORDER BY h.id`,
    [tableId, after],
  )) {
    const id = intCol(row, 'id');
    players.set(id, [...(players.get(id) ?? []), intCol(row, 'user_id')]);
  }
  return [...players.values()];
}

const lastHand = async (sql: PostgresDriver) =>
  intCol((await sql.get('SELECT COALESCE(MAX(id), 0) AS id FROM hands'))!, 'id');

/** Waits for three hands at `tableId` after hand `after` in which every one of `accounts` was dealt in. */
const threeHandsWith = (
  sql: PostgresDriver,
  tableId: string,
  after: number,
  accounts: readonly number[],
  what: string,
) =>
  eventually(async () => {
    const hands = (await settledHands(sql, tableId, after)).filter((dealt) =>
      accounts.every((account) => dealt.includes(account)),
    );
    return hands.length >= 3 ? hands : null;
  }, what);

/**
 * A person seated at `tableId` through `server`, and the most house bots he has seen there at once. He
 * checks, calls at most a big blind, else folds: never his stack on a bot's all-in, so that he keeps
 * chips and is dealt in hand after hand.
 */
async function guestAt(server: FeltServer, name: string, tableId: string) {
  const guest = await Player.signUp(server.url, name);
  guest.autoplay = false;
  let mostBots = 0;
  guest.client.onPush((message) => {
    if (!('tableId' in message) || message.tableId !== tableId) return;
    if (message.op === 'table-snapshot')
      mostBots = Math.max(mostBots, message.view.seats.filter((seat) => seat?.bot === true).length);
    else if (message.op === 'legal-actions' && message.legal.seat === guest.view?.you) {
      const { legal } = message;
      const action: WireHandAction = legal.check
        ? { type: 'check' }
        : legal.call !== null && legal.call <= practice.stakes.big
          ? { type: 'call' }
          : { type: 'fold' };
      void guest.client.request('act', { tableId, handId: message.handId, action });
    }
  });
  await guest.sit(tableId, 0, 10_000, 'post');
  return { guest, mostBots: () => mostBots };
}

/** The processes stop and `felt admin audit --db` must find every chip. */
async function audited(url: string, running: readonly FeltServer[]) {
  for (const server of running) expect(await server.stop()).toBe(0);
  const audit = await felt(['admin', 'audit', '--db', url]);
  const report = audit.json as { conserved: boolean; problems: unknown[] };
  expect(report.problems).toEqual([]);
  expect(report.conserved).toBe(true);
}

describe.runIf(reachable)('a practice table on several processes (PostgreSQL, NATS)', () => {
  const { room } = clusterRooms([practice], [PRACTICE]);

  it('the owner runs the house bots, a person on the other process plays them; the owner killed, the other takes the table and its bots play on, every chip kept', async () => {
    const cluster = await room();
    const a = await cluster.first();
    const b = await cluster.start('b');

    const userNames = async () =>
      new Map(
        (await cluster.sql.all('SELECT id, name FROM users')).map((row) => [
          intCol(row, 'id'),
          textCol(row, 'name'),
        ]),
      );

    // A person signs up on the process that does not run the table and sits down there.
    const { guest, mostBots } = await guestAt(b, 'guest', PRACTICE);
    const wanted = HOUSE_BOTS - 1;
    const before = await eventually(async () => {
      const hands = (await settledHands(cluster.sql, PRACTICE, 0)).filter(
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
    const killed = await lastHand(cluster.sql);
    await eventually(
      async () => ((await cluster.owners()).get(PRACTICE) === memberOf(b) ? true : null),
      'the other process to take the table',
    );
    // The bots' seats were restored and its house bots play them: hands end, though no clock acts.
    await threeHandsWith(
      cluster.sql,
      PRACTICE,
      killed,
      bots,
      'the same house bots to play three hands at the table taken over',
    );
    const takeover = b.logs.find((line) => line['tableId'] === PRACTICE && line.msg === 'table taken over');
    expect(Number(takeover?.['seatsKept'])).toBeGreaterThanOrEqual(wanted);
    expect(mostBots()).toBeGreaterThan(0);
    expect(mostBots()).toBeLessThanOrEqual(HOUSE_BOTS);

    guest.client.close();
    await audited(cluster.url, [b]);
  }, 600_000);

  it("the person's process paused past its heartbeat joins again and watches the table again: the owner sees him back, and he plays on with the house bots", async () => {
    const cluster = await room();
    const a = await cluster.first();
    const b = await cluster.start('b');
    const { guest } = await guestAt(b, 'guest', PRACTICE);
    await eventually(async () => {
      const hands = (await settledHands(cluster.sql, PRACTICE, 0)).filter((dealt) =>
        dealt.includes(guest.id),
      );
      return hands.length > 0 ? true : null;
    }, 'the guest to play a hand');
    // Someone watching on the owner's process sees whether the guest is connected there.
    const rail = await Player.signUp(a.url, 'rail');
    rail.tableId = PRACTICE;
    await rail.client.ok('table-open', { tableId: PRACTICE });
    const guestConnected = (connected: boolean) => (view: TableView) =>
      view.seats.find((seat) => seat?.account === guest.id)?.connected === connected;
    await rail.until(guestConnected(true), 60_000);

    const firstMember = memberOf(b);
    b.child.kill('SIGSTOP');
    // Its heartbeat runs out: the owner ends its subscriptions, and the guest is gone from the table.
    await rail.until(guestConnected(false), 60_000);
    b.child.kill('SIGCONT');
    await eventually(
      () => Promise.resolve(memberOf(b) !== firstMember ? true : null),
      'the woken process to join again',
    );
    await rail.until(guestConnected(true), 60_000);
    const woken = await lastHand(cluster.sql);
    await threeHandsWith(cluster.sql, PRACTICE, woken, [guest.id], 'the guest to play three hands again');

    guest.client.close();
    rail.client.close();
    await audited(cluster.url, [a, b]);
  }, 600_000);
});

describe.runIf(reachable)('practice tables handed over on several processes (PostgreSQL, NATS)', () => {
  const TWO = ['practice-1', 'practice-2'];
  const { room } = clusterRooms(
    TWO.map((id) => ({ ...practice, id, name: id })),
    TWO,
  );

  it('a process that starts takes a practice table between two hands: its bots there stop, the new owner plays their seats on, never more bots than the table asks for, every chip kept', async () => {
    const cluster = await room();
    const a = await cluster.first();
    const guests = await Promise.all(TWO.map((id, at) => guestAt(a, `guest${at}`, id)));
    for (const id of TWO) await threeHandsWith(cluster.sql, id, 0, [], `hands at ${id}`);

    const b = await cluster.start('b');
    const moved = await eventually(async () => {
      const owners = await cluster.owners();
      return TWO.find((id) => owners.get(id) === memberOf(b)) ?? null;
    }, 'the new process to take its share');
    const handedAt = await lastHand(cluster.sql);
    const last = (await settledHands(cluster.sql, moved, 0)).at(-1)!;
    const guest = guests[TWO.indexOf(moved)]!.guest;
    const bots = last.filter((account) => account !== guest.id);
    expect(bots.length).toBe(HOUSE_BOTS - 1);
    await threeHandsWith(
      cluster.sql,
      moved,
      handedAt,
      bots,
      'the same house bots to play three hands at the table handed over',
    );
    expect(a.logs.some((line) => line['tableId'] === moved && line.msg === 'table handed over')).toBe(true);
    const takeover = b.logs.find((line) => line['tableId'] === moved && line.msg === 'table taken over');
    expect(Number(takeover?.['handsCancelled'])).toBe(0);
    for (const { mostBots } of guests) expect(mostBots()).toBeLessThanOrEqual(HOUSE_BOTS);

    for (const { guest: each } of guests) each.client.close();
    await audited(cluster.url, [a, b]);
  }, 600_000);
});
